import ContentRuleList
import RuleEngineKit
import Testing
import TrackerlessTestSupport

/// `decision(utf8:topURL:frameURL:resourceType:method:cache:)`, the entry point of hosts that hold
/// their URLs as bytes (the C API), against `decision(for:cache:)` on random lists and loads
/// (``RandomRuleLists``, ``RandomRequests``: odd schemes, invalid and non-ASCII URLs, frames,
/// methods, more pages than a cache remembers): the same decision for every load, with a cache of
/// its own and with one cache shared by both entry points.
@Suite("RuleEngine.decision(utf8:) == decision(for:)")
struct UTF8DecisionTests {
    @Test("random lists and loads: the same decision through bytes as through Strings", arguments: 0..<4)
    func sameDecisions(chunk: Int) throws {
        var mismatches: [String] = []
        var checked = 0
        for listIndex in 0..<40 {
            let seed = SplitMixGenerator.seed(0x5554_4638, index: UInt64(chunk * 1000 + listIndex))
            var generator = RandomRuleLists(seed: seed)
            guard let list = try? RuleList(parsing: generator.next().json), let engine = try? RuleEngine(ruleLists: [list]) else {
                continue
            }
            var requests = RandomRequests(seed: seed ^ 0x6279_7465)
            let pages = (0..<12).map { _ in requests.page() }
            var stringCache = RuleEngine.PageCache()
            var byteCache = RuleEngine.PageCache()
            var sharedCache = RuleEngine.PageCache()
            for index in 0..<48 {
                let load = requests.load(on: requests.random.pick(pages))
                let request = Request(
                    url: load.url, topURL: load.topURL, frameURL: load.frameURL,
                    resourceType: ResourceType(rawValue: load.resourceType) ?? .other,
                    method: load.method.flatMap { RequestMethod(rawValue: $0) })
                let expected = engine.decision(for: request, cache: &stringCache)
                let throughBytes = Self.decision(engine, request, cache: &byteCache)
                // The shared cache alternates the entry points, so each finds pages the other made.
                let shared = index % 2 == 0
                    ? Self.decision(engine, request, cache: &sharedCache) : engine.decision(for: request, cache: &sharedCache)
                for (name, decision) in [("own cache", throughBytes), ("shared cache", shared)] where !Self.same(decision, expected) {
                    if mismatches.count < 10 { mismatches.append("list seed \(seed), \(load), \(name): \(decision.appliedActions) vs \(expected.appliedActions)") }
                }
                checked += 1
            }
        }
        #expect(checked > 1_000)
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    @Test("a known page's loads: the page's Strings reused, the answers of the String path")
    func knownPage() throws {
        let list = try RuleList(parsing: #"""
            [{"trigger": {"url-filter": "tracker\\.example", "if-top-url": ["^https://news\\.example/"]}, "action": {"type": "block"}},
             {"trigger": {"url-filter": "ads", "if-frame-url": ["^https://frame\\.example/"]}, "action": {"type": "block-cookies"}}]
            """#)
        let engine = try RuleEngine(ruleLists: [list])
        var cache = RuleEngine.PageCache()
        let top = "https://news.example/story"
        for url in ["https://tracker.example/a.js", "https://cdn.example/ads.js", "https://TRACKER.example", "data:,x"] {
            for frame: String? in [nil, "https://frame.example/f"] {
                let request = Request(url: url, topURL: top, frameURL: frame, resourceType: .script)
                var fresh = RuleEngine.PageCache()
                let expected = engine.decision(for: request, cache: &fresh)
                #expect(Self.same(Self.decision(engine, request, cache: &cache), expected), "\(url) in frame \(frame ?? "main")")
            }
        }
    }

    /// The request through the byte entry point.
    static func decision(_ engine: RuleEngine, _ request: Request, cache: inout RuleEngine.PageCache) -> RuleEngine.Decision {
        let url = Array(request.url.utf8), top = Array(request.topURL.utf8), frame = request.frameURL.map { Array($0.utf8) }
        return url.withUnsafeBufferPointer { url in
            top.withUnsafeBufferPointer { top in
                guard let frame else {
                    return engine.decision(
                        utf8: url, topURL: top, frameURL: nil, resourceType: request.resourceType, method: request.method, cache: &cache)
                }
                return frame.withUnsafeBufferPointer { frame in
                    engine.decision(
                        utf8: url, topURL: top, frameURL: frame, resourceType: request.resourceType, method: request.method, cache: &cache)
                }
            }
        }
    }

    /// The same actions and the same summary flags.
    static func same(_ lhs: RuleEngine.Decision, _ rhs: RuleEngine.Decision) -> Bool {
        lhs == rhs && lhs.isBlocked == rhs.isBlocked && lhs.blocksCookies == rhs.blocksCookies
            && lhs.upgradesToHTTPS == rhs.upgradesToHTTPS && lhs.hidesElements == rhs.hidesElements
    }
}

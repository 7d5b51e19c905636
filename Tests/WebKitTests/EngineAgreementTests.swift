import ContentRuleList
import Foundation
import RuleEngineKit
import Testing
import TrackerlessTestSupport

/// ``RuleEngine`` checked against real WebKit (WebKitGTK through the harness): on every load of
/// the reference suites (our rules and DuckDuckGo's, reusing the harness runs of
/// ``ReferenceSuitesInWebKitTests``), and on random rule lists from ``RandomRuleLists`` loaded
/// in a web view with random loads. The engine must block exactly what WebKit blocked, right or
/// wrong. Run time: the shared reference runs, plus four harness runs of 40 loads (about 40 s).
@Suite(
    "RuleEngine agrees with WebKit",
    .enabled(if: WebKitHarness.shouldRun, "WebKitGTK (python3-gi, gir1.2-webkit2-4.1, xvfb) is not installed"),
    .enabled(if: SharedData.shouldRun, SharedData.skipMessage))
struct EngineAgreementTests {
    // MARK: - Reference suites

    static let ourLoads = ReferenceSuite.allCases.flatMap(\.loads)
    static let duckDuckGoLoads = ReferenceSuite.domainMatching.loads + ReferenceSuite.trackerAllowlist.loads

    /// The engine on the lists each reference run installed in WebKit, compiled once per run.
    static let ourEngines: [ReferenceSuite: Result<RuleEngine, any Error>] = Dictionary(
        uniqueKeysWithValues: ReferenceSuite.allCases.map { suite in
            (suite, Result { try RuleEngine(ruleLists: ReferenceRuns.ours(suite).ruleLists) })
        })
    static let duckDuckGoEngines: [ReferenceSuite: Result<RuleEngine, any Error>] = Dictionary(
        uniqueKeysWithValues: [ReferenceSuite.domainMatching, .trackerAllowlist].map { suite in
            (suite, Result { try RuleEngine(ruleLists: ReferenceRuns.duckDuckGo(suite).ruleLists) })
        })

    @Test("our rules: engine == WebKit", arguments: ourLoads)
    func ourRules(_ load: ReferenceLoad) throws {
        let engine = try #require(Self.ourEngines[load.suite]).get()
        try Self.expectAgreement(load, engine: engine, in: ReferenceRuns.ours(load.suite))
    }

    @Test("DuckDuckGo's rules: engine == WebKit", arguments: duckDuckGoLoads)
    func duckDuckGoRules(_ load: ReferenceLoad) throws {
        let engine = try #require(Self.duckDuckGoEngines[load.suite]).get()
        try Self.expectAgreement(load, engine: engine, in: ReferenceRuns.duckDuckGo(load.suite))
    }

    static func expectAgreement(_ load: ReferenceLoad, engine: RuleEngine, in run: ReferenceRun) throws {
        let webKit = try #require(run.webKit[load.id], "WebKit gave no result")
        var cache = RuleEngine.PageCache()
        let decision = engine.decision(for: load.request, cache: &cache)
        #expect(
            decision.isBlocked == webKit.blocked,
            "engine: \(decision.appliedActions.actions.map(\.type)), WebKit: \(webKit.detail); \(load.summary)")
    }

    // MARK: - Random lists

    /// One harness run: random lists (observable actions only) and random loads on a few pages.
    struct RandomRun: Sendable, CustomTestStringConvertible {
        var seed: UInt64
        var listCount: Int
        var testDescription: String { "seed \(seed), \(listCount) list(s)" }
    }

    /// CI's seeds: WebKit blocks some of their loads and not others (many seeds block all, with a
    /// universal rule, or none). They depend on the generators: pick again when those change.
    static let mixedSeeds = [5, 11, 12, 14]

    /// Seed `n` installs two lists when `n` is a multiple of 4, else one. CI runs ``mixedSeeds``;
    /// `TRACKERLESS_RANDOM_WEBKIT_RUNS=N` runs seeds 1 to N locally.
    static let randomRuns: [RandomRun] = {
        let seeds = ProcessInfo.processInfo.environment["TRACKERLESS_RANDOM_WEBKIT_RUNS"].flatMap { Int($0) }
            .map { Array(1...max(1, $0)) } ?? mixedSeeds
        return seeds.map { RandomRun(seed: UInt64($0), listCount: $0 % 4 == 0 ? 2 : 1) }
    }()

    /// Loads per run.
    static let loadsPerRun = 40

    @Test("random lists and loads: engine == WebKit", arguments: randomRuns)
    func randomLists(_ run: RandomRun) throws {
        let harness = try #require(try WebKitHarness.make(), "WebKitGTK is not installed")
        var generator = RandomRuleLists(seed: run.seed, maximumRuleCount: 12)
        let lists = (0..<run.listCount).map { _ in generator.next(actions: RandomRuleLists.observableActionKinds) }
        // The lists as the WebKit under test reads them; one it refuses (an action or a resource
        // type it does not know) must be refused by WebKit with the same message, and is not
        // installed.
        let target = WebKitHarness.target
        var ruleLists: [RuleList] = []
        var installed: [[UInt8]] = []
        var refused: [(id: String, json: [UInt8], error: RuleListError)] = []
        var warnings: [RuleListWarning] = []
        for (index, list) in lists.enumerated() {
            do throws(RuleListError) {
                ruleLists.append(try RuleList(parsing: Array(list.json.utf8), for: target, warnings: &warnings))
                installed.append(Array(list.json.utf8))
            } catch {
                refused.append((id: "seed \(run.seed) list \(index)", json: Array(list.json.utf8), error: error))
            }
        }
        if !refused.isEmpty {
            let compiled = try harness.compile(refused.map { (id: $0.id, json: $0.json) })
            for list in refused {
                #expect(compiled[list.id]?.ok == false && compiled[list.id]?.error == list.error.message,
                        "\(target) refuses \(list.id) with \(list.error), WebKit: \(String(describing: compiled[list.id]))")
            }
        }
        let engine = try RuleEngine(ruleLists: ruleLists, target: target)
        let reference = try ReferenceEvaluator(ruleLists: ruleLists, target: target)

        var loads = WebKitLoads(seed: run.seed)
        let cases = (0..<Self.loadsPerRun).map { loads.next(id: "seed \(run.seed) load \($0)") }
        let results = try harness.load(ruleLists: installed, cases: cases.map(\.load))

        var blocked = 0
        for load in cases {
            let webKit = try #require(results[load.load.id], "WebKit gave no result for \(load.load.id)")
            // The page and the frame are loads too: when the rules block either, WebKit never
            // issues the request.
            var cache = RuleEngine.PageCache()
            let decisions = load.requests.map { engine.decision(for: $0, cache: &cache) }
            let isBlocked = decisions.contains(where: \.isBlocked)
            let referenceBlocks = load.requests.contains { reference.actions(for: $0).isBlocked }
            if webKit.blocked { blocked += 1 }
            #expect(
                isBlocked == webKit.blocked,
                """
                engine \(isBlocked ? "blocks" : "loads"), reference \(referenceBlocks ? "blocks" : "loads"), \
                WebKit: \(webKit.detail)
                load: \(load.load.requestURL) (\(load.load.type)) on \(load.load.topURL)\
                \(load.load.frameURL.map { " in frame \($0)" } ?? "")
                engine per load (page, frame, request): \(decisions.map { $0.appliedActions.actions.map(\.type) })
                rule lists:
                \(lists.map(\.description).joined(separator: "\n"))
                """)
        }
        print("EngineAgreementTests: seed \(run.seed): WebKit blocked \(blocked) of \(cases.count) loads")
        // Guards against a vacuous pass (CI's seeds are chosen for mixed answers, in a WebKit that
        // reads every list whole: an older one refuses some and ignores keys of others).
        if Self.mixedSeeds.contains(Int(run.seed)), refused.isEmpty, warnings.isEmpty {
            #expect(
                blocked > 0 && blocked < cases.count,
                "WebKit blocked \(blocked) of \(cases.count) loads: did the generators change? Pick mixedSeeds again")
        }
    }
}

/// Random loads the harness can make and observe, over ``RandomVocabulary``: canonical http(s)
/// URLs on hosts the harness proxies (not localhost or IP addresses), no mixed content, and only
/// the resource types whose blocking it sees reliably.
struct WebKitLoads {
    /// One harness case and the engine's view of it: the page's own navigation, the frame's
    /// navigation when there is a frame, then the request itself.
    struct Load {
        var load: WebKitHarness.LoadCase
        var requests: [Request]
    }

    static let hosts = RandomVocabulary.hosts.filter { $0 != "localhost" && $0 != "127.0.0.1" }
    static let types: [ResourceType] = [.image, .script, .styleSheet, .font, .fetch, .childDocument, .media, .topDocument]

    var random: SplitMixGenerator
    let pages: [(top: String, frame: String?)]

    init(seed: UInt64) {
        random = SplitMixGenerator(seed: seed ^ 0x7765_626b_6974)
        var pages: [(top: String, frame: String?)] = []
        for index in 0..<4 {
            let scheme = index == 0 ? "http" : "https"
            let top = "\(scheme)://\(random.pick(Self.hosts))/page\(index)"
            let frame = random.chance(0.4) ? "https://\(random.pick(Self.hosts))/frame\(index)" : nil
            pages.append((top, frame))
        }
        self.pages = pages
    }

    mutating func next(id: String) -> Load {
        let type = random.pick(Self.types)
        let page = random.pick(pages)
        let inFrame = type != .topDocument && page.frame != nil && random.chance(0.5)
        // An http request from an https document is mixed content, which WebKit blocks or
        // upgrades before content blockers see it.
        let isSecureDocument = inFrame || page.top.hasPrefix("https:")
        let scheme = type == .topDocument || !isSecureDocument ? random.pick(["http", "https"]) : "https"
        var url = "\(scheme)://\(random.pick(Self.hosts))/"
        url += (0..<random.int(in: 0...2)).map { _ in random.pick(RandomVocabulary.pathWords) }.joined(separator: "/")
        url += "-\(id.split(separator: " ").last ?? "")"  // every URL distinct, so loads never share a request
        if random.chance(0.2) { url += random.pick(["?q=1", "?AD=1&x"]) }

        if type == .topDocument {
            return Load(
                load: .init(id: id, topURL: url, requestURL: url, type: type.rawValue),
                requests: [.mainDocument(url)])
        }
        var requests: [Request] = [.mainDocument(page.top)]
        let frame = inFrame ? page.frame : nil
        if let frame { requests.append(Request(url: frame, topURL: page.top, resourceType: .childDocument)) }
        // An iframe created in the frame is a new frame: WebKit matches its first load against
        // its own about:blank, not against the frame that created it.
        requests.append(Request(url: url, topURL: page.top, frameURL: type == .childDocument ? nil : frame, resourceType: type))
        return Load(
            load: .init(id: id, topURL: page.top, requestURL: url, type: type.rawValue, frameURL: frame),
            requests: requests)
    }
}

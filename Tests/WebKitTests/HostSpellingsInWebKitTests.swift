import ContentRuleList
import DisconnectLists
import RuleBuilder
import RuleEngineKit
import Testing
import TrackerDataKit
import TrackerlessCore
import TrackerlessTestSupport

/// Spellings of a tracker URL that WebKit keeps in the string its content blockers match: the
/// final dot of a fully qualified host (`tracker.com.`, also written `tracker.com%2e`) and
/// userinfo (`https://a:b@tracker.com/`). Both reached the network with the apple-tds rules of
/// `[^:/]+`-shaped url-filters; a user named like a tracker (`https://tracker.com:pw@evil.example/`)
/// was taken for the tracker. In WebKitGTK, through the harness's loopback proxy.
@Suite(
    "Host spellings in WebKit",
    .enabled(if: WebKitHarness.shouldRun, "WebKitGTK (python3-gi, gir1.2-webkit2-4.1, xvfb) is not installed"),
    .enabled(if: SharedData.shouldRun("tds/apple-tds.json"), SharedData.skipMessage))
struct HostSpellingsInWebKitTests {
    static let page = "https://news.example/"

    /// The URLs of one tracker domain, and whether each is the tracker's.
    static func spellings(of host: String, path: String) -> [(url: String, isTracker: Bool)] {
        [
            ("https://www.\(host)/\(path)", true), ("https://www.\(host)./\(path)", true),
            ("https://www.\(host)%2e/\(path)", true), ("https://a:b@www.\(host)/\(path)", true),
            ("https://a@\(host)/\(path)", true), ("https://a:b@\(host).:8443/\(path)", true),
            ("https://\(host)@evil.example/\(path)", false), ("https://\(host):pw@evil.example/\(path)", false),
            ("https://evil.example/\(path)?u=a@\(host)/", false), ("https://evil.example/a@\(host)/\(path)", false),
        ]
    }

    static func cases(_ spellings: [(url: String, isTracker: Bool)]) -> [(load: WebKitHarness.LoadCase, isTracker: Bool)] {
        spellings.enumerated().map { index, spelling in
            (WebKitHarness.LoadCase(id: "\(index) \(spelling.url)", topURL: page, requestURL: spelling.url, type: "script"),
             spelling.isTracker)
        }
    }

    @Test("the apple-tds rules block every spelling of a tracker URL and no user named like one")
    func appleTDS() throws {
        let harness = try #require(try WebKitHarness.make(), "WebKitGTK is not installed")
        let tds = try TrackerData(contentsOfFile: SharedData.path("tds/apple-tds.json"))
        let lists = RuleListBuilder(trackerData: tds).build().ruleLists
        let engine = try RuleEngine(ruleLists: lists)
        let resolver = TrackerResolver(trackerData: tds)
        let cases = Self.cases(
            Self.spellings(of: "google-analytics.com", path: "analytics.js") + Self.spellings(of: "doubleclick.net", path: "x.js"))
        try Self.expectBlocking(cases, lists: lists, harness: harness) { load, request, blocked in
            #expect(engine.decision(for: request).isBlocked == blocked, "engine: \(load.id)")
            let decision = resolver.decision(forRequestURL: load.requestURL, topURL: load.topURL, type: .script)
            #expect(decision?.isBlocked == blocked, "resolver: \(load.id)")
        }
    }

    @Test("the lists for this WebKit, spelled case-sensitively, block a tracker path in any case, as the resolver does")
    func capitalsInThePath() throws {
        let harness = try #require(try WebKitHarness.make(), "WebKitGTK is not installed")
        let tds = try TrackerData(contentsOfFile: SharedData.path("tds/apple-tds.json"))
        let settings = RuleListBuilder.Settings(target: WebKitHarness.target)
        let lists = RuleListBuilder(trackerData: tds, settings: settings).build().ruleLists
        if WebKitHarness.target != .oldest {
            #expect(lists.flatMap(\.rules).contains { $0.trigger.urlFilterIsCaseSensitive && $0.trigger.urlFilter.contains("[sS]") })
        }
        let resolver = TrackerResolver(trackerData: tds)
        // 4dsply.com (default ignore) blocks its path /Scripts/infinity.js.aspx (apple-tds.json),
        // in any case of the path, never beside it; 3gl.net its /jp/; google-analytics.com
        // everywhere, its host written in capitals (lowercase in the URL WebKit matches).
        let spellings: [(url: String, isTracker: Bool)] = [
            ("https://4dsply.com/Scripts/infinity.js.aspx", true), ("https://4dsply.com/scripts/INFINITY.JS.aspx?A=1", true),
            ("https://www.4dsply.com:8443/SCRIPTS/Infinity.Js.Aspx", true), ("https://4dsply.com/Scripts/other.js", false),
            ("https://cdn.3gl.net/JP/x.js", true), ("https://3gl.net/jpx", false),
            ("https://WWW.Google-Analytics.COM/analytics.js", true), ("https://www.google-analytics.com/ANALYTICS.JS", true),
        ]
        try Self.expectBlocking(Self.cases(spellings), lists: lists, harness: harness) { load, _, blocked in
            let decision = resolver.decision(forRequestURL: load.requestURL, topURL: load.topURL, type: .script)
            #expect((decision?.isBlocked ?? false) == blocked, "resolver: \(load.id)")
        }
    }

    /// Loads the cases in WebKit with `lists` installed: WebKit blocks exactly the tracker's URLs,
    /// and the reference evaluator (and `alsoAgrees`) say what WebKit did.
    static func expectBlocking(
        _ cases: [(load: WebKitHarness.LoadCase, isTracker: Bool)], lists: [RuleList], harness: WebKitHarness,
        alsoAgrees: (WebKitHarness.LoadCase, Request, Bool) -> Void = { _, _, _ in }
    ) throws {
        let reference = try ReferenceEvaluator(ruleLists: lists)
        let results = try harness.load(ruleLists: lists.map { $0.encoded() }, cases: cases.map(\.load))
        for (load, isTracker) in cases {
            let webKit = try #require(results[load.id], "WebKit gave no result for \(load.id)")
            #expect(webKit.blocked == isTracker, "\(load.id): WebKit \(webKit.detail)")
            let request = Request(url: load.requestURL, topURL: load.topURL, resourceType: .script)
            #expect(reference.actions(for: request).isBlocked == webKit.blocked, "evaluator: \(load.id)")
            alsoAgrees(load, request, webKit.blocked)
        }
    }

    @Test("Firefox's strict lists block every spelling of a tracker URL and no user named like one")
    func firefoxLists() throws {
        try #require(SharedData.shouldRun("shavar"), "\(SharedData.skipMessage)")
        let harness = try #require(try WebKitHarness.make(), "WebKitGTK is not installed")
        let input = try FirefoxListInputs(lists: SharedData.path(FirefoxListsInWebKitTests.pinned), entities: nil)
        let builder = FirefoxRuleListBuilder(categoryLists: input.categoryLists, entityList: input.entityList)
        let strict = ProtectionLevel.strict.blocklists.map { builder.ruleList(for: $0) }
        try Self.expectBlocking(Self.cases(Self.spellings(of: "doubleclick.net", path: "x.js")), lists: strict, harness: harness)
    }
}

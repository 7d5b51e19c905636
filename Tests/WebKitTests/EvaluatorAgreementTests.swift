import ContentRuleList
import RuleBuilder
import Testing
import TrackerDataKit
import TrackerlessCore
import TrackerlessTestSupport

/// ``ReferenceEvaluator`` checked against real WebKit: for every load of the reference suites in
/// ``ReferenceSuitesInWebKitTests`` (our rules for all three suites, DuckDuckGo's for
/// TR-domain-matching and the tracker allowlist), the evaluator must block exactly what WebKit
/// blocked, right or wrong. DuckDuckGo's rules matter here because they fail 30 cases in WebKit:
/// the evaluator has to reproduce WebKit's mistakes too, not only the expected answers.
@Suite(
    "Reference evaluator agrees with WebKit",
    .enabled(if: WebKitHarness.shouldRun, "WebKitGTK (python3-gi, gir1.2-webkit2-4.1, xvfb) is not installed"),
    .enabled(if: SharedData.shouldRun, SharedData.skipMessage))
struct EvaluatorAgreementTests {
    static let ourLoads = ReferenceSuite.allCases.flatMap(\.loads)
    static let duckDuckGoLoads = ReferenceSuite.domainMatching.loads + ReferenceSuite.trackerAllowlist.loads

    @Test("our rules: evaluator == WebKit", arguments: ourLoads)
    func ourRules(_ load: ReferenceLoad) throws {
        try Self.expectAgreement(load, in: ReferenceRuns.ours(load.suite))
    }

    @Test("DuckDuckGo's rules: evaluator == WebKit", arguments: duckDuckGoLoads)
    func duckDuckGoRules(_ load: ReferenceLoad) throws {
        try Self.expectAgreement(load, in: ReferenceRuns.duckDuckGo(load.suite))
    }

    static func expectAgreement(_ load: ReferenceLoad, in run: ReferenceRun) throws {
        let webKit = try #require(run.webKit[load.id], "WebKit gave no result")
        let evaluator = try run.evaluator.get()
        let actions = evaluator.actions(for: load.request)
        #expect(
            actions.isBlocked == webKit.blocked,
            "evaluator: \(actions.actions.map(\.type)), WebKit: \(webKit.detail); \(load.summary)")
    }
}

/// ``ReferenceEvaluator`` against WebKit on a real blocklist: the rule lists built from
/// apple-tds.json, ours and DuckDuckGo's own (`tds/apple-tds.duckduckgo-rules.json`, 10,843
/// rules), on a fixed sample of real tracker requests, each loaded from an unrelated site and
/// from a site of its own registrable domain. Real regexes, real entity domain lists.
/// Run time: two harness runs of 300 loads, about 30 s.
@Suite(
    "Reference evaluator agrees with WebKit on a real blocklist",
    .enabled(if: WebKitHarness.shouldRun, "WebKitGTK (python3-gi, gir1.2-webkit2-4.1, xvfb) is not installed"),
    .enabled(if: SharedData.shouldRun, SharedData.skipMessage))
struct RealBlocklistAgreementTests {
    /// One real request on one site.
    struct Load: Sendable, CustomTestStringConvertible {
        var load: WebKitHarness.LoadCase
        var resourceType: ResourceType

        var testDescription: String { load.id }

        var request: Request {
            Request(url: load.requestURL, topURL: load.topURL, resourceType: resourceType)
        }
    }

    /// How many requests of matching-test-requests.json are sampled (evenly spread).
    static let sampleSize = 150

    /// Every request whose URL is already canonical (the harness compares what reaches its proxy
    /// with the case's URL) and whose type the harness can issue, sampled evenly; each on
    /// `news.example` and on `www.` + its registrable domain.
    static let loads: [Load] = {
        let candidates = MatchingTestRequest.all.filter { request in
            guard let url = CanonicalURL(request.url), url.stringWithoutFragment == request.url else { return false }
            return ["script", "image", "stylesheet", "xmlhttprequest", "subdocument", "font", "media"]
                .contains(request.type.rawValue)
        }
        guard !candidates.isEmpty else { return [] }
        let step = max(1, candidates.count / sampleSize)
        var loads: [Load] = []
        for (index, request) in candidates.enumerated() where index % step == 0 && loads.count < 2 * sampleSize {
            guard let host = CanonicalURL(request.url)?.host,
                let type = request.type.webKitResourceTypes.first
            else { continue }
            let site = PublicSuffixList.bundled.registrableDomain(of: host) ?? host
            // At most ten requests per page: in one page with hundreds, some fetches never
            // reported back before the harness gave up on the page.
            let unrelated = "https://news.example/page-\(loads.count / 20)"
            for page in [unrelated, "https://www.\(site)/trackerless-test-page"] {
                let top = ReferenceLoad.pageURL(page, loading: request.url)
                loads.append(Load(
                    load: .init(id: "\(index) \(type.rawValue) \(request.url) on \(top)", topURL: top,
                                requestURL: request.url, type: type.rawValue),
                    resourceType: type))
            }
        }
        return loads
    }()

    static let ours = Result {
        let tds = try TrackerData(contentsOfFile: SharedData.path("tds/apple-tds.json"))
        return try ReferenceRun(
            name: "apple-tds.json, ours", cases: loads.map(\.load),
            ruleLists: RuleListBuilder(trackerData: tds).build().ruleLists)
    }

    static let duckDuckGo = Result {
        let list = try RuleList(parsing: SharedData.bytes("tds/apple-tds.duckduckgo-rules.json") ?? [])
        return try ReferenceRun(name: "apple-tds.json, DuckDuckGo's", cases: loads.map(\.load), ruleLists: [list])
    }

    @Test("the sample has 300 loads, some blocked and some not by each list")
    func sample() throws {
        #expect(Self.loads.count == 2 * Self.sampleSize)
        for run in [try Self.ours.get(), try Self.duckDuckGo.get()] {
            let blocked = Self.loads.filter { run.webKit[$0.load.id]?.blocked == true }.count
            #expect(blocked > 0 && blocked < Self.loads.count, "\(blocked) blocked")
        }
    }

    @Test("our rules: evaluator == WebKit", arguments: loads)
    func ourRules(_ load: Load) throws {
        try Self.expectAgreement(load, in: Self.ours.get())
    }

    @Test("DuckDuckGo's rules: evaluator == WebKit", arguments: loads)
    func duckDuckGoRules(_ load: Load) throws {
        try Self.expectAgreement(load, in: Self.duckDuckGo.get())
    }

    static func expectAgreement(_ load: Load, in run: ReferenceRun) throws {
        let webKit = try #require(run.webKit[load.load.id], "WebKit gave no result")
        #expect(!webKit.detail.contains("timed out"), "\(webKit.detail)")
        #expect(!webKit.detail.contains("no report"), "the page never reported the load: \(webKit.detail)")
        let actions = try run.evaluator.get().actions(for: load.request)
        #expect(
            actions.isBlocked == webKit.blocked, "evaluator: \(actions.actions.map(\.type)), WebKit: \(webKit.detail)")
    }
}

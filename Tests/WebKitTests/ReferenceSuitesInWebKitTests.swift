import ContentRuleList
import Foundation
import RuleBuilder
import Testing
import TrackerDataKit
import TrackerlessTestSupport

/// Path (c): the reference suites with rules built by ``RuleListBuilder`` and loaded into real
/// WebKit (WebKitGTK through `harness/webkit_harness.py`). WebKit must block exactly what each
/// suite expects. One harness run per suite, then one result per case, named after it.
///
/// DuckDuckGo's own builder (``DuckDuckGoRuleBuilder``) runs TR-domain-matching and the tracker
/// allowlist suite the same way, for comparison. Run time: five harness runs, one at a time,
/// about a minute in all.
@Suite(
    "Reference suites in WebKit",
    .enabled(if: WebKitHarness.shouldRun, "WebKitGTK (python3-gi, gir1.2-webkit2-4.1, xvfb) is not installed"),
    .enabled(if: SharedData.shouldRun, SharedData.skipMessage))
struct ReferenceSuitesInWebKitTests {
    @Test("the suites have 134, 25 and 41 cases")
    func suiteSizes() {
        #expect(ReferenceSuite.domainMatching.loads.count == 134)
        #expect(ReferenceSuite.trackerAllowlist.loads.count == 25)
        #expect(ReferenceSuite.requestBlocklist.loads.count == 41)
    }

    @Test("TR-domain-matching: our rules in WebKit", arguments: ReferenceSuite.domainMatching.loads)
    func domainMatching(_ load: ReferenceLoad) throws {
        try Self.expectWebKitVerdict(load, in: ReferenceRuns.ours(.domainMatching))
    }

    @Test("TR-domain-matching: our rules built for this WebKit's own target", arguments: ReferenceSuite.domainMatching.loads)
    func domainMatchingForThisWebKit(_ load: ReferenceLoad) throws {
        try Self.expectWebKitVerdict(load, in: ReferenceRuns.oursForWebKitUnderTest())
    }

    @Test("tracker allowlist: our rules in WebKit", arguments: ReferenceSuite.trackerAllowlist.loads)
    func trackerAllowlist(_ load: ReferenceLoad) throws {
        try Self.expectWebKitVerdict(load, in: ReferenceRuns.ours(.trackerAllowlist))
    }

    @Test("request-blocklist: our rules in WebKit", arguments: ReferenceSuite.requestBlocklist.loads)
    func requestBlocklist(_ load: ReferenceLoad) throws {
        try Self.expectWebKitVerdict(load, in: ReferenceRuns.ours(.requestBlocklist))
    }

    /// Measured in WebKitGTK 2.50.6: DuckDuckGo's rules get 104 of the 134 right (the research
    /// predicted the same from a simulation). Every failure is one that duckduckgo.md §2.10
    /// explains; they are printed grouped by its root causes.
    @Test("DuckDuckGo's rules pass 104 of 134 TR-domain-matching cases in WebKit; ours pass 134")
    func duckDuckGoComparison() throws {
        let loads = ReferenceSuite.domainMatching.loads
        let ours = try ReferenceRuns.ours(.domainMatching)
        let theirs = try ReferenceRuns.duckDuckGo(.domainMatching)
        let ourPasses = loads.filter { ours.webKit[$0.id]?.blocked == $0.expectsBlocked }
        let failures = loads.filter { theirs.webKit[$0.id]?.blocked != $0.expectsBlocked }
        var report = "TR-domain-matching in WebKitGTK: ours \(ourPasses.count)/\(loads.count) "
            + "(\(ours.ruleCount) rules), DuckDuckGo's \(loads.count - failures.count)/\(loads.count) "
            + "(\(theirs.ruleCount) rules)\n"
        let groups = Dictionary(grouping: failures) { DuckDuckGoFailureCause.cause(of: $0.name) }
        for cause in groups.keys.sorted() {
            report += "  \(cause):\n"
            for load in groups[cause] ?? [] {
                report += "    - \(load.name) [\(load.resourceType.rawValue), expected "
                    + "\(load.expectsBlocked ? "blocked" : "allowed")]\n"
            }
        }
        print(report)
        #expect(ourPasses.count == loads.count)
        #expect(loads.count - failures.count == 104, "\(report)")
        #expect(Set(failures.map(\.name)) == DuckDuckGoFailureCause.measuredFailures, "\(report)")
    }

    /// DuckDuckGo's allowlist rules are port-tolerant and come last, so they get all 25 right.
    @Test("DuckDuckGo's rules pass the 25 tracker allowlist cases in WebKit")
    func duckDuckGoTrackerAllowlist() throws {
        let loads = ReferenceSuite.trackerAllowlist.loads
        let theirs = try ReferenceRuns.duckDuckGo(.trackerAllowlist)
        let failures = loads.filter { theirs.webKit[$0.id]?.blocked != $0.expectsBlocked }
        print("tracker allowlist in WebKitGTK: DuckDuckGo's \(loads.count - failures.count)/\(loads.count)"
            + failures.map { "\n    - \($0.name)" }.joined())
        #expect(failures.isEmpty)
    }

    static func expectWebKitVerdict(_ load: ReferenceLoad, in run: ReferenceRun) throws {
        let result = try #require(run.webKit[load.id], "WebKit gave no result")
        #expect(
            result.blocked == load.expectsBlocked,
            "expected \(load.expectsBlocked ? "blocked" : "allowed"): \(load.summary); WebKit: \(result.detail)")
        #expect(!result.detail.contains("timed out"), "\(result.detail)")
        #expect(!result.detail.contains("inconsistent"), "\(result.detail)")
        #expect(!result.detail.contains("no report"), "the page never reported the load: \(result.detail)")
    }
}

// MARK: - Cases

/// A reference suite run through WebKit.
enum ReferenceSuite: String, Sendable, CaseIterable {
    case domainMatching = "TR-domain-matching"
    case trackerAllowlist = "tracker allowlist"
    case requestBlocklist = "request-blocklist"

    /// Every case of the suite as a WebKit load, with the verdict the suite expects.
    var loads: [ReferenceLoad] {
        switch self {
        case .domainMatching: Self.domainMatchingLoads
        case .trackerAllowlist: Self.trackerAllowlistLoads
        case .requestBlocklist: Self.requestBlocklistLoads
        }
    }

    /// Case names made unique: request-blocklist has two cases named "basic: matching rule,
    /// non-matching domain"; the second becomes "… (2)".
    private static func uniquelyNamed(_ loads: [ReferenceLoad]) -> [ReferenceLoad] {
        var seen: [String: Int] = [:]
        return loads.map { load in
            seen[load.name, default: 0] += 1
            guard let count = seen[load.name], count > 1 else { return load }
            var renamed = load
            renamed.name += " (\(count))"
            renamed.load.id += " (\(count))"
            return renamed
        }
    }

    /// "block" and "redirect" (WebKit cannot serve a surrogate: the request must not load).
    private static let domainMatchingLoads = uniquelyNamed(DomainMatchingCase.all.map { test in
        ReferenceLoad(
            suite: .domainMatching, name: test.testDescription, topURL: test.topURL,
            requestURL: test.requestURL, type: test.type, expectsBlocked: test.expectsBlocked)
    })

    /// Every request is to a default-block tracker: allowed exactly when allowlisted.
    private static let trackerAllowlistLoads = uniquelyNamed(TrackerAllowlistCase.all.map { test in
        ReferenceLoad(
            suite: .trackerAllowlist, name: test.testDescription, topURL: test.site, requestURL: test.request,
            type: .script, expectsBlocked: !test.isAllowlisted)
    })

    private static let requestBlocklistLoads = uniquelyNamed(RequestBlocklistCase.all.map { test in
        ReferenceLoad(
            suite: .requestBlocklist, name: test.testDescription, topURL: test.websiteURL,
            requestURL: test.requestURL, type: test.type, expectsBlocked: test.expectsBlocked)
    })

    /// The rule lists ``RuleListBuilder`` makes from the suite's fixture, for `target` (by
    /// default the oldest, whose lists every supported WebKit runs).
    func ourRuleLists(target: WebKitTarget = .oldest) throws -> [RuleList] {
        let settings = RuleListBuilder.Settings(target: target)
        switch self {
        case .domainMatching:
            let fixture = try DomainMatchingFixture.loaded.get()
            return RuleListBuilder(trackerData: fixture.trackerData, settings: settings).build().ruleLists
        case .trackerAllowlist:
            let fixture = try TrackerAllowlistFixture.loaded.get()
            return RuleListBuilder(trackerData: fixture.trackerData, configuration: fixture.configuration, settings: settings)
                .build().ruleLists
        case .requestBlocklist:
            let fixture = try RequestBlocklistFixture.loaded.get()
            return RuleListBuilder(
                trackerData: fixture.trackerData, configuration: fixture.configuration,
                userAllowlist: fixture.userAllowlist, settings: settings
            ).build().ruleLists
        }
    }

    /// The rule list ``DuckDuckGoRuleBuilder`` makes from the suite's fixture.
    func duckDuckGoRuleLists() throws -> [RuleList] {
        switch self {
        case .domainMatching:
            return [DuckDuckGoRuleBuilder(trackerData: try DomainMatchingFixture.loaded.get().trackerData).build()]
        case .trackerAllowlist:
            let fixture = try TrackerAllowlistFixture.loaded.get()
            return [DuckDuckGoRuleBuilder(trackerData: fixture.trackerData).build(trackerAllowlist: fixture.allowlist)]
        case .requestBlocklist:
            // DuckDuckGo has no request blocklist in its WebKit rules (it is decided in native code).
            throw WebKitHarness.Failure.unavailable("no DuckDuckGo rules for the request blocklist")
        }
    }
}

/// One reference case as a WebKit load, with the verdict its suite expects.
struct ReferenceLoad: Sendable, CustomTestStringConvertible {
    /// The suite it comes from.
    var suite: ReferenceSuite
    /// The case's name in its suite.
    var name: String
    /// The load for the harness; its id is "suite: name".
    var load: WebKitHarness.LoadCase
    /// WebKit's resource type for the case's Tracker Radar request type.
    var resourceType: ResourceType
    /// Whether the suite expects the request not to reach the network.
    var expectsBlocked: Bool

    var id: String { load.id }
    var testDescription: String { load.id }

    /// A case whose request type maps to a WebKit load type: `main_frame` is a top-document
    /// navigation, the others the first type of ``RequestType/webKitResourceTypes`` (script,
    /// image, style-sheet, font, fetch, child-document, media).
    init(
        suite: ReferenceSuite, name: String, topURL: String, requestURL: String, type: RequestType,
        expectsBlocked: Bool
    ) {
        self.suite = suite
        self.name = name
        self.resourceType = type.webKitResourceTypes.first ?? .other
        self.expectsBlocked = expectsBlocked
        self.load = WebKitHarness.LoadCase(
            id: "\(suite.rawValue): \(name)", topURL: Self.pageURL(topURL, loading: requestURL),
            requestURL: requestURL, type: resourceType.rawValue)
    }

    /// The site URL, over http when the request is http: WebKit blocks mixed content (an http
    /// script on an https page) before content blockers are consulted, so the harness would see
    /// a block that no rule made. The page's scheme matters to no rule here: site conditions are
    /// scheme-agnostic and first/third party is decided by registrable domain.
    static func pageURL(_ topURL: String, loading requestURL: String) -> String {
        let insecure = ["http://", "ws://"].contains { requestURL.lowercased().hasPrefix($0) }
        guard insecure, topURL.lowercased().hasPrefix("https://") else { return topURL }
        return "http://" + topURL.dropFirst("https://".count)
    }

    /// "URL (type) on page", for failure messages.
    var summary: String { "\(load.requestURL) (\(resourceType.rawValue)) on \(load.topURL)" }

    /// The same load for ``ReferenceEvaluator``.
    var request: Request {
        resourceType == .topDocument
            ? .mainDocument(load.requestURL)
            : Request(url: load.requestURL, topURL: load.topURL, frameURL: load.frameURL, resourceType: resourceType)
    }
}

// MARK: - Harness runs

/// Rule lists and what WebKit did with each load of a suite.
struct ReferenceRun: Sendable {
    var ruleLists: [RuleList]
    var webKit: [String: WebKitHarness.LoadResult]
    /// Our evaluator on the same rule lists, prepared once.
    var evaluator: Result<ReferenceEvaluator, RuleListError>

    var ruleCount: Int { ruleLists.reduce(0) { $0 + $1.rules.count } }

    /// Harness runs go one at a time: each drives Xvfb and a WebKit web process, and on two
    /// cores concurrent runs take as long in total while risking the 10 s page-load timeout.
    private static let oneAtATime = NSLock()

    /// Builds the rules and loads every case of the suite in one harness run.
    init(suite: ReferenceSuite, ruleLists: [RuleList]) throws {
        try self.init(name: suite.rawValue, cases: suite.loads.map(\.load), ruleLists: ruleLists)
    }

    /// Loads `cases` with `ruleLists` installed, in one harness run.
    init(name: String, cases: [WebKitHarness.LoadCase], ruleLists: [RuleList]) throws {
        guard let harness = try WebKitHarness.make() else {
            throw WebKitHarness.Failure.unavailable("WebKitGTK is not installed")
        }
        self.ruleLists = ruleLists
        evaluator = Result { () throws(RuleListError) in try ReferenceEvaluator(ruleLists: ruleLists) }
        let lists = ruleLists.map { $0.encoded() }
        let (webKit, seconds) = try Self.oneAtATime.withLock {
            let started = Date()
            let webKit = try harness.load(ruleLists: lists, cases: cases)
            return (webKit, Date().timeIntervalSince(started))
        }
        self.webKit = webKit
        print("WebKit harness: \(name), \(cases.count) loads, \(ruleCount) rules: "
            + String(format: "%.1f s", seconds))
    }
}

/// The harness runs, each made once per test process and shared by every test that needs it.
enum ReferenceRuns {
    private static let oursDomainMatching = Result { try ours(running: .domainMatching) }
    private static let oursTrackerAllowlist = Result { try ours(running: .trackerAllowlist) }
    private static let oursRequestBlocklist = Result { try ours(running: .requestBlocklist) }
    private static let oursForWebKitDomainMatching = Result {
        try ReferenceRun(suite: .domainMatching, ruleLists: ReferenceSuite.domainMatching.ourRuleLists(target: WebKitHarness.target))
    }
    private static let duckDuckGoDomainMatching = Result { try duckDuckGo(running: .domainMatching) }
    private static let duckDuckGoTrackerAllowlist = Result { try duckDuckGo(running: .trackerAllowlist) }

    private static func ours(running suite: ReferenceSuite) throws -> ReferenceRun {
        try ReferenceRun(suite: suite, ruleLists: suite.ourRuleLists())
    }

    private static func duckDuckGo(running suite: ReferenceSuite) throws -> ReferenceRun {
        try ReferenceRun(suite: suite, ruleLists: suite.duckDuckGoRuleLists())
    }

    /// WebKit's results for our rules.
    static func ours(_ suite: ReferenceSuite) throws -> ReferenceRun {
        switch suite {
        case .domainMatching: try oursDomainMatching.get()
        case .trackerAllowlist: try oursTrackerAllowlist.get()
        case .requestBlocklist: try oursRequestBlocklist.get()
        }
    }

    /// WebKit's results for our TR-domain-matching rules built for the target of the WebKit
    /// under test (the others are built for the oldest target, which every WebKit runs).
    static func oursForWebKitUnderTest() throws -> ReferenceRun {
        try oursForWebKitDomainMatching.get()
    }

    /// WebKit's results for DuckDuckGo's rules (not made for the request blocklist).
    static func duckDuckGo(_ suite: ReferenceSuite) throws -> ReferenceRun {
        switch suite {
        case .domainMatching: try duckDuckGoDomainMatching.get()
        case .trackerAllowlist: try duckDuckGoTrackerAllowlist.get()
        case .requestBlocklist: throw WebKitHarness.Failure.unavailable("no DuckDuckGo rules for the request blocklist")
        }
    }
}

// MARK: - DuckDuckGo's failures

/// The root causes duckduckgo.md §2.10 gives for the TR-domain-matching cases that DuckDuckGo's
/// Apple clients exclude (`exceptPlatforms: ios-browser`).
enum DuckDuckGoFailureCause {
    /// The cases DuckDuckGo's rules get wrong in WebKitGTK 2.50.6 (measured).
    static let measuredFailures: Set<String> = [
        "domainTests: uncloacked tracker should contain original path and be checked against the ignore rules",
        "domainTests: random allows sub.cname tracker",
        "domainTests: ports are ignored when matching rules",
        "domainTests: block default block tracker not matching option domains",
        "domainTests: standard1 - path matches, exception does not (wrong domain, correct type)",
        "domainTests: standard1 - path matches, exception does not (correct domain, wrong type)",
        "domainTests: standard1 - path (2) matches, exception does not (wrong domain, correct type)",
        "domainTests: standard1 - path (2) matches, exception does not (correct domain, wrong type)",
        "domainTests: standard1 - path matches, exception does not (should not confuse with following exception)",
        "domainTests: standard2 - path matches ignore (sandwiched) (type=script)",
        "domainTests: standard2 - path matches ignore (sandwiched) (type=font)",
        "domainTests: standard2 - path matches, exception matches",
        "domainTests: standard2 - path matches, exception matches (2)",
        "domainTests: standard2 - path (2) matches, exception matches",
        "domainTests: standard2 - path (2) matches, exception matches (2)",
        "domainTests: standard2 - following ignore matches",
        "domainTests: standard2 - following ignore matches (2)",
        "domainTests: robustness1 - default:block, less general block after ignore obeys ignore",
        "domainTests: robustness2 - default:ignore, less general block after ignore obeys ignore",
        "domainTests: options2 - block on matching options (fallthrough subpath)",
        "domainTests: options2 - block on matching options (fallthrough)",
        "domainTests: options2 - block on matching options (subpath match)",
        "domainTests: options3 - block on non-matching options (non-matching exception)",
        "domainTests: options3 - block on matching options (fallthrough subpath)",
        "domainTests: options3 - block on matching options (subpath match)",
        "domainTests: options4 - default:block - options don't match, exceptions match - block",
        "domainTests: options7 - default:ignore - rule matches, options don't, action:ignore",
        "domainTests: options-trailing-exception - block on options match",
        "surrogateTests: options2 - block on matching options with surrogate",
        "surrogateTests: options3 - block on matching options with surrogate",
    ]

    /// "X. label" for a case §2.10 analyses; otherwise a note that it does not.
    static func cause(of name: String) -> String {
        let testName = name.split(separator: ":", maxSplits: 1).last.map { $0.dropFirst() } ?? ""
        guard let label = labels[String(testName)] else {
            return "Z. not among the ios-browser exclusions analysed in duckduckgo.md §2.10"
        }
        return label + ". " + (descriptions[label] ?? "")
    }

    static let descriptions = [
        "A": "order: tds is first-match-wins, WebKit last-match-wins, and the groups keep tds order",
        "A+B": "order, and options read as an unconditional ignore",
        "B": "options misread: a rule with options emits an unconditional ignore (or block)",
        "C": "CNAME: the cloaked host's subdomains match, target rules are not rewritten",
        "D": "ports: tds regexes are not port-tolerant",
        "E": "request type DuckDuckGo's harness cannot run (rules themselves fine)",
        "F": "reporting path (rules themselves fine)",
        "G": "probably stale exclusion",
        "S": "surrogate case that §2.10 predicts fails in WebKit (options/order, as A+B)",
    ]

    /// §2.10's table, by test name.
    static let labels: [String: String] = [
        "same party ignore with deeper subdomain": "F",
        "uncloacked tracker should contain original path and be checked against the ignore rules": "C",
        "random allows sub.cname tracker": "C",
        "tracker.test CNAME'd to ignore.test should still be blocked": "G",
        "Tracker URL, same entity; CNAME is tracker (ignore): ignore": "G",
        "Non tracker URL; CNAME is tracker (block), same entity: ignore": "G",
        "ports are ignored when matching rules": "D",
        "block default block tracker not matching option domains": "B",
        "standard1 - path matches ignore (sandwiched) (type=font)": "E",
        "standard1 - path matches, exception does not (wrong domain, correct type)": "A",
        "standard1 - path matches, exception does not (correct domain, wrong type)": "A",
        "standard1 - path (2) matches, exception does not (wrong domain, correct type)": "A",
        "standard1 - path (2) matches, exception does not (correct domain, wrong type)": "A",
        "standard1 - path matches, exception does not (should not confuse with following exception)": "A",
        "standard1 - path matches, exception matches (2)": "E",
        "standard2 - path matches ignore (sandwiched) (type=script)": "A",
        "standard2 - path matches ignore (sandwiched) (type=font)": "A",
        "standard2 - path (2) matches, exception does not (correct domain, wrong type)": "E",
        "standard2 - path matches, exception matches": "A",
        "standard2 - path matches, exception matches (2)": "A",
        "standard2 - path (2) matches, exception matches": "A",
        "standard2 - path (2) matches, exception matches (2)": "A",
        "standard2 - following ignore matches": "A",
        "standard2 - following ignore matches (2)": "A",
        "robustness1 - default:block, less general block after ignore obeys ignore": "A",
        "robustness2 - default:ignore, less general block after ignore obeys ignore": "A",
        "options2 - block on matching options (fallthrough subpath)": "A+B",
        "options2 - block on matching options (fallthrough)": "A+B",
        "options2 - block on matching options (subpath match)": "A+B",
        "options3 - block on non-matching options (non-matching exception)": "B",
        "options3 - block on matching options (fallthrough subpath)": "A",
        "options3 - block on matching options (subpath match)": "A+B",
        "options4 - default:block - options don't match, exceptions match - block": "B",
        "options6 - default:block - rule matches, options don't, action:ignore": "F",
        "options7 - default:ignore - rule matches, options don't, action:ignore": "B",
        "options-trailing-exception - block on options match": "A",
        "options-trailing-exception - ignore on no options match": "E",
        "options-trailing-ignore - block on options match": "E",
        "options-trailing-ignore - ignore on no options match": "E",
        "options2 - block on matching options with surrogate": "S",
        "options3 - block on matching options with surrogate": "S",
    ]
}

import ContentRuleList
import RuleBuilder
import RuleEngineKit
import Testing
import TrackerDataKit
import TrackerlessCore
import TrackerlessTestSupport

/// The engine against the reference evaluator on the real rule lists built from DuckDuckGo's
/// blocklists (both, with the default settings; apple-tds.json also with the two other settings,
/// on a third of the requests) and on DuckDuckGo's own rules for apple-tds.json (10,843 rules of
/// another generator), over adblock-rust's 8,276 real request URLs, each on three pages: its own page
/// from the data (often a placeholder such as `http://`, which WebKit cannot parse), an unrelated
/// site (third party), and `www.` + its own registrable domain (first party).
///
/// Every load is checked with `actions(for:)` and with `decision(for:cache:)` (one page cache for
/// the whole run, so it sees page changes at every load); every tenth load also on the engine
/// loaded back from its compiled bytes.
@Suite(
    "RuleEngine == ReferenceEvaluator on real blocklists",
    .enabled(
        if: SharedData.shouldRun(SharedData.matchingTestRequests)
            && (SharedData.realBlocklists + ["tds/apple-tds.duckduckgo-rules.json"]).allSatisfy(SharedData.shouldRun),
        SharedData.skipMessage))
struct RealDataEngineTests {
    /// A third-party page for every request.
    static let unrelatedSite = "https://news.example/article?id=1"

    @Test("all 8,276 requests are loaded")
    func requestCount() {
        #expect(MatchingTestRequest.all.count == 8_276)
    }

    /// Rule lists to compare on: a blocklist built one way, or DuckDuckGo's own rules.
    struct Configuration: Sendable, CustomTestStringConvertible {
        var name: String
        /// The tds file, or the rule list file when ``settings`` is nil.
        var file: String
        var settings: RuleListBuilder.Settings?
        /// Every `stride`-th request is checked.
        var stride: Int

        var testDescription: String { stride > 1 ? "\(name), every \(stride)th request" : name }

        func ruleLists() throws -> [RuleList] {
            guard let settings else { return [try RuleList(parsing: SharedData.bytes(file) ?? [])] }
            let trackerData = try TrackerData(contentsOfFile: SharedData.path(file))
            // Encoded and parsed back: the lists as WebKit is given them.
            return try RuleListBuilder(trackerData: trackerData, settings: settings).build().ruleLists.map {
                list throws(RuleListError) in try RuleList(parsing: list.encoded())
            }
        }
    }

    static let configurations = [
        Configuration(name: "apple-tds.json", file: "tds/apple-tds.json", settings: .init(), stride: 1),
        Configuration(name: "extension-tds.json", file: "tds/extension-tds.json", settings: .init(), stride: 1),
        Configuration(
            name: "apple-tds.json, if-domain site conditions", file: "tds/apple-tds.json",
            settings: .init(siteConditionStyle: .ifDomain), stride: 3),
        Configuration(
            name: "apple-tds.json, rule text after the host", file: "tds/apple-tds.json",
            settings: .init(matchesRuleTextAfterHost: true), stride: 3),
        Configuration(
            name: "DuckDuckGo's rules for apple-tds.json", file: "tds/apple-tds.duckduckgo-rules.json", settings: nil,
            stride: 1),
    ]

    @Test("engine == reference evaluator on every request and page", arguments: configurations)
    func engineMatchesReference(_ configuration: Configuration) throws {
        let file = configuration.testDescription
        let ruleLists = try configuration.ruleLists()
        let reference = try ReferenceEvaluator(ruleLists: ruleLists)
        let engine = try RuleEngine(ruleLists: ruleLists)
        let loaded = try RuleEngine(compiled: engine.compiled())
        #expect(engine.ruleListCount == ruleLists.count && loaded.ruleListCount == ruleLists.count)

        var cache = RuleEngine.PageCache()
        var compiledCache = RuleEngine.PageCache()
        var checked = 0, blocked = 0, unchecked = 0, mismatchCount = 0
        var mismatches: [String] = []
        for (index, test) in MatchingTestRequest.all.enumerated() where index % configuration.stride == 0 {
            for request in Self.requests(for: test) {
                checked += 1
                let expected = reference.actions(for: request)
                if expected.isBlocked { blocked += 1 }
                if !expected.isChecked { unchecked += 1 }
                var problems: [String] = []
                let actions = engine.actions(for: request)
                if actions != expected { problems.append("actions(for:): \(describe(actions))") }
                if let problem = Engines.problem(engine.decision(for: request, cache: &cache), expected) {
                    problems.append("decision(for:cache:): \(problem)")
                }
                if index % (10 * configuration.stride) == 0 {
                    if loaded.actions(for: request) != expected { problems.append("compiled engine: actions(for:) differ") }
                    if let problem = Engines.problem(loaded.decision(for: request, cache: &compiledCache), expected) {
                        problems.append("compiled engine: decision(for:cache:): \(problem)")
                    }
                }
                guard !problems.isEmpty else { continue }
                mismatchCount += 1
                if mismatches.count < 25 {
                    mismatches.append(
                        "\(describe(request))\n  reference: \(describe(expected))\n  " + problems.joined(separator: "\n  "))
                }
            }
        }
        #expect(
            mismatchCount == 0,
            "\(file): \(mismatchCount) of \(checked) loads differ; first ones:\n\(mismatches.joined(separator: "\n"))")
        // Guards against a vacuous pass.
        #expect(checked > 24_000 / configuration.stride, "\(checked) loads")
        #expect(blocked > 1_000 / configuration.stride, "only \(blocked) of \(checked) loads blocked")
        #expect(unchecked > 0 && unchecked < checked / 5, "\(unchecked) of \(checked) loads unchecked")
    }

    /// The request on its own page, an unrelated page and a first-party page; a main-frame
    /// request is the page's own navigation, so it has one load only.
    static func requests(for test: MatchingTestRequest) -> [Request] {
        if test.type == .mainFrame { return [.mainDocument(test.url)] }
        let type = test.type.webKitResourceTypes.first ?? .other
        var pages = [test.sourceURL, unrelatedSite]
        if let host = CanonicalURL(test.url)?.host, !host.isEmpty {
            pages.append("https://www.\(PublicSuffixList.bundled.registrableDomain(of: host) ?? host)/")
        }
        // A subdocument is loaded by the page's main frame into a child frame.
        return pages.map { Request(url: test.url, topURL: $0, resourceType: type) }
    }
}

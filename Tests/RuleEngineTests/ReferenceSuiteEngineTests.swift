import ContentRuleList
import RuleBuilder
import RuleEngineKit
import Testing
import TrackerDataKit
import TrackerlessCore
import TrackerlessTestSupport

/// The rules built for a reference suite, decided by the engine (and by the reference evaluator,
/// which the engine must agree with), beside the suite's resolver.
///
/// The lists are encoded and parsed back first, so the engine gets the JSON WebKit is given.
struct SuiteEngine: Sendable {
    let engine: RuleEngine
    let loaded: RuleEngine
    let reference: ReferenceEvaluator
    let resolver: TrackerResolver
    let lists: [RuleList]
    /// The input of each rule of each list.
    let sources: [[RuleSource]]

    init(
        trackerData: TrackerData, configuration: PrivacyConfiguration? = nil, userAllowlist: UserAllowlist = UserAllowlist(),
        resolver: TrackerResolver
    ) throws {
        let built = RuleListBuilder(trackerData: trackerData, configuration: configuration, userAllowlist: userAllowlist)
            .build()
        #expect(built.ruleCount > 0)
        let lists = try built.ruleLists.map { list throws(RuleListError) in try RuleList(parsing: list.encoded()) }
        engine = try RuleEngine(ruleLists: lists)
        loaded = try RuleEngine(compiled: engine.compiled())
        reference = try ReferenceEvaluator(ruleLists: lists)
        self.resolver = resolver
        self.lists = lists
        sources = built.sources
        try #require(sources.count == lists.count && zip(sources, lists).allSatisfy { $0.count == $1.rules.count })
    }

    /// The load WebKit sees for a Tracker Radar request (as the reference tests build it): a
    /// `main_frame` request is the page's own navigation, other types take their first WebKit
    /// resource type. Nil for a type WebKit's loader never produces.
    static func request(url: String, topURL: String, type: RequestType) -> Request? {
        if type == .mainFrame { return .mainDocument(url) }
        guard let resourceType = type.webKitResourceTypes.first else { return nil }
        return Request(url: url, topURL: topURL, resourceType: resourceType)
    }

    /// Checks that the engine, the compiled engine and the reference agree on the load, and
    /// returns the engine's answer: blocked or not.
    func isBlocked(url: String, topURL: String, type: RequestType) throws -> Bool {
        let request = try #require(Self.request(url: url, topURL: topURL, type: type), "no WebKit load for type \(type)")
        let expected = reference.actions(for: request)
        var cache = RuleEngine.PageCache()
        let decision = engine.decision(for: request, cache: &cache)
        #expect(engine.actions(for: request) == expected, "engine \(describe(engine.actions(for: request))), reference \(describe(expected))")
        #expect(Engines.problem(decision, expected) == nil, "decision(for:cache:): \(Engines.problem(decision, expected) ?? "")")
        #expect(loaded.actions(for: request) == expected, "compiled engine \(describe(loaded.actions(for: request)))")
        if decision.isBlocked {
            let problems = try namedRuleProblems(engine.actions(for: request, cache: &cache), request: request, topURL: topURL, type: type)
            #expect(problems.isEmpty, "\(problems.joined(separator: "; "))")
        }
        return decision.isBlocked
    }

    /// What is wrong with the rules a blocked load's actions name: each must apply its action
    /// alone, and a block's source must be what the resolver blocks the request for (its
    /// tracker, a CNAME cloaking it, or the request blocklist).
    func namedRuleProblems(_ actions: AppliedActions, request: Request, topURL: String, type: RequestType) throws -> [String] {
        var problems = try AppliedRuleTests.unreproduced(actions, request: request, lists: lists)
        let resolved = resolver.decision(forRequestURL: request.url, topURL: topURL, type: type)
        let host = CanonicalURL(request.url)?.host ?? ""
        var blocks = 0
        for (listIndex, list) in actions.lists.enumerated() {
            for (action, ruleIndex) in zip(list.actions, list.ruleIndices) where action == .block {
                blocks += 1
                let source = sources[listIndex][ruleIndex]
                let isExpected: Bool
                if let tracker = resolved?.tracker, resolved?.requestBlocklistRule == nil {
                    isExpected = (source.kind == .tracker && source.name == tracker.domain)
                        || (source.kind == .cname && (host == source.name || host.hasSuffix("." + source.name)))
                } else if resolved?.requestBlocklistRule != nil {
                    // A tracker's own rule that blocks the request too comes earlier in the list
                    // and shares the block's location: it is then the one named.
                    isExpected = (source.kind == .configuration && source.name.contains("requestBlocklist"))
                        || (source.kind == .tracker && source.name == resolved?.tracker?.domain)
                } else {
                    isExpected = true  // the resolver disagrees; the suite's own expectation reports it
                }
                if !isExpected {
                    problems.append("list \(listIndex) rule \(ruleIndex) blocks, made from \(source); the resolver: \(String(describing: resolved))")
                }
            }
        }
        if blocks == 0 { problems.append("blocked, but no block action names a rule") }
        return problems
    }
}

/// TR-domain-matching (122 domain and 12 surrogate cases) through the engine: a `block` or
/// `redirect` expectation must be blocked (WebKit blocks the request; the surrogate is injected
/// separately), `ignore` and no action must load, and the resolver agrees.
@Suite("TR-domain-matching through the engine", .enabled(if: SharedData.shouldRun, SharedData.skipMessage))
struct DomainMatchingEngineTests {
    static let rules = Result {
        let fixture = try DomainMatchingFixture.loaded.get()
        return try SuiteEngine(trackerData: fixture.trackerData, resolver: fixture.resolver)
    }

    @Test("the suite has 134 cases")
    func suiteSize() throws {
        #expect(DomainMatchingCase.all.count == 134)
        _ = try Self.rules.get()
    }

    @Test("engine decides as expected", arguments: DomainMatchingCase.all)
    func decision(_ test: DomainMatchingCase) throws {
        let rules = try Self.rules.get()
        let isBlocked = try rules.isBlocked(url: test.requestURL, topURL: test.topURL, type: test.type)
        let resolved = rules.resolver.decision(forRequestURL: test.requestURL, topURL: test.topURL, type: test.type)
        #expect(isBlocked == test.expectsBlocked, "expected \(test.expectAction ?? "no action"), engine blocked: \(isBlocked)")
        #expect(isBlocked == resolved?.isBlocked, "resolver: \(String(describing: resolved))")
    }
}

/// The tracker allowlist cases (25) through the engine, with `contentBlocking` and
/// `trackerAllowlist` enabled: an allowlisted request loads; any other request is blocked exactly
/// when the resolver blocks it.
@Suite("Tracker allowlist through the engine", .enabled(if: SharedData.shouldRun, SharedData.skipMessage))
struct TrackerAllowlistEngineTests {
    static let rules = Result {
        let fixture = try TrackerAllowlistFixture.loaded.get()
        return try SuiteEngine(
            trackerData: fixture.trackerData, configuration: fixture.configuration, resolver: fixture.resolver)
    }

    @Test("the suite has 25 cases")
    func suiteSize() throws {
        #expect(TrackerAllowlistCase.all.count == 25)
        _ = try Self.rules.get()
    }

    @Test("engine decides as expected", arguments: TrackerAllowlistCase.all)
    func allowlisted(_ test: TrackerAllowlistCase) throws {
        let rules = try Self.rules.get()
        let isBlocked = try rules.isBlocked(url: test.request, topURL: test.site, type: .script)
        let resolved = try #require(rules.resolver.decision(forRequestURL: test.request, topURL: test.site, type: .script))
        if test.isAllowlisted {
            #expect(!isBlocked, "allowlisted, but the engine blocks it")
            #expect(resolved.reason == .trackerAllowlist, "resolver: \(resolved)")
        } else {
            #expect(isBlocked == resolved.isBlocked, "engine blocked: \(isBlocked); resolver: \(resolved)")
        }
    }
}

/// The request blocklist cases (41) through the engine, with the folder's configuration,
/// blocklist and user allowlist.
@Suite("Request blocklist through the engine", .enabled(if: SharedData.shouldRun, SharedData.skipMessage))
struct RequestBlocklistEngineTests {
    static let rules = Result {
        let fixture = try RequestBlocklistFixture.loaded.get()
        return try SuiteEngine(
            trackerData: fixture.trackerData, configuration: fixture.configuration,
            userAllowlist: fixture.userAllowlist, resolver: fixture.resolver)
    }

    @Test("the suite has 41 cases")
    func suiteSize() throws {
        #expect(RequestBlocklistCase.all.count == 41)
        _ = try Self.rules.get()
    }

    @Test("engine decides as expected", arguments: RequestBlocklistCase.all)
    func decision(_ test: RequestBlocklistCase) throws {
        let rules = try Self.rules.get()
        let isBlocked = try rules.isBlocked(url: test.requestURL, topURL: test.websiteURL, type: test.type)
        #expect(isBlocked == test.expectsBlocked, "expected \(test.expectAction), engine blocked: \(isBlocked)")
    }
}

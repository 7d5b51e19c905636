import ContentRuleList
import RuleBuilder
import TrackerDataKit
import TrackerlessCore

/// Rule lists built by ``RuleListBuilder`` and evaluated by ``ReferenceEvaluator`` (path b),
/// beside a ``TrackerResolver`` on the same inputs: what WebKit would block, and what it should.
///
/// The lists are encoded and parsed back before evaluation, so they are checked as the JSON that
/// WebKit is given, with WebKit's validation.
struct BuiltRules: Sendable {
    /// The builder's output.
    let build: RuleListBuild
    /// The reference evaluator on the re-parsed lists, as the target's WebKit evaluates them.
    let evaluator: ReferenceEvaluator
    /// The same lists as every other kind of WebKit the target stands for evaluates them: for
    /// the oldest target, one that decides third party by registrable domain (WebKitGTK 2.54), and WebKitGTK 2.44, which
    /// compares hosts under a top-level domain the Public Suffix List does not list.
    let otherEvaluators: [ReferenceEvaluator]
    /// The resolver on the same inputs.
    let resolver: TrackerResolver

    init(
        trackerData: TrackerData,
        configuration: PrivacyConfiguration? = nil,
        userAllowlist: UserAllowlist = UserAllowlist(),
        surrogates: Surrogates = Surrogates(),
        settings: RuleListBuilder.Settings = RuleListBuilder.Settings()
    ) throws(RuleListError) {
        build = RuleListBuilder(
            trackerData: trackerData, configuration: configuration, userAllowlist: userAllowlist, settings: settings
        ).build()
        var parsed: [RuleList] = []
        var warnings: [RuleListWarning] = []
        for list in build.ruleLists {
            parsed.append(try RuleList(parsing: list.encoded(), for: settings.target, warnings: &warnings))
        }
        if let warning = warnings.first {
            throw RuleListError(.invalidTrigger, ruleIndex: warning.ruleIndex, detail: warning.reason)
        }
        evaluator = try ReferenceEvaluator(ruleLists: parsed, target: settings.target)
        otherEvaluators = settings.target == .oldest
            ? [try ReferenceEvaluator(ruleLists: parsed, target: .webKitGTK2_44),
               try ReferenceEvaluator(ruleLists: parsed, target: .webKitGTK2_54)] : []
        resolver = TrackerResolver(
            trackerData: trackerData, surrogates: surrogates, privacyConfiguration: configuration,
            userAllowlist: userAllowlist)
    }

    /// The load WebKit sees for a Tracker Radar request: a `main_frame` request is the page's own
    /// navigation; other types take their first WebKit resource type. Nil for a type WebKit's
    /// loader never produces.
    static func load(requestURL: String, topURL: String, type: RequestType) -> Request? {
        if type == .mainFrame { return .mainDocument(requestURL) }
        guard let resourceType = type.webKitResourceTypes.first else { return nil }
        return Request(url: requestURL, topURL: topURL, resourceType: resourceType)
    }

    /// Whether the evaluated rules block the request; nil for a type WebKit cannot load.
    func isBlockedByRules(requestURL: String, topURL: String, type: RequestType) -> Bool? {
        Self.load(requestURL: requestURL, topURL: topURL, type: type).map { evaluator.actions(for: $0).isBlocked }
    }

    /// The targets whose WebKit blocks the request otherwise than the target's own does.
    func disagreeingTargets(requestURL: String, topURL: String, type: RequestType) -> [String] {
        guard let load = Self.load(requestURL: requestURL, topURL: topURL, type: type) else { return [] }
        let blocked = evaluator.actions(for: load).isBlocked
        return otherEvaluators.filter { $0.actions(for: load).isBlocked != blocked }.map(\.target.name)
    }

    /// What the rules and the resolver make of one request.
    struct Outcome: Sendable, CustomStringConvertible {
        /// The rules block it (or nil: WebKit cannot load the type).
        var isBlockedByRules: Bool?
        /// The resolver's decision (or nil: a URL does not parse).
        var decision: BlockingDecision?
        /// Other WebKits the target stands for that evaluate the rules otherwise.
        var disagreeingTargets: [String] = []

        /// Whether both exist and agree on blocking, in every WebKit the target stands for.
        var agrees: Bool {
            isBlockedByRules != nil && isBlockedByRules == decision?.isBlocked && disagreeingTargets.isEmpty
        }

        var description: String {
            var rules = isBlockedByRules.map { $0 ? "blocked" : "loaded" } ?? "no WebKit load"
            if !disagreeingTargets.isEmpty { rules += " (otherwise in \(disagreeingTargets.joined(separator: ", ")))" }
            let resolver = decision.map {
                "\($0.isBlocked ? "blocked" : "loaded") (\(String(describing: $0.action)), \($0.reason.rawValue))"
            } ?? "unparsable URL"
            return "rules: \(rules); resolver: \(resolver)"
        }
    }

    /// Both answers for one request.
    func outcome(requestURL: String, topURL: String, type: RequestType) -> Outcome {
        Outcome(
            isBlockedByRules: isBlockedByRules(requestURL: requestURL, topURL: topURL, type: type),
            decision: resolver.decision(forRequestURL: requestURL, topURL: topURL, type: type),
            disagreeingTargets: disagreeingTargets(requestURL: requestURL, topURL: topURL, type: type))
    }
}

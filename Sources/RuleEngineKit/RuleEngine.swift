public import ContentRuleList
public import TrackerlessCore

/// Decides loads against WebKit content rule lists with WebKit's exact semantics, fast enough for
/// every request of every page, where no WebKit content blocker does it.
///
/// ```swift
/// let engine = try RuleEngine(ruleList: try RuleList(parsing: json))
/// var page = RuleEngine.PageCache()
/// let decision = engine.decision(
///     for: Request(url: "https://t.example/p.gif", topURL: "https://news.example/", resourceType: .image),
///     cache: &page)
/// if decision.isBlocked { … }
/// ```
///
/// Compiling files each rule where a load finds it in a few steps: rules naming a host
/// (`^[^:]+://+([^/]+[.@])?tracker\.com\.?(:[0-9]+)?/…`, most of real lists) under that host in a hash
/// table, other rules under a literal piece of their pattern; page conditions (`if-domain`,
/// `if-top-url`, …) in tables read once per page. A load then costs a few table probes and the
/// checks of the rules found, whatever the size of the lists.
///
/// The engine is immutable and `Sendable`: share one among threads, and give each thread its own
/// ``PageCache``.
public struct RuleEngine: Sendable {
    let program: Program
    let publicSuffixList: PublicSuffixList
    /// How the page's site is found for the third-party test, and what frame URL a new view's
    /// navigation has: the evaluation of the WebKit the engine stands for.
    let evaluation: Evaluation

    /// The parts of a ``ContentRuleList/WebKitTarget`` that change how loads are evaluated.
    struct Evaluation: Sendable {
        /// The page's site is its host, not its registrable domain, where the Public Suffix List
        /// does not list its top-level domain (WebKitGTK 2.44).
        var comparesHostsUnderUnlistedSuffixes = false
        /// A new view's navigation is matched against frame conditions with its own URL.
        var matchesNewViewAgainstItsURL = true

        init() {}

        init(_ target: WebKitTarget) {
            comparesHostsUnderUnlistedSuffixes = target.thirdParty == .registrableDomainOfListedSuffixes
            matchesNewViewAgainstItsURL = target.matchesNewViewAgainstItsURL
        }
    }

    /// Compiles several lists, each scoped as WebKit scopes an installed list.
    ///
    /// `target` is the WebKit whose evaluation to reproduce where WebKits differ (give the lists
    /// as it reads them: `RuleList.init(parsing:for:warnings:)`). The engine
    /// decides third party by registrable domain, and by host under a top-level domain the
    /// Public Suffix List does not list for WebKitGTK 2.44; it does not reproduce Safari 15's
    /// third party by origin (`WebKitTarget.ThirdPartyRule.origin`), for which
    /// it decides as the WebKits after it do: the builder's lists for the oldest target mean the
    /// same under both.
    ///
    /// - Throws: the `RuleListError` WebKit would report for a pattern outside its regex subset.
    public init(
        ruleLists: [RuleList], publicSuffixList: PublicSuffixList = .bundled, target: WebKitTarget = .newest
    ) throws(RuleListError) {
        program = try ProgramBuilder.build(ruleLists)
        self.publicSuffixList = publicSuffixList
        evaluation = Evaluation(target)
    }

    /// Compiles one list.
    public init(
        ruleList: RuleList, publicSuffixList: PublicSuffixList = .bundled, target: WebKitTarget = .newest
    ) throws(RuleListError) {
        try self.init(ruleLists: [ruleList], publicSuffixList: publicSuffixList, target: target)
    }

    /// Compiles without the host table's Bloom filter, for the benchmark that shows what it saves.
    package init(ruleLists: [RuleList], usesHostFilter: Bool) throws(RuleListError) {
        program = try ProgramBuilder.build(ruleLists, usesHostFilter: usesHostFilter)
        publicSuffixList = .bundled
        evaluation = Evaluation()
    }

    init(program: Program, publicSuffixList: PublicSuffixList, evaluation: Evaluation = Evaluation()) {
        self.program = program
        self.publicSuffixList = publicSuffixList
        self.evaluation = evaluation
    }

    /// The number of rule lists.
    public var ruleListCount: Int { program.listCount }

    /// The number of rules in all the lists, as given.
    public var ruleCount: Int { program.ruleCounts.reduce(0) { $0 + Int($1) } }

    /// The bytes the compiled matcher occupies in memory: its tables, strings and automata
    /// (automata estimated from their size).
    public var memoryFootprint: Int { program.memoryFootprint }

    /// Everything WebKit applies to the load, list by list, each action with the index of the rule
    /// that put it there (the same answer as `ReferenceEvaluator.actions(for:)`).
    public func actions(for request: Request) -> AppliedActions {
        var cache = PageCache()
        return actions(for: request, cache: &cache)
    }

    /// Everything WebKit applies to the load, each action with its rule
    /// (`AppliedActions.ListActions.ruleIndices`), with the caller's page cache.
    ///
    /// Naming the rules notes every matched rule's index and allocates; a host that does not
    /// ask why keeps ``decision(for:cache:)``, which pays nothing for it.
    public func actions(for request: Request, cache: inout PageCache) -> AppliedActions {
        cache.isExplaining = true
        cache.appliedRuleIndices = []
        defer { cache.isExplaining = false }
        let decision = decision(for: request, cache: &cache)
        return decision.appliedActions(ruleIndices: decision.isChecked ? cache.appliedRuleIndices : [])
    }

    /// The decision for one load, without a page cache.
    public func decision(for request: Request) -> Decision {
        var cache = PageCache()
        return decision(for: request, cache: &cache)
    }
}

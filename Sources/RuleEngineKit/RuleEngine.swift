import ContentRuleList
import TrackerlessCore

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

    /// Compiles several lists, each scoped as WebKit scopes an installed list.
    ///
    /// - Throws: the ``RuleListError`` WebKit would report for a pattern outside its regex subset.
    public init(ruleLists: [RuleList], publicSuffixList: PublicSuffixList = .bundled) throws(RuleListError) {
        program = try ProgramBuilder.build(ruleLists)
        self.publicSuffixList = publicSuffixList
    }

    /// Compiles one list.
    public init(ruleList: RuleList, publicSuffixList: PublicSuffixList = .bundled) throws(RuleListError) {
        try self.init(ruleLists: [ruleList], publicSuffixList: publicSuffixList)
    }

    /// Compiles without the host table's Bloom filter, for the benchmark that shows what it saves.
    package init(ruleLists: [RuleList], usesHostFilter: Bool) throws(RuleListError) {
        program = try ProgramBuilder.build(ruleLists, usesHostFilter: usesHostFilter)
        publicSuffixList = .bundled
    }

    init(program: Program, publicSuffixList: PublicSuffixList) {
        self.program = program
        self.publicSuffixList = publicSuffixList
    }

    /// The number of rule lists.
    public var ruleListCount: Int { program.listCount }

    /// The number of rules in all the lists, as given.
    public var ruleCount: Int { program.ruleCounts.reduce(0) { $0 + Int($1) } }

    /// The bytes the compiled matcher occupies in memory: its tables, strings and automata
    /// (automata estimated from their size).
    public var memoryFootprint: Int { program.memoryFootprint }

    /// Everything WebKit applies to the load, list by list (the same answer as
    /// ``ReferenceEvaluator/actions(for:)``).
    public func actions(for request: Request) -> AppliedActions {
        decision(for: request).appliedActions
    }

    /// The decision for one load, without a page cache.
    public func decision(for request: Request) -> Decision {
        var cache = PageCache()
        return decision(for: request, cache: &cache)
    }
}

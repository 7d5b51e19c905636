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
/// The engine is immutable and `Sendable`: share one among threads, give each thread its own
/// ``PageCache``.
public struct RuleEngine: Sendable {
    // Skeleton: delegates to the reference evaluator until the compiled matcher lands.
    let lists: [RuleList]
    let reference: ReferenceEvaluator

    /// Compiles several lists, each scoped as WebKit scopes an installed list.
    ///
    /// - Throws: the ``RuleListError`` WebKit would report for a pattern outside its regex subset.
    public init(ruleLists: [RuleList], publicSuffixList: PublicSuffixList = .bundled) throws(RuleListError) {
        lists = ruleLists
        reference = try ReferenceEvaluator(ruleLists: ruleLists, publicSuffixList: publicSuffixList)
    }

    /// Compiles one list.
    public init(ruleList: RuleList, publicSuffixList: PublicSuffixList = .bundled) throws(RuleListError) {
        try self.init(ruleLists: [ruleList], publicSuffixList: publicSuffixList)
    }

    /// The number of rule lists.
    public var ruleListCount: Int { lists.count }

    /// Everything WebKit applies to the load, list by list (the same answer as
    /// ``ReferenceEvaluator/actions(for:)``).
    public func actions(for request: Request) -> AppliedActions {
        reference.actions(for: request)
    }

    /// The decision for one load; `cache` keeps what depends only on the page (its top URL and
    /// frame URL) between loads of the same page.
    public func decision(for request: Request, cache: inout PageCache) -> Decision {
        Decision(reference.actions(for: request))
    }

    /// The decision for one load, without a page cache.
    public func decision(for request: Request) -> Decision {
        var cache = PageCache()
        return decision(for: request, cache: &cache)
    }
}

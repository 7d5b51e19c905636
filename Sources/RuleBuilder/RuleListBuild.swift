import ContentRuleList

/// The result of ``RuleListBuilder/build()``.
public struct RuleListBuild: Sendable, Hashable {
    /// The lists to install, all of them, in WebKit (or the engine).
    public var ruleLists: [RuleList]
    /// What was left out or approximated, with where it came from.
    public var report: BuildReport

    /// The rules of all lists.
    public var ruleCount: Int { ruleLists.reduce(0) { $0 + $1.rules.count } }
}

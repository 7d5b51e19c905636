/// The rule of the engine that blocked a request: the list's index, in the engine's order, and
/// the rule's index in that list's JSON array, as the engine names an applied action
/// (`AppliedActions.ListActions.ruleIndices`).
public struct BlockingRule: Sendable, Hashable {
    /// The index of the rule list.
    public var list: Int
    /// The index of the rule in that list.
    public var rule: Int

    /// Rule `rule` of list `list`.
    public init(list: Int, rule: Int) {
        self.list = list
        self.rule = rule
    }
}

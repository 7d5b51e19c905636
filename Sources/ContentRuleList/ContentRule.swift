/// One rule of a content rule list: a trigger and the action applied to the loads it matches.
public struct ContentRule: Sendable, Hashable {
    /// Which loads the rule applies to.
    public var trigger: Trigger
    /// What the rule does to them.
    public var action: Action

    /// Creates a rule.
    public init(trigger: Trigger, action: Action) {
        self.trigger = trigger
        self.action = action
    }
}

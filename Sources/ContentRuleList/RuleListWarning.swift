/// Something a WebKit accepts without a word but does not do: a trigger key it does not read,
/// so that the rule applies without that limit.
///
/// ```
/// rule 3: WebKitGTK 2.44 ignores the trigger key "unless-frame-url": the rule applies without it
/// ```
public struct RuleListWarning: Sendable, Hashable, CustomStringConvertible {
    /// The zero-based index of the rule in the JSON array.
    public var ruleIndex: Int
    /// The trigger key the target ignores.
    public var key: String
    /// The target that ignores it.
    public var target: WebKitTarget

    /// Creates a warning.
    public init(ruleIndex: Int, key: String, target: WebKitTarget) {
        self.ruleIndex = ruleIndex
        self.key = key
        self.target = target
    }

    /// What the target does, without the rule: `WebKitGTK 2.44 ignores the trigger key …`.
    public var reason: String {
        "\(target.displayName) ignores the trigger key \"\(key)\": the rule applies without it"
    }

    /// `rule 3: WebKitGTK 2.44 ignores the trigger key "unless-frame-url": …`.
    public var description: String { "rule \(ruleIndex): \(reason)" }
}

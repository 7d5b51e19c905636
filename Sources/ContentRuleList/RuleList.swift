/// A WebKit content rule list (a content blocker): rules applied in order to every load.
///
/// Read one with ``init(parsing:)-(String)``, which accepts and rejects exactly what WebKit's
/// parser does, write one with ``encoded()``, and evaluate one with ``ReferenceEvaluator``.
public struct RuleList: Sendable, Hashable {
    /// The rules in order; later rules see earlier ones through `ignore-previous-rules`.
    public var rules: [ContentRule]

    /// Creates a list from rules in order.
    public init(_ rules: [ContentRule]) {
        self.rules = rules
    }

    /// The most rules WebKit accepts in one list; longer JSON arrays fail with
    /// "Too many rules in JSON array.".
    public static let maximumRuleCount = 150_000
}

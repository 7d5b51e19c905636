import TrackerlessCore

/// The JSON bytes rules take in a list's ``RuleList/encoded()`` output, measured one rule at a
/// time in one reused buffer, so that a builder can keep each list within a byte budget without
/// encoding whole lists it may not make.
///
/// A list of rules of sizes s₁ … sₙ encodes to 1 + Σ (sᵢ + 1) bytes: the brackets and the commas
/// between rules (``listByteCount(ruleBytes:ruleCount:)``).
public struct RuleByteCounter: Sendable {
    private var writer = JSONWriter(capacity: 4096)

    /// A counter with an empty buffer.
    public init() {}

    /// The bytes of `rule` in ``RuleList/encoded()``'s output, without the comma after it.
    public mutating func byteCount(of rule: ContentRule) -> Int {
        writer.removeAll()
        var repeated = RuleList.RepeatedArrays()
        writer.writeRaw(#"{"trigger":"#)
        RuleList.write(rule.trigger, to: &writer, repeated: &repeated)
        writer.writeRaw(#","action":"#)
        RuleList.write(rule.action, to: &writer)
        writer.writeRaw("}")
        return writer.count
    }

    /// The bytes of `rules` in a list, each with the comma or bracket after it: a list's size is
    /// one more than the sum of this over its parts.
    public mutating func byteCount(of rules: some Sequence<ContentRule>) -> Int {
        var total = 0
        for rule in rules { total += byteCount(of: rule) + 1 }
        return total
    }

    /// The size of a list whose rules take `ruleBytes` (from `byteCount(of:)` of the rules):
    /// an empty list is `[]`.
    public static func listByteCount(ruleBytes: Int, ruleCount: Int) -> Int {
        ruleCount == 0 ? 2 : 1 + ruleBytes
    }
}

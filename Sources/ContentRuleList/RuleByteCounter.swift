import TrackerlessCore

/// The JSON bytes rules take in a list's ``RuleList/encoded()`` output, measured one rule at a
/// time by the encoder's own code with a writer that counts bytes instead of keeping them, so
/// that a builder can keep each list within a byte budget without encoding whole lists it may
/// not make.
///
/// A list of rules of sizes s₁ … sₙ encodes to 1 + Σ (sᵢ + 1) bytes: the brackets and the commas
/// between rules (``listByteCount(ruleBytes:ruleCount:)``).
public struct RuleByteCounter: Sendable {
    private var writer = JSONWriter.counting()
    /// The JSON bytes of each long condition array measured so far, by its storage address,
    /// with the array itself: held here, its storage cannot be freed and its address reused.
    /// A builder shares one array between many rules (an owner's sites on each of its
    /// trackers), whose strings are then written once rather than once a rule.
    private var conditionBytes: [Int: (values: [String], byteCount: Int)] = [:]

    /// A counter with an empty buffer.
    public init() {}

    /// The bytes of `rule` in ``RuleList/encoded()``'s output, without the comma after it.
    public mutating func byteCount(of rule: ContentRule) -> Int {
        let valuesBytes = rule.trigger.condition.flatMap { conditionByteCount(of: $0.values) }
        writer.removeAll()
        var repeated = RuleList.RepeatedArrays()
        writer.writeRaw(#"{"trigger":"#)
        // A long array counted before is written as `[]` here, its bytes added below.
        RuleList.write(rule.trigger, to: &writer, repeated: &repeated, writingConditionValues: valuesBytes == nil)
        writer.writeRaw(#","action":"#)
        RuleList.write(rule.action, to: &writer)
        writer.writeRaw("}")
        return writer.count + (valuesBytes.map { $0 - 2 } ?? 0)
    }

    /// The JSON bytes of a condition's values when the array is long enough to share (more than
    /// eight values) and has storage of its own: measured the first time, remembered after.
    private mutating func conditionByteCount(of values: [String]) -> Int? {
        guard values.count > 8 else { return nil }
        let address = values.withContiguousStorageIfAvailable { Int(bitPattern: $0.baseAddress) } ?? 0
        guard address != 0 else { return nil }
        if let known = conditionBytes[address], known.values.count == values.count { return known.byteCount }
        writer.removeAll()
        RuleList.writeArray(values, to: &writer)
        let byteCount = writer.count
        writer.removeAll()
        conditionBytes[address] = (values, byteCount)
        return byteCount
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

/// The matched action locations of one load, each with the first rule (lowest index in its list)
/// that matched there: what a decision asked to name its rules collects beside its
/// ``LocationBuffer``.
struct RuleMatches {
    private let ruleIndices: [UInt32]
    private let universalRuleIndices: [UInt32]
    /// Location → the index in its list of the first matched rule there.
    private var firstRules: [UInt32: UInt32] = [:]

    init(_ program: Program) {
        ruleIndices = program.ruleIndices
        universalRuleIndices = program.universalRuleIndices
    }

    mutating func append(_ location: UInt32, rule: Int) {
        record(location, ruleIndices[rule])
    }

    mutating func appendUniversal(_ location: UInt32, position: Int) {
        record(location, universalRuleIndices[position])
    }

    private mutating func record(_ location: UInt32, _ ruleIndex: UInt32) {
        if let known = firstRules[location], known <= ruleIndex { return }
        firstRules[location] = ruleIndex
    }

    /// The rule of each applied location, in the order of the locations.
    func ruleIndices(of applied: AppliedLocations) -> [UInt32] {
        var indices: [UInt32] = []
        indices.reserveCapacity(applied.count)
        applied.forEach { location in indices.append(firstRules[location] ?? 0) }
        return indices
    }
}

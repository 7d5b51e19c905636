/// Where the evaluation puts what matched a load: the locations alone for a decision
/// (``LocationBuffer``), or each location with the rule behind it when asked which rule
/// (``RuleMatches``). Generic, so that the decision's evaluation is specialized for its buffer
/// and pays nothing for the other.
protocol MatchSink {
    /// Rule `rule` (an index in ``Program/rules``) matched, for its action at `location`.
    mutating func append(_ location: UInt32, rule: Int)
    /// The universal location at `position` in ``Program/universalLocations``, which every
    /// checked load gets.
    mutating func appendUniversal(_ location: UInt32, position: Int)
}

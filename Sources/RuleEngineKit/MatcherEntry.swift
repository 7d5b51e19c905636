/// A matcher as the evaluator reads it: plain values, so that reading one costs no reference
/// counting.
struct MatcherEntry: Sendable {
    /// Whether ``index`` is in ``Program/automata``; otherwise a path literal at ``index`` in
    /// ``Program/frozenLiterals``.
    var isAutomaton: Bool
    var allowsPort: Bool
    var isAnchoredAtEnd: Bool
    var index: UInt32
    var length: UInt32
}

import ContentRuleList

/// How a candidate rule's url-filter is confirmed.
enum RuleMatcher: Sendable {
    /// The url-filter's automaton, on the whole URL.
    case automaton(URLFilter)
    /// After the host: an optional `:port`, then the literal, then possibly the end of the URL.
    case path(literal: [UInt8], allowsPort: Bool, isAnchoredAtEnd: Bool)
}

import ContentRuleList

/// A condition pattern that no table answers: its automaton runs once per page.
struct ConditionPattern: Sendable {
    var filter: URLFilter
    var condition: UInt32
    var isOnFrameURL: Bool
}

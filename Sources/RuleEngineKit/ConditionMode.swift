/// How a rule's condition decides, given whether one of its patterns matched the page.
enum ConditionMode: UInt8, Sendable {
    /// No condition.
    case none
    /// `if-…`: applies when a pattern matched.
    case ifAny
    /// `unless-…`: applies when no pattern matched.
    case unlessAny
    /// `if-…` with a request method: never applies (WebKit's quirk).
    case never
    /// `unless-…` with a request method: always applies (WebKit's quirk).
    case always
}

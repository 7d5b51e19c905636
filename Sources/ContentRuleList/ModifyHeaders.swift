/// A `modify-headers` action: header operations with a priority.
///
/// WebKit applies the actions of one load by priority, highest first; per header the first
/// operation applied wins, except that `append` after `set` or `append` concatenates with `"; "`.
/// Only request headers are applied.
public struct ModifyHeaders: Sendable, Hashable {
    /// One entry of `request-headers` or `response-headers`.
    public enum Operation: Sendable, Hashable {
        /// `set`: replace the header's value.
        case set(header: String, value: String)
        /// `append`: add to the header's value.
        case append(header: String, value: String)
        /// `remove`: remove the header.
        case remove(header: String)

        /// The header name.
        public var header: String {
            switch self {
            case .set(let header, _), .append(let header, _), .remove(let header): header
            }
        }
    }

    /// `priority`: a non-negative integer below 2^31; higher applies first.
    public var priority: Int
    /// `request-headers`.
    public var requestHeaders: [Operation]
    /// `response-headers`.
    public var responseHeaders: [Operation]

    /// Creates a modify-headers action.
    public init(priority: Int, requestHeaders: [Operation] = [], responseHeaders: [Operation] = []) {
        self.priority = priority
        self.requestHeaders = requestHeaders
        self.responseHeaders = responseHeaders
    }
}

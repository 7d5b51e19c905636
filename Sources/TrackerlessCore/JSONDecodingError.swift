/// A well-formed JSON document whose content is not what the reader expected, with the path of
/// the offending value.
public struct JSONDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the offending value is.
    public var path: JSONPath
    /// What is wrong, for example `expected a string, found a number`.
    public var reason: String

    /// Creates an error for the value at `path`.
    public init(path: JSONPath, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// The path and the reason, for example
    /// `trackers["x.com"].default: expected a string, found a number`.
    public var description: String {
        "\(path): \(reason)"
    }
}

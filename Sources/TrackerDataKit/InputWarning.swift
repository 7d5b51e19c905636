public import TrackerlessCore

/// A problem in an input that was skipped rather than rejected, with where it is.
///
/// DuckDuckGo's clients drop some invalid entries silently (a rule with an unknown action, a
/// malformed request-blocklist rule); we drop the same entries but say so.
public struct InputWarning: Sendable, Hashable, CustomStringConvertible {
    /// The file the input came from, when known.
    public var file: String?
    /// The JSON path of the skipped value, for JSON inputs.
    public var path: JSONPath?
    /// The line, for text inputs such as surrogates.txt (1-based).
    public var line: Int?
    /// What is wrong and what was done about it.
    public var message: String

    /// Creates a warning.
    public init(file: String? = nil, path: JSONPath? = nil, line: Int? = nil, message: String) {
        self.file = file
        self.path = path
        self.line = line
        self.message = message
    }

    /// `file: path: message`, leaving out the parts that are unknown.
    public var description: String {
        var parts: [String] = []
        if let file { parts.append(file) }
        if let path { parts.append(path.description) }
        if let line { parts.append("line \(line)") }
        parts.append(message)
        return parts.joined(separator: ": ")
    }
}

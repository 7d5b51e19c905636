public import TrackerlessCore

/// A Disconnect list, entity list or normalized category list that cannot be read, with the file
/// and the place in it.
///
/// ```
/// disconnect-blacklist.json: categories.Advertising[3]["Ad Co"]["https://ad.example/"][0]: "ad..example" is not a domain name
/// ```
public struct DisconnectListError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: Sendable, Equatable {
        /// The file cannot be read (missing, a directory, not permitted).
        case unreadable
        /// The file is not JSON; `line` and `column` say where.
        case syntax(line: Int, column: Int)
        /// A value has the wrong type or a required member is missing.
        case unexpectedValue
        /// A category of `disconnect-blacklist.json` that this module does not know.
        case unknownCategory(String)
        /// A string that should be a domain (`tracker.example`, optionally with a path) is not one.
        case invalidDomain(String)
        /// A tracker domain that is a public suffix of the ICANN section: blocking it would block whole top-level domains.
        case publicSuffix(String)
    }

    /// The file, as the caller named it (a path or a file name).
    public var file: String
    /// Where in the file; nil for syntax errors, which give a line and column instead.
    public var path: JSONPath?
    /// What kind of problem it is.
    public var kind: Kind
    /// What is wrong, in words.
    public var reason: String

    /// Creates an error.
    public init(file: String, path: JSONPath?, kind: Kind, reason: String) {
        self.file = file
        self.path = path
        self.kind = kind
        self.reason = reason
    }

    /// The file, the place and the reason, for example
    /// `disconnect-entitylist.json: entities.Google.properties: expected an array of strings, found a string`.
    public var description: String {
        switch kind {
        case .unreadable:
            "\(file): \(reason)"
        case .syntax(let line, let column):
            "\(file): line \(line), column \(column): \(reason)"
        default:
            "\(file): \(path.map { "\($0)" } ?? "(root)"): \(reason)"
        }
    }

    init(file: String, _ error: JSONSyntaxError) {
        self.init(file: file, path: nil, kind: .syntax(line: error.line, column: error.column), reason: error.reason)
    }
}

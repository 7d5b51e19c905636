/// A JSON document that is not well-formed, with the position of the first problem.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The zero-based byte offset of the problem in the document.
    public var offset: Int
    /// The one-based line of the problem.
    public var line: Int
    /// The one-based column of the problem, counted in Unicode scalars.
    public var column: Int
    /// What is wrong, in words a person can act on.
    public var reason: String

    /// Creates an error at a known position.
    public init(offset: Int, line: Int, column: Int, reason: String) {
        self.offset = offset
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// The position and reason, for example
    /// `line 3, column 14 (byte 52): expected ',' or '}' after an object member`.
    public var description: String {
        "line \(line), column \(column) (byte \(offset)): \(reason)"
    }
}

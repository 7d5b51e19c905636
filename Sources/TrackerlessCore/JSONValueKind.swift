/// What kind of value comes next in a document (see ``JSONReader/nextKind()``).
public enum JSONValueKind: Sendable {
    /// An object (`{`).
    case object
    /// An array (`[`).
    case array
    /// A string (`"`).
    case string
    /// A number (`-` or a digit).
    case number
    /// `true` or `false`.
    case bool
    /// `null`.
    case null
    /// A byte that starts no JSON value: reading it reports the syntax error.
    case invalid
}

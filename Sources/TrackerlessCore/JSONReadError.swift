/// Why ``JSONReader`` could not read a document: it is not JSON, or a value is not what the
/// reader expected.
public enum JSONReadError: Error, CustomStringConvertible {
    /// The bytes are not well-formed JSON.
    case syntax(JSONSyntaxError)
    /// A value has the wrong type or is missing, as ``JSONNode`` reports it.
    case invalidValue(JSONDecodingError)
    /// A well-typed value the decoder refuses, with the decoder's own error (a Disconnect list's
    /// domain that is not a domain name, for example); the decoder's entry point unwraps it.
    case rejected(any Error)

    /// The description of the error within: `line 1, column 5: ...`, `rules[3].rule: expected a
    /// string, found a number`, or the decoder's own.
    public var description: String {
        switch self {
        case .syntax(let error): "\(error)"
        case .invalidValue(let error): "\(error)"
        case .rejected(let error): "\(error)"
        }
    }
}

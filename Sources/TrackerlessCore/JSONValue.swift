/// A JSON value as parsed from a document, with objects keeping document order and duplicate keys.
///
/// Numbers are held as `Double`, as in JavaScript and WebKit's JSON parser, so every integer up
/// to 2^53 round-trips exactly.
public enum JSONValue: Sendable, Hashable {
    /// The literal `null`.
    case null
    /// The literal `true` or `false`.
    case bool(Bool)
    /// A number.
    case number(Double)
    /// A string, with escapes resolved.
    case string(String)
    /// An array of values in document order.
    case array([JSONValue])
    /// An object whose members keep document order and duplicates.
    case object(JSONObject)
}

/// Parses JSON text (RFC 8259) into a ``JSONValue`` tree.
///
/// The parser works on UTF-8 bytes, validates them, refuses nesting deeper than a limit instead
/// of overflowing the stack, and reports the line and column of the first problem.
///
/// The package reads its inputs with ``JSONReader``, which reports the same syntax errors without
/// building a tree; the parser is for a caller that wants a whole document as a value.
public enum JSONParser: Sendable {
    /// Parses RFC 8259 JSON (UTF-8, optional BOM). Depth limit -> error, never a stack overflow.
    ///
    /// - Parameters:
    ///   - bytes: The UTF-8 document; a leading byte order mark is skipped.
    ///   - maxDepth: The deepest nesting of arrays and objects accepted.
    /// - Throws: ``JSONSyntaxError`` at the first problem.
    public static func parse(_ bytes: [UInt8], maxDepth: Int = 512) throws(JSONSyntaxError) -> JSONValue {
        try parse(bytes, maxDepth: maxDepth, indexingObjects: true)
    }

    /// Parses like ``parse(_:maxDepth:)``; with `indexingObjects` false, large objects get no
    /// key index (lookups by key then search their keys in order). For readers that only walk
    /// members, such as the tds.json decoder: indexing its big maps cost 2% of the pipeline.
    package static func parse(_ bytes: [UInt8], maxDepth: Int = 512, indexingObjects: Bool) throws(JSONSyntaxError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONSyntaxError) -> JSONValue in
            var scanner = JSONScanner(buffer, maxDepth: maxDepth, indexingObjects: indexingObjects)
            return try scanner.parseDocument()
        }
    }

    /// Parses RFC 8259 JSON text. Depth limit -> error, never a stack overflow.
    ///
    /// - Throws: ``JSONSyntaxError`` at the first problem.
    public static func parse(_ string: String, maxDepth: Int = 512) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(string.utf8), maxDepth: maxDepth)
    }
}

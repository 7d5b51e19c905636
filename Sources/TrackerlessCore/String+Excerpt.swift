extension String {
    /// The most characters of an input that an error message quotes.
    public static let excerptLimit = 120
}

extension StringProtocol {
    /// The text without the UTF-8 byte order mark (U+FEFF) it starts with, if any: line-based
    /// inputs skip it, as JSON parsers do, instead of reading it as part of the first line.
    public func droppingByteOrderMark() -> SubSequence {
        first == "\u{FEFF}" ? dropFirst() : self[...]
    }

    /// The text as an error message quotes it: whole when it has at most `limit` characters,
    /// else its first `limit` characters, `…`, and how long the whole is, so that a message
    /// about a 10 MB input stays one readable line.
    ///
    /// ```swift
    /// String(repeating: "a", count: 1_000_000).excerpt(limit: 3)   // "aaa… (1000000 bytes in all)"
    /// ```
    public func excerpt(limit: Int = String.excerptLimit) -> String {
        // A character is at least one byte: a text of at most `limit` bytes needs no cut.
        if utf8.count <= limit { return String(self) }
        var end = startIndex
        var count = 0
        while count < limit, end < endIndex {
            formIndex(after: &end)
            count += 1
        }
        if end == endIndex { return String(self) }
        return String(self[..<end]) + "… (\(utf8.count) bytes in all)"
    }
}

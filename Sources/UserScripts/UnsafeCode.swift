/// What in code inserted verbatim into a script would break it: `</script` (any case) ends an
/// inline script element, and U+2028/U+2029 are line terminators that ES2017 does not allow in
/// string literals. Inside a string they could be escaped, but in a comment or between tokens
/// the escape changes the meaning, so code containing them is refused rather than rewritten.
enum UnsafeCode {
    struct Problem: Sendable, Equatable {
        /// 1-based line of the offending text.
        var line: Int
        var reason: String
    }

    /// The first problem of code the renderer wraps in a function (a surrogate's source, a
    /// bridge): unsafe text, or brackets that do not balance (``CodeNesting``).
    static func firstProblem(inFunctionBody bytes: some Collection<UInt8>) -> Problem? {
        firstProblem(in: bytes) ?? CodeNesting.firstProblem(in: bytes)
    }

    /// The first unsafe text in `bytes` (UTF-8), or nil.
    static func firstProblem(in bytes: some Collection<UInt8>) -> Problem? {
        let scriptEnd = Array("/script".utf8)
        var line = 1
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\n"):
                line += 1
            case UInt8(ascii: "<"):
                var probe = bytes.index(after: index)
                var matched = 0
                while matched < scriptEnd.count, probe != bytes.endIndex,
                    bytes[probe] | (matched == 0 ? 0 : 0x20) == scriptEnd[matched]
                {
                    matched += 1
                    probe = bytes.index(after: probe)
                }
                if matched == scriptEnd.count {
                    return Problem(line: line, reason: "contains \"</script\", which would end an inline script element")
                }
            case 0xE2:
                var probe = bytes.index(after: index)
                if probe != bytes.endIndex, bytes[probe] == 0x80 {
                    probe = bytes.index(after: probe)
                    if probe != bytes.endIndex, bytes[probe] == 0xA8 || bytes[probe] == 0xA9 {
                        let name = bytes[probe] == 0xA8 ? "U+2028 (LINE SEPARATOR)" : "U+2029 (PARAGRAPH SEPARATOR)"
                        return Problem(line: line, reason: "contains \(name), which ES2017 parsers reject in strings; write it as an escape")
                    }
                }
            default:
                break
            }
            index = bytes.index(after: index)
        }
        return nil
    }
}

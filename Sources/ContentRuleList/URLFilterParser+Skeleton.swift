extension URLFilterParser {
    /// `pattern` with every run of plain literal atoms (ASCII letters and digits, `_`, `-` and
    /// `\.`, outside a character class) replaced by one `a`; nil when the pattern has syntax in
    /// which a letter or digit could mean something else (`(?`, `{`, an escape of a letter or
    /// digit, a byte that is not ASCII), or an unterminated class or escape.
    ///
    /// A run of literal atoms parses wherever one literal does, and nothing in the parser
    /// depends on which letters they are: when the skeleton parses (and the pattern is within
    /// ``maximumPatternLength``), so does the pattern. The converse need not hold; a failing
    /// skeleton says nothing, and the pattern is then parsed itself.
    static func skeleton(of pattern: String) -> String? {
        var output: [UInt8] = []
        var inRun = false
        var iterator = pattern.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "_"), UInt8(ascii: "-"):
                if !inRun { output.append(UInt8(ascii: "a")) }
                inRun = true
            case UInt8(ascii: "\\"):
                guard let escaped = iterator.next(), escaped < 0x80, !isLetterOrDigit(escaped) else { return nil }
                if escaped == UInt8(ascii: ".") {
                    if !inRun { output.append(UInt8(ascii: "a")) }
                    inRun = true
                } else {
                    output += [byte, escaped]
                    inRun = false
                }
            case UInt8(ascii: "["):
                // The class as it is, to its closing bracket. A `]` right after `[` or `[^`,
                // which regex dialects read differently, is left to the parser.
                output.append(byte)
                inRun = false
                var isFirst = true
                while true {
                    guard let member = iterator.next(), member < 0x80 else { return nil }
                    output.append(member)
                    if member == UInt8(ascii: "^"), isFirst, output.count >= 2, output[output.count - 2] == UInt8(ascii: "[") {
                        continue
                    }
                    if member == UInt8(ascii: "]") {
                        if isFirst { return nil }
                        break
                    }
                    isFirst = false
                    if member == UInt8(ascii: "\\") {
                        guard let escaped = iterator.next(), escaped < 0x80 else { return nil }
                        output.append(escaped)
                    }
                }
            case UInt8(ascii: "{"):
                return nil
            case UInt8(ascii: "("):
                output.append(byte)
                inRun = false
                var lookahead = iterator
                if lookahead.next() == UInt8(ascii: "?") { return nil }
            default:
                guard byte < 0x80 else { return nil }
                output.append(byte)
                inRun = false
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}

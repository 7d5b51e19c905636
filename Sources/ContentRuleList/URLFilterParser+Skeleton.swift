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
        var pattern = pattern
        return pattern.withUTF8 { bytes in
            // The skeleton is never longer than the pattern: written in place, one allocation.
            var isValid = true
            let skeleton = String(unsafeUninitializedCapacity: max(bytes.count, 1)) { output in
                guard let count = write(skeletonOf: bytes, to: output) else {
                    isValid = false
                    return 0
                }
                return count
            }
            return isValid ? skeleton : nil
        }
    }

    /// Writes the skeleton of `bytes` to `output` (at least as long); its length, or nil.
    static func write(skeletonOf bytes: UnsafeBufferPointer<UInt8>, to output: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        precondition(output.count >= bytes.count)
        let end = bytes.count
        var count = 0
        var index = 0
        // Each byte of the skeleton stands for at least one of the pattern: `count <= index`.
        func append(_ byte: UInt8) {
            output[count] = byte
            count &+= 1
        }
        while index < end {
            let byte = bytes[index]
            index &+= 1
            if isRunByte(byte) || (byte == UInt8(ascii: "\\") && index < end && bytes[index] == UInt8(ascii: ".")) {
                // A run of literal atoms: one `a`, then past the run.
                if byte == UInt8(ascii: "\\") { index &+= 1 }
                append(UInt8(ascii: "a"))
                while index < end {
                    let next = bytes[index]
                    if isRunByte(next) {
                        index &+= 1
                    } else if next == UInt8(ascii: "\\"), index &+ 1 < end, bytes[index &+ 1] == UInt8(ascii: ".") {
                        index &+= 2
                    } else {
                        break
                    }
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\\"):
                guard index < end else { return nil }
                let escaped = bytes[index]
                index &+= 1
                guard escaped < 0x80, !isLetterOrDigit(escaped) else { return nil }
                append(byte)
                append(escaped)
            case UInt8(ascii: "["):
                // The class as it is, to its closing bracket. A `]` right after `[` or `[^`,
                // which regex dialects read differently, is left to the parser.
                append(byte)
                var isFirst = true
                while true {
                    guard index < end else { return nil }
                    let member = bytes[index]
                    index &+= 1
                    guard member < 0x80 else { return nil }
                    append(member)
                    if member == UInt8(ascii: "^"), isFirst, count >= 2, output[count - 2] == UInt8(ascii: "[") {
                        continue
                    }
                    if member == UInt8(ascii: "]") {
                        if isFirst { return nil }
                        break
                    }
                    isFirst = false
                    if member == UInt8(ascii: "\\") {
                        guard index < end else { return nil }
                        let escaped = bytes[index]
                        index &+= 1
                        guard escaped < 0x80 else { return nil }
                        append(escaped)
                    }
                }
            case UInt8(ascii: "{"):
                return nil
            case UInt8(ascii: "("):
                append(byte)
                if index < end, bytes[index] == UInt8(ascii: "?") { return nil }
            default:
                guard byte < 0x80 else { return nil }
                append(byte)
            }
        }
        return count
    }

    /// A literal atom of a run by itself: an ASCII letter or digit, `_` or `-`.
    private static func isRunByte(_ byte: UInt8) -> Bool {
        isLetterOrDigit(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}

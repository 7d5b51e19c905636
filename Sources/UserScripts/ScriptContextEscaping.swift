/// JSON made safe to place inside a script: the text reads back as the same JSON value, and
/// cannot end an inline `<script>` element or break an ES2017 parser.
///
/// `<` and `>` become `\u003c` and `\u003e` (so no `</script>` or `<!--`), U+2028 and U+2029
/// become `\u2028` and `\u2029`. In JSON text all four occur only inside strings, where these
/// escapes mean the same characters.
enum ScriptContextEscaping {
    /// Appends `json` escaped to `output`.
    static func appendJSON(_ json: String, to output: inout [UInt8]) {
        var json = json
        json.withUTF8 { appendJSON(bytes: $0, to: &output) }
    }

    static func appendJSON(bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        output.reserveCapacity(output.count + bytes.count)
        var copiedUpTo = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let escape: StaticString
            let length: Int
            if byte == UInt8(ascii: "<") {
                (escape, length) = ("\\u003c", 1)
            } else if byte == UInt8(ascii: ">") {
                (escape, length) = ("\\u003e", 1)
            } else if byte == 0xE2, index + 2 < bytes.count, bytes[index + 1] == 0x80,
                bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9
            {
                (escape, length) = (bytes[index + 2] == 0xA8 ? "\\u2028" : "\\u2029", 3)
            } else {
                index += 1
                continue
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copiedUpTo..<index]))
            output.append(contentsOf: UnsafeBufferPointer(start: escape.utf8Start, count: escape.utf8CodeUnitCount))
            index += length
            copiedUpTo = index
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copiedUpTo..<bytes.count]))
    }
}

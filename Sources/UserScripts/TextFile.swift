import Foundation
import TrackerlessCore

/// Text files of the templates and surrogates: UTF-8 or an error naming the line.
enum TextFile {
    /// `bytes` as a string, with a UTF-8 byte-order mark removed.
    static func decode(_ bytes: [UInt8], file: String) throws(ScriptRenderError) -> String {
        var bytes = bytes[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        if let text = String(validatingUTF8Bytes: bytes) { return text }
        throw .invalidUTF8(file: file, line: firstInvalidLine(bytes))
    }

    /// The line of the first byte that is not part of valid UTF-8.
    static func firstInvalidLine(_ bytes: ArraySlice<UInt8>) -> Int {
        var line = 1
        var lineStart = bytes.startIndex
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
            if String(validatingUTF8Bytes: bytes[lineStart..<index]) == nil { return line }
            line += 1
            lineStart = index + 1
        }
        return line
    }
}

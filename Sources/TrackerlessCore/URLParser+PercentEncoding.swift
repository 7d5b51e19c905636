extension URLParser {
    /// The WHATWG percent-encode sets used when serializing URL components.
    enum EncodeSet {
        /// C0 controls and everything above `~`: opaque paths and hosts.
        case c0Control
        /// Adds space, `"`, `<`, `>` and `` ` ``.
        case fragment
        /// Adds space, `"`, `#`, `<` and `>`.
        case query
        /// The query set plus `'`, for special schemes.
        case specialQuery
        /// The query set plus `?`, `` ` ``, `{` and `}`.
        case path
        /// The path set plus `/`, `:`, `;`, `=`, `@`, `[` to `^` and `|`.
        case userinfo

        func contains(_ byte: UInt8) -> Bool {
            if byte < 0x20 || byte > 0x7E { return true }
            switch self {
            case .c0Control:
                return false
            case .fragment:
                return byte == 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "<")
                    || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "`")
            case .query, .specialQuery:
                if self == .specialQuery, byte == UInt8(ascii: "'") { return true }
                return byte == 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "#")
                    || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
            case .path, .userinfo:
                if EncodeSet.query.contains(byte) { return true }
                switch byte {
                case UInt8(ascii: "?"), UInt8(ascii: "`"), UInt8(ascii: "{"), UInt8(ascii: "}"):
                    return true
                case UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: ";"), UInt8(ascii: "="),
                    UInt8(ascii: "@"), UInt8(ascii: "["), UInt8(ascii: "\\"), UInt8(ascii: "]"),
                    UInt8(ascii: "^"), UInt8(ascii: "|"):
                    return self == .userinfo
                default:
                    return false
                }
            }
        }
    }

    static func percentEncoded(_ bytes: some Collection<UInt8>, _ set: EncodeSet) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        appendPercentEncoded(bytes, set, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    static func appendPercentEncoded(_ bytes: some Collection<UInt8>, _ set: EncodeSet, to output: inout [UInt8]) {
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in bytes {
            if set.contains(byte) {
                output.append(UInt8(ascii: "%"))
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 0x0F)])
            } else {
                output.append(byte)
            }
        }
    }

    /// Decodes `%XX` escapes; a `%` not followed by two hex digits stays as it is.
    static func percentDecoded(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.endIndex,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(byte)
                index += 1
            }
        }
        return output
    }

    /// Splits a path into segments, resolves `.` and `..` (also written `%2e`), and
    /// percent-encodes each segment; special URLs also split on `\`.
    static func normalizedPath(_ bytes: ArraySlice<UInt8>, special: Bool) -> String {
        var rest = bytes
        // The path start state consumes one leading slash.
        if let first = rest.first, isSlash(first, special: special) {
            rest = rest.dropFirst()
        } else if rest.isEmpty, !special {
            return ""
        }
        // The output doubles as the stack of segments: each is "/" and its encoded bytes, and
        // encoded segments never contain "/", so popping one truncates to the last "/".
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 8)
        var segmentStart = rest.startIndex
        var index = rest.startIndex
        while true {
            let atEnd = index == rest.endIndex
            if atEnd || isSlash(rest[index], special: special) {
                let segment = rest[segmentStart..<index]
                if isDoubleDot(segment) {
                    if let lastSlash = output.lastIndex(of: UInt8(ascii: "/")) {
                        output.removeSubrange(lastSlash...)
                    }
                    if atEnd { output.append(UInt8(ascii: "/")) }
                } else if isSingleDot(segment) {
                    if atEnd { output.append(UInt8(ascii: "/")) }
                } else {
                    output.append(UInt8(ascii: "/"))
                    appendPercentEncoded(segment, .path, to: &output)
                }
                if atEnd { break }
                segmentStart = index + 1
            }
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func isSingleDot(_ segment: ArraySlice<UInt8>) -> Bool {
        segment.elementsEqual(".".utf8) || isEncodedDot(segment)
    }

    private static func isDoubleDot(_ segment: ArraySlice<UInt8>) -> Bool {
        switch segment.count {
        case 2: return segment.elementsEqual("..".utf8)
        case 4:
            return (segment.first == UInt8(ascii: ".") && isEncodedDot(segment.dropFirst()))
                || (segment.last == UInt8(ascii: ".") && isEncodedDot(segment.dropLast()))
        case 6: return isEncodedDot(segment.prefix(3)) && isEncodedDot(segment.suffix(3))
        default: return false
        }
    }

    private static func isEncodedDot(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.count == 3 && bytes.first == UInt8(ascii: "%") && bytes[bytes.startIndex + 1] == UInt8(ascii: "2")
            && (bytes[bytes.startIndex + 2] | 0x20) == UInt8(ascii: "e")
    }
}

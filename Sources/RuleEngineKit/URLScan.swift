// Byte-level reading of URLs, without Foundation and without allocating.

/// The parts of a URL the evaluator reads, as offsets into its UTF-8 bytes.
struct URLScan {
    /// Where an http, https, ws or wss URL that is already canonical ends before its fragment, and
    /// where its host is; nil when the URL may change under canonicalization (then the caller
    /// canonicalizes it).
    ///
    /// Conservative: it accepts lowercase hosts of letters, digits, `-` and `.` (no IP address,
    /// no `xn--` label), an explicit port only when it is not the scheme's default, and paths
    /// and queries of characters that canonicalization never rewrites, without `.` segments.
    struct CanonicalParts {
        /// The length of the URL without its fragment.
        var length: Int
        var hostStart: Int
        var hostEnd: Int
        /// Where the host and port end: the path's `/`, or where it is inserted.
        var authorityEnd: Int
        /// `http:` or `ws:` on the default port: what make-https upgrades.
        var isUpgradable: Bool
        /// Where canonicalization inserts the `/` of an empty path (the URL ends, or `?` or `#`
        /// follows, right after the host or port); nil when the path is there.
        var slashInsertion: Int?
    }

    static func canonicalParts(_ url: UnsafeBufferPointer<UInt8>) -> CanonicalParts? {
        let count = url.count
        // Scheme.
        var index = 0
        while index < count && index < 6 && url[index] != UInt8(ascii: ":") { index += 1 }
        guard index < count - 3, url[index] == UInt8(ascii: ":"), url[index + 1] == UInt8(ascii: "/"),
            url[index + 2] == UInt8(ascii: "/")
        else { return nil }
        let isSecure: Bool
        let defaultPort: Int
        switch (index, url[0], url[1], index > 2 ? url[2] : 0, index > 3 ? url[3] : 0, index > 4 ? url[4] : 0) {
        case (4, 0x68, 0x74, 0x74, 0x70, _): (isSecure, defaultPort) = (false, 80)  // http
        case (5, 0x68, 0x74, 0x74, 0x70, 0x73): (isSecure, defaultPort) = (true, 443)  // https
        case (2, 0x77, 0x73, _, _, _): (isSecure, defaultPort) = (false, 80)  // ws
        case (3, 0x77, 0x73, 0x73, _, _): (isSecure, defaultPort) = (true, 443)  // wss
        default: return nil
        }
        // Host: labels of [a-z0-9-], starting and ending with a letter or digit.
        // A label starting with `xn--` is one IDNA would check: left to canonicalization.
        func isPunycodeLabel(at start: Int) -> Bool {
            start + 3 < count && url[start] == UInt8(ascii: "x") && url[start + 1] == UInt8(ascii: "n")
                && url[start + 2] == UInt8(ascii: "-") && url[start + 3] == UInt8(ascii: "-")
        }
        let hostStart = index + 3
        guard !isPunycodeLabel(at: hostStart) else { return nil }
        index = hostStart
        var labelStart = index
        var lastLabelStart = index
        while index < count {
            let byte = url[index]
            if byte == UInt8(ascii: ".") {
                guard index > labelStart, isLetterOrDigit(url[index - 1]), !isPunycodeLabel(at: index + 1) else { return nil }
                labelStart = index + 1
                lastLabelStart = labelStart
            } else if byte == UInt8(ascii: "-") {
                guard index > labelStart else { return nil }
            } else if !isLowercaseLetterOrDigit(byte) {
                break
            }
            index += 1
        }
        let hostEnd = index
        guard hostEnd > labelStart, isLetterOrDigit(url[hostEnd - 1]), hostEnd - hostStart <= 253 else { return nil }
        // An IP address (the last label starts with a digit): left to canonicalization.
        guard !isDigit(url[lastLabelStart]) else { return nil }
        // Port: digits without a leading zero, not the default.
        var hasPort = false
        if index < count && url[index] == UInt8(ascii: ":") {
            index += 1
            let portStart = index
            var port = 0
            while index < count && isDigit(url[index]) && index - portStart < 5 {
                port = port * 10 + Int(url[index] - 0x30)
                index += 1
            }
            guard index > portStart, url[portStart] != UInt8(ascii: "0"), port <= 65535, port != defaultPort else { return nil }
            hasPort = true
        }
        let authorityEnd = index
        // Path, then query: characters that stay as they are. An empty path becomes `/`.
        var slashInsertion: Int?
        if index == count || url[index] == UInt8(ascii: "?") || url[index] == UInt8(ascii: "#") {
            slashInsertion = index
        } else if url[index] != UInt8(ascii: "/") {
            return nil
        }
        var isQuery = index < count && url[index] == UInt8(ascii: "?")
        if isQuery { index += 1 }
        var segmentStart = index + 1
        while index < count {
            let byte = url[index]
            // Most bytes are letters, digits and punctuation that never change.
            if isOrdinary(byte) {
                index += 1
                continue
            }
            if byte == UInt8(ascii: "#") { break }
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") {
                if !isQuery {
                    if isDotSegment(url, segmentStart, index) { return nil }
                    segmentStart = index + 1
                    if byte == UInt8(ascii: "?") { isQuery = true }
                }
            } else if byte == UInt8(ascii: "%") {
                guard index + 2 < count, isHexDigit(url[index + 1]), isHexDigit(url[index + 2]) else { return nil }
                // An encoded dot in the path could make a dot segment.
                if !isQuery && url[index + 1] == UInt8(ascii: "2") && url[index + 2] | 0x20 == UInt8(ascii: "e") {
                    return nil
                }
                index += 2
            } else if byte == UInt8(ascii: "'") {
                // Percent-encoded in the query of special URLs.
                if isQuery { return nil }
            } else {
                return nil
            }
            index += 1
        }
        if !isQuery && isDotSegment(url, segmentStart, index) { return nil }
        return CanonicalParts(
            length: index, hostStart: hostStart, hostEnd: hostEnd, authorityEnd: authorityEnd,
            isUpgradable: !isSecure && !hasPort,
            slashInsertion: slashInsertion)
    }

    /// The authority of a URL as host patterns read it: after the scheme's `:` and the slashes
    /// that follow it, up to the next `/`, or to a byte no pattern matches (0 or non-ASCII), or
    /// to the URL's end. Nil when the URL has no `//` after its first `:`, when the scheme is
    /// empty, or when the scheme holds a byte no pattern matches.
    static func authority(_ url: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        let count = url.count
        var index = 0
        while index < count && url[index] != UInt8(ascii: ":") {
            if url[index] == 0 || url[index] >= 0x80 { return nil }
            index += 1
        }
        guard index > 0, index + 2 < count, url[index + 1] == UInt8(ascii: "/"), url[index + 2] == UInt8(ascii: "/")
        else { return nil }
        index += 3
        while index < count && url[index] == UInt8(ascii: "/") { index += 1 }
        let start = index
        while index < count && url[index] != UInt8(ascii: "/") && url[index] != 0 && url[index] < 0x80 { index += 1 }
        return start..<index
    }

    private static func isDotSegment(_ url: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        let length = end - start
        guard length == 1 || length == 2 else { return false }
        return url[start] == UInt8(ascii: ".") && (length == 1 || url[start + 1] == UInt8(ascii: "."))
    }

    @inline(__always) static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

    @inline(__always) private static func isLowercaseLetterOrDigit(_ byte: UInt8) -> Bool {
        byte &- 0x61 < 26 || byte &- 0x30 < 10
    }

    @inline(__always) private static func isLetterOrDigit(_ byte: UInt8) -> Bool { isLowercaseLetterOrDigit(byte) }

    @inline(__always) private static func isHexDigit(_ byte: UInt8) -> Bool {
        byte &- 0x30 < 10 || (byte | 0x20) &- 0x61 < 6
    }

    /// Letters, digits and the punctuation canonicalization never rewrites in a path or query:
    /// unreserved characters, sub-delimiters other than `'`, `:` and `@` (not `/`, `?`, `#`, `%`,
    /// `'`, which the caller looks at).
    @inline(__always) private static func isOrdinary(_ byte: UInt8) -> Bool {
        if byte < 64 { return ordinaryLow & (1 << UInt64(byte)) != 0 }
        if byte < 128 { return ordinaryHigh & (1 << UInt64(byte - 64)) != 0 }
        return false
    }

    /// `0-9 - . ! $ & ( ) * + , ; = :` as bits of the characters 0…63.
    static let ordinaryLow: UInt64 = 0x2fff_7f52_0000_0000
    /// `A-Z a-z _ ~ @` as bits of the characters 64…127.
    static let ordinaryHigh: UInt64 = 0x47ff_fffe_87ff_ffff
}

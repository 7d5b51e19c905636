/// A fast, exact stand-in for the regex WebKit rewrites a plain `if-domain`/`unless-domain` entry
/// into: `[a-z][a-z+.-]*:\/\/` + (`([^/]*\.)*` for `*domain`) + the domain + `[:/]`, searched
/// anywhere in the top URL.
///
/// Only domains made of lowercase letters, digits, `.`, `-` and `_` are handled (they are always
/// valid patterns, so no regex error can be missed); others go through ``URLFilter``.
package struct DomainMatcher: Sendable, Hashable {
    /// The domain without its leading `*`, as bytes.
    let domain: [UInt8]
    /// Whether a leading `*` admits subdomains.
    let allowsSubdomains: Bool
    /// `top-url-filter-is-case-sensitive`: without it, letters match either case.
    let isCaseSensitive: Bool

    init?(_ entry: String, isCaseSensitive: Bool) {
        guard Self.isPlain(entry) else { return nil }
        var bytes = Array(entry.utf8)
        allowsSubdomains = bytes.first == UInt8(ascii: "*")
        if allowsSubdomains { bytes.removeFirst() }
        domain = bytes
        self.isCaseSensitive = isCaseSensitive
    }

    /// Whether the entry (after an optional leading `*`) is a non-empty run of lowercase letters,
    /// digits, `.`, `-` and `_`.
    package static func isPlain(_ entry: String) -> Bool {
        var bytes = entry.utf8[...]
        if bytes.first == UInt8(ascii: "*") { bytes = bytes.dropFirst() }
        guard !bytes.isEmpty else { return false }
        return bytes.allSatisfy { byte in
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2E || byte == 0x2D
                || byte == 0x5F
        }
    }

    /// Whether the regex would find a match in `url`.
    func matches(_ url: String) -> Bool {
        var url = url
        return url.withUTF8 { matches(utf8: $0) }
    }

    func matches(utf8 url: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = url.count
        var colon = 0
        while colon + 2 < count {
            defer { colon += 1 }
            guard url[colon] == UInt8(ascii: ":"), url[colon + 1] == UInt8(ascii: "/"),
                url[colon + 2] == UInt8(ascii: "/")
            else { continue }
            guard hasScheme(before: colon, in: url) else { continue }
            let hostStart = colon + 3
            if !allowsSubdomains {
                if domainFollowedBySeparator(at: hostStart, in: url) { return true }
                continue
            }
            // `([^/]*\.)*`: any run without `/` that is empty or ends with a dot.
            var start = hostStart
            while start <= count {
                if (start == hostStart || url[start - 1] == UInt8(ascii: ".")),
                    domainFollowedBySeparator(at: start, in: url)
                {
                    return true
                }
                guard start < count else { break }
                let byte = url[start]
                if byte == UInt8(ascii: "/") || byte == 0 || byte >= 0x80 { break }
                start += 1
            }
        }
        return false
    }

    /// `[a-z][a-z+.-]*` ends right before `colon`: the run of scheme characters before it holds
    /// at least one letter.
    private func hasScheme(before colon: Int, in url: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = colon - 1
        while index >= 0 {
            let byte = url[index]
            if isLetter(byte) { return true }
            guard byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") else {
                return false
            }
            index -= 1
        }
        return false
    }

    private func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (!isCaseSensitive && byte >= 0x41 && byte <= 0x5A)
    }

    private func domainFollowedBySeparator(at start: Int, in url: UnsafeBufferPointer<UInt8>) -> Bool {
        let end = start + domain.count
        guard end < url.count else { return false }
        for offset in 0..<domain.count {
            var byte = url[start + offset]
            if !isCaseSensitive && byte >= 0x41 && byte <= 0x5A { byte += 32 }
            guard byte == domain[offset] else { return false }
        }
        let separator = url[end]
        return separator == UInt8(ascii: ":") || separator == UInt8(ascii: "/")
    }
}

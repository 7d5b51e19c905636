import ContentRuleList

/// The spelling of a rule's patterns that WebKit compiles faster, for the same loads: the
/// pattern case-sensitive, the letters of its scheme and authority as written (lowercase), and
/// every letter after the authority as both its cases, `[xX]`.
///
/// WebKit reads each letter of a case-insensitive pattern as the set of its two cases; with
/// every url-filter and `if-top-url` entry spelled so, WebKit compiled the lists of apple-tds.json
/// in 0.83–0.86 of the time on WebKitGTK 2.44, 2.50 and 2.54 (BENCHMARKS.md, "Case-sensitive
/// spelling"). The letters that stay single are the scheme's, which WebKit's URL parser lowercases
/// in every URL, and the host's, which it lowercases in every URL of a special scheme (http,
/// https, ws, wss, ftp, file); the path, query and fragment keep their case, and there `[xX]`
/// matches what the case-insensitive letter did. So the spelling changes nothing for a web load.
/// What it changes is a URL whose authority holds a capital letter: the opaque host of another
/// scheme (`myapp://Tracker.com/`), which the Tracker Radar resolver looks up as written and finds
/// no tracker in either (the spelled list now agrees), or a user name the host pattern of an
/// `if-top-url` entry could take for the host, which it now takes only in lowercase.
///
/// A pattern is spelled only where every letter can be: none escaped (`\w`), none in a
/// character class, no capital letter before the authority ends; else the rule keeps its
/// case-insensitive pattern. Domain and frame-URL conditions are left as written.
/// Used where the lists take the host-end layout (``isUsed(for:)``).
enum CaseSensitiveSpelling {
    /// Whether lists for `target` are spelled so: the targets of ``HostEndLayout``.
    static func isUsed(for target: WebKitTarget) -> Bool {
        HostEndLayout.isUsed(for: target)
    }

    /// `rule` spelled case-sensitively, or nil where it stays as it is: its url-filter and its
    /// `if-top-url` or `unless-top-url` entries, each only where all of them can be spelled and
    /// some letter is there to spell.
    static func spelled(_ rule: ContentRule) -> ContentRule? {
        var spelledRule = rule
        var changed = false
        if !rule.trigger.urlFilterIsCaseSensitive, let filter = spelled(rule.trigger.urlFilter) {
            spelledRule.trigger.urlFilter = filter
            spelledRule.trigger.urlFilterIsCaseSensitive = true
            changed = true
        }
        if !rule.trigger.topURLFilterIsCaseSensitive, let condition = rule.trigger.condition, !condition.isDomainList,
            !condition.isOnFrameURL, let entries = spelled(condition.values)
        {
            spelledRule.trigger.condition = condition.isPositive ? .ifTopURL(entries) : .unlessTopURL(entries)
            spelledRule.trigger.topURLFilterIsCaseSensitive = true
            changed = true
        }
        return changed ? spelledRule : nil
    }

    /// The entries spelled, or nil unless every entry can be and one has a letter.
    private static func spelled(_ entries: [String]) -> [String]? {
        var result: [String] = []
        result.reserveCapacity(entries.count)
        var hasLetter = false
        for entry in entries {
            guard let spelling = spelling(of: entry) else { return nil }
            if spelling.hasLetter { hasLetter = true }
            result.append(spelling.pattern)
        }
        return hasLetter ? result : nil
    }

    /// The pattern spelled, or nil where it cannot be or has no letter to spell.
    static func spelled(_ pattern: String) -> String? {
        guard let spelling = spelling(of: pattern), spelling.hasLetter else { return nil }
        return spelling.pattern
    }

    /// The scheme separators after which the authority starts, in the builders' prefixes:
    /// `^[^:]+://+`, `^[^:]+:/+/+` and a scheme's own `://`.
    private static let separators: [[UInt8]] = [Array("://+".utf8), Array(":/+/+".utf8), Array("://".utf8)]

    /// The pattern spelled case-sensitively and whether it has a letter; nil where a letter
    /// cannot be spelled: escaped, in a character class, or a capital before the authority ends.
    ///
    /// The authority ends at the first term after the scheme that can match a `/`: a literal `/`,
    /// `.`, or a class that takes `/` (`[:/]`, `[^:]`). Letters before it can only match the
    /// scheme or the authority of the URL; letters after it may match its path.
    private static func spelling(of pattern: String) -> (pattern: String, hasLetter: Bool)? {
        let bytes = Array(pattern.utf8)
        guard let authorityStart = authorityStart(in: bytes) else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 2)
        var hasLetter = false
        var inAuthority = true
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\") {
                // An escaped letter is a class (`\w`, `\d`…) or a mistake: left alone.
                guard index + 1 < bytes.count, !isLetter(bytes[index + 1]) else { return nil }
                if bytes[index + 1] == UInt8(ascii: "/"), index >= authorityStart { inAuthority = false }
                output += bytes[index...(index + 1)]
                index += 2
                continue
            }
            if byte == UInt8(ascii: "[") {
                guard let (end, takesSlash) = characterClass(in: bytes, from: index) else { return nil }
                // A class with a letter would need its other case added: left alone.
                guard !bytes[index...end].contains(where: isLetter) else { return nil }
                if takesSlash, index >= authorityStart { inAuthority = false }
                output += bytes[index...end]
                index = end + 1
                continue
            }
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "."), index >= authorityStart { inAuthority = false }
            if isLetter(byte) {
                hasLetter = true
                if index < authorityStart || inAuthority {
                    // The scheme and the host are lowercase in the URLs WebKit matches.
                    guard byte >= UInt8(ascii: "a") else { return nil }
                    output.append(byte)
                } else {
                    output += [UInt8(ascii: "["), byte | 0x20, byte & ~0x20, UInt8(ascii: "]")]
                }
            } else {
                output.append(byte)
            }
            index += 1
        }
        return (String(decoding: output, as: UTF8.self), hasLetter)
    }

    /// Where the authority starts: after the first scheme separator of an anchored pattern.
    private static func authorityStart(in bytes: [UInt8]) -> Int? {
        guard bytes.first == UInt8(ascii: "^") else { return nil }
        var index = 1
        while index < bytes.count {
            for separator in separators where bytes[index...].starts(with: separator) {
                return index + separator.count
            }
            // The scheme: letters, `?` (`https?`) or the class `[^:]+`.
            if bytes[index] == UInt8(ascii: "[") {
                guard let (end, _) = characterClass(in: bytes, from: index) else { return nil }
                index = end + 1
                continue
            }
            guard isLetter(bytes[index]) || bytes[index] == UInt8(ascii: "?") || bytes[index] == UInt8(ascii: "+") else {
                return nil
            }
            index += 1
        }
        return nil
    }

    /// The index of the `]` that closes the class opened at `start`, and whether the class
    /// matches a `/`; nil for a class this spelling does not read (empty, or not closed).
    private static func characterClass(in bytes: [UInt8], from start: Int) -> (end: Int, takesSlash: Bool)? {
        var index = start + 1
        let isNegated = index < bytes.count && bytes[index] == UInt8(ascii: "^")
        if isNegated { index += 1 }
        guard index < bytes.count, bytes[index] != UInt8(ascii: "]") else { return nil }
        var listsSlash = false
        while index < bytes.count, bytes[index] != UInt8(ascii: "]") {
            var low = bytes[index]
            if low == UInt8(ascii: "\\") {
                guard index + 1 < bytes.count else { return nil }
                low = bytes[index + 1]
                index += 1
            }
            index += 1
            var high = low
            if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "-"), bytes[index + 1] != UInt8(ascii: "]") {
                high = bytes[index + 1]
                if high == UInt8(ascii: "\\") {
                    guard index + 2 < bytes.count else { return nil }
                    high = bytes[index + 2]
                    index += 1
                }
                index += 2
            }
            if low <= UInt8(ascii: "/") && UInt8(ascii: "/") <= high { listsSlash = true }
        }
        guard index < bytes.count else { return nil }
        return (index, listsSlash != isNegated)
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }
}

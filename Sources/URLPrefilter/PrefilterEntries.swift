public import TrackerDataKit
import TrackerlessCore

/// The entries of a URL filter in the scheme-less form the OS probes (`tracker.example`,
/// `example.com/ads/`), unique and sorted: the same strings go into the Bloom filter and become
/// the PIR keywords.
///
/// Each entry is canonicalized the way the OS writes the sub-URLs it probes: surrounding
/// whitespace and an `http://` or `https://` scheme are dropped, the host is lowercased and
/// IDNA labels become Punycode, a trailing dot and the default ports `:80` and `:443` are
/// removed, and the rest is lowercased with non-ASCII bytes percent-encoded. A host-only entry
/// matches the host, its subdomains and every path on them. A leading `www.` is kept as written
/// (whether shipping systems strip it from requests is not settled; Apple's onboarding entry is
/// `www.apple.com/url-filter-test`).
///
/// ```swift
/// let entries = try PrefilterEntries(lines: "# trackers\nTracker.Example\nhttps://bücher.example/ads/\n", source: "list.txt")
/// entries.entries   // ["tracker.example", "xn--bcher-kva.example/ads/"]
/// ```
public struct PrefilterEntries: Sendable, Hashable {
    /// The canonical entries, unique, in ascending byte order.
    public private(set) var entries: [String]

    /// Entries that are already canonical; they are deduplicated and sorted.
    init(canonical: some Sequence<String>) {
        entries = Array(Set(canonical)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Reads a text list: one entry a line; blank lines and lines starting with `#` are skipped.
    ///
    /// - Parameters:
    ///   - text: the list.
    ///   - source: the file name used in errors, which add the line number (`list.txt:12`).
    /// - Throws: ``PrefilterError/invalidEntry(place:entry:reason:)`` for the first line that is
    ///   not an entry, ``PrefilterError/noEntries(source:)`` when no line is.
    public init(lines text: String, source: String) throws(PrefilterError) {
        var found: [String] = []
        var lineNumber = 0
        // A UTF-8 byte order mark, which some editors write, is not part of the first line.
        // "\r\n" is one Character, so it is a separator of its own.
        for line in text.droppingByteOrderMark().split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            lineNumber += 1
            let trimmed = Self.trimmed(line)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            do throws(EntryError) {
                found.append(try Self.canonicalEntry(trimmed))
            } catch {
                throw .invalidEntry(place: "\(source):\(lineNumber)", entry: String(trimmed), reason: error.reason)
            }
        }
        guard !found.isEmpty else { throw .noEntries(source: source) }
        self.init(canonical: found)
    }

    /// Entries given one by one; errors name `source` and the entry's index (`source[3]`).
    ///
    /// - Throws: ``PrefilterError/invalidEntry(place:entry:reason:)`` or
    ///   ``PrefilterError/noEntries(source:)``.
    public init(_ entries: some Sequence<String>, source: String = "entries") throws(PrefilterError) {
        var found: [String] = []
        for (index, entry) in entries.enumerated() {
            do throws(EntryError) {
                found.append(try Self.canonicalEntry(Self.trimmed(Substring(entry))))
            } catch {
                throw .invalidEntry(place: "\(source)[\(index)]", entry: entry, reason: error.reason)
            }
        }
        guard !found.isEmpty else { throw .noEntries(source: source) }
        self.init(canonical: found)
    }

    /// The hosts a tracker blocker blocks outright: every tracker whose `default` is `block`,
    /// and every CNAME-cloaked host whose target belongs to such a tracker.
    ///
    /// A URL filter matches exact keywords, so what depends on the page or on a rule's regular
    /// expression cannot be expressed: trackers whose default is `ignore` (they block only by
    /// rule) are left out, and the `ignore` rules and exceptions of blocked trackers are lost;
    /// the filter blocks such a tracker's host everywhere.
    ///
    /// - Parameters:
    ///   - trackerData: the Tracker Radar data.
    ///   - source: the file name used in errors (`tds.json: trackers["bad host"]`).
    /// - Throws: ``PrefilterError/invalidEntry(place:entry:reason:)`` for a tracker or CNAME key
    ///   that is not a host, ``PrefilterError/noEntries(source:)`` when nothing is blocked.
    public init(trackerData: TrackerData, source: String = "tds.json") throws(PrefilterError) {
        var found: [String] = []
        for (domain, tracker) in trackerData.trackers where tracker.defaultAction == .block {
            found.append(try Self.hostEntry(domain, place: "\(source): trackers[\(Self.quoted(domain))]"))
        }
        for (host, target) in trackerData.cnames {
            guard trackerData.tracker(forHost: target)?.defaultAction == .block else { continue }
            found.append(try Self.hostEntry(host, place: "\(source): cnames[\(Self.quoted(host))]"))
        }
        guard !found.isEmpty else { throw .noEntries(source: source) }
        self.init(canonical: found)
    }

    /// The number of entries.
    public var count: Int { entries.count }

    // MARK: Canonical form

    struct EntryError: Error {
        var reason: String
    }

    private static func hostEntry(_ host: String, place: String) throws(PrefilterError) -> String {
        do throws(EntryError) {
            let entry = try canonicalEntry(Substring(host))
            guard !entry.contains("/"), !entry.contains(":") else { throw EntryError(reason: "expected a host name") }
            return entry
        } catch {
            throw .invalidEntry(place: place, entry: host, reason: error.reason)
        }
    }

    /// The canonical form of one trimmed, non-empty entry.
    static func canonicalEntry(_ entry: Substring) throws(EntryError) -> String {
        var rest = entry
        if let schemeEnd = rest.range(of: "://") {
            let scheme = rest[..<schemeEnd.lowerBound].lowercased()
            guard scheme == "http" || scheme == "https" else {
                throw EntryError(reason: "only http and https URLs are filtered; write the entry without a scheme")
            }
            rest = rest[schemeEnd.upperBound...]
        }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        let tail = rest[authorityEnd...]
        guard !authority.isEmpty else { throw EntryError(reason: "an entry must start with a host name") }
        guard !authority.contains("@") else {
            throw EntryError(reason: "user names and passwords are not part of the URLs the OS probes")
        }

        var hostText = authority
        var port: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw EntryError(reason: "unterminated IPv6 address") }
            hostText = authority[...close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw EntryError(reason: "unexpected text after the IPv6 address") }
                port = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            hostText = authority[..<colon]
            port = authority[authority.index(after: colon)...]
        }

        let host = try canonicalHost(hostText)
        var result = host
        if let port {
            guard !port.isEmpty, port.utf8.count <= 5, port.allSatisfy(\.isASCIIDigit), let number = Int(port),
                  number <= 65535
            else {
                throw EntryError(reason: "the port must be a number from 0 to 65535")
            }
            // The OS generates the sub-URLs with and without the default port.
            if number != 80 && number != 443 { result += ":\(number)" }
        }
        result += try canonicalTail(tail)
        return result
    }

    private static func canonicalHost(_ text: Substring) throws(EntryError) -> String {
        if text.hasPrefix("[") {
            let inner = text.dropFirst().dropLast()
            guard !inner.isEmpty, inner.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                throw EntryError(reason: "invalid IPv6 address")
            }
            return text.lowercased()
        }
        guard var host = String(text).punycodeEncodedDomain else {
            throw EntryError(reason: "the host cannot be converted to Punycode")
        }
        if host.hasSuffix(".") { host.removeLast() }
        guard !host.isEmpty else { throw EntryError(reason: "an entry must start with a host name") }
        guard host.utf8.count <= 253 else { throw EntryError(reason: "the host is longer than 253 characters") }
        for label in host.split(separator: ".", omittingEmptySubsequences: false) {
            guard !label.isEmpty else { throw EntryError(reason: "the host has an empty label") }
            guard label.utf8.count <= 63 else { throw EntryError(reason: "a label of the host is longer than 63 characters") }
            for byte in label.utf8 {
                let isAllowed = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
                guard isAllowed else {
                    if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
                        throw EntryError(reason: "a space is not allowed in an entry")
                    }
                    throw EntryError(reason: "the host contains \(characterName(byte)), which is not allowed in a host name")
                }
            }
        }
        return host
    }

    /// Path, query and fragment: lowercased, non-ASCII percent-encoded, spaces and controls refused.
    private static func canonicalTail(_ tail: Substring) throws(EntryError) -> String {
        let hexDigits = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(tail.utf8.count)
        var escapeDigitsLeft = 0
        for byte in tail.utf8 {
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
                throw EntryError(reason: "a space is not allowed in an entry; percent-encode it as %20")
            }
            if byte < 0x20 || byte == 0x7F { throw EntryError(reason: "control characters are not allowed in an entry") }
            if byte >= 0x80 {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
                escapeDigitsLeft = 0
                continue
            }
            if escapeDigitsLeft > 0 {
                // Hex digits of an escape stay uppercase, as percent-encoding writes them.
                escapeDigitsLeft -= 1
                bytes.append((UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte) ? byte - 0x20 : byte)
                continue
            }
            if byte == UInt8(ascii: "%") { escapeDigitsLeft = 2 }
            bytes.append((UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func characterName(_ byte: UInt8) -> String {
        byte < 0x20 || byte == 0x7F ? "a control character" : "\"\(Character(Unicode.Scalar(byte)))\""
    }

    private static func trimmed(_ line: Substring) -> Substring {
        var line = line
        while let first = line.first, first.isWhitespace { line.removeFirst() }
        while let last = line.last, last.isWhitespace { line.removeLast() }
        return line
    }

    private static func quoted(_ text: String) -> String {
        JSONValue.string(text.excerpt()).jsonString()
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

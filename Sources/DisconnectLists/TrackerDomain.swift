import TrackerlessCore

/// One entry of a Disconnect category list: a tracker's domain, sometimes with a path
/// (`yandex.ru/clck/click`), which covers the domain's subdomains too.
///
/// Entries are lowercase ASCII; ``init(_:)`` lowercases and rejects anything that is not a host
/// name with at least two labels.
public struct TrackerDomain: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The host, lowercase, for example `doubleclick.net`.
    public let host: String
    /// The path prefix including its leading `/`, or nil for a whole domain.
    public let path: String?
    /// The entry as written, kept so that sorting does not build strings.
    private let text: String

    /// Reads an entry such as `tracker.example` or `tracker.example/pixel`; nil when the host is
    /// not a plain domain name (letters, digits, `-` and `_` in two or more dot-separated labels)
    /// or the path has spaces, controls, non-ASCII or `#`.
    public init?(_ text: String) {
        // Lists are lowercase and mostly without paths: then no new string is made.
        var entry = text
        if entry.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) {
            entry = entry.lowercased()
        }
        guard let slash = entry.utf8.firstIndex(of: UInt8(ascii: "/")) else {
            guard Self.isDomainName(Substring(entry)) else { return nil }
            host = entry
            path = nil
            self.text = entry
            return
        }
        let rest = entry[slash...]
        guard Self.isDomainName(entry[..<slash]),
            rest.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "#") })
        else { return nil }
        host = String(entry[..<slash])
        path = rest == "/" ? nil : String(rest)
        self.text = host + (path ?? "")
    }

    /// The entry as written in the lists, `host` or `host/path`.
    public var description: String { text }

    /// Entries are equal when their text is (host and path follow from it).
    public static func == (lhs: TrackerDomain, rhs: TrackerDomain) -> Bool {
        lhs.text == rhs.text
    }

    /// Hashes the text only.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(text)
    }

    /// Orders entries by their text, so that generated lists are sorted like the normalized lists.
    public static func < (lhs: TrackerDomain, rhs: TrackerDomain) -> Bool {
        lhs.text < rhs.text
    }

    /// Whether `candidate` is this entry's host or one of its subdomains.
    func covers(host candidate: String) -> Bool {
        candidate == host
            || (candidate.hasSuffix(host) && candidate.utf8.dropLast(host.utf8.count).last == UInt8(ascii: "."))
    }

    /// Whether `text` is a domain name of two or more labels of `[a-z0-9_-]`.
    static func isDomainName(_ text: Substring) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 253 else { return false }
        var labels = 0
        var labelLength = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "."):
                guard labelLength > 0 else { return false }
                labels += 1
                labelLength = 0
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"):
                labelLength += 1
                guard labelLength <= 63 else { return false }
            default:
                return false
            }
        }
        return labelLength > 0 && labels >= 1
    }
}

import TrackerDataKit

import TrackerlessCore

/// Domain names as WebKit's `if-domain` wants them: lowercase ASCII, IDNs in punycode.
enum SiteDomain {
    /// The lowercase punycode form of a domain from tracker data or a configuration
    /// (``DomainName/normalized(_:)``, without a leading `*.`); nil when it is not a usable host
    /// name (WebKit would reject the whole list for it).
    static func normalized(_ domain: String) -> String? {
        if isUsable(domain) { return domain }
        var name = Substring(domain)
        if name.utf8.starts(with: [UInt8(ascii: "*"), UInt8(ascii: ".")]) { name = name.dropFirst(2) }
        let normalized = DomainName.normalized(String(name))
        return isUsable(normalized) ? normalized : nil
    }

    /// Whether `domain` is a normalized host name WebKit takes in `if-domain`: letters, digits,
    /// `-`, `_` and dots, no empty label, no final dot.
    private static func isUsable(_ domain: String) -> Bool {
        var domain = domain
        return domain.withUTF8 { bytes in
            guard !bytes.isEmpty, bytes[bytes.count - 1] != UInt8(ascii: ".") else { return false }
            var previous = UInt8(ascii: ".")
            for byte in bytes {
                let allowed = (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                    || byte == 0x2D || byte == 0x2E || byte == 0x5F
                guard allowed, !(byte == 0x2E && previous == 0x2E) else { return false }
                previous = byte
            }
            return true
        }
    }
}

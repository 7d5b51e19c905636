import TrackerlessCore

/// Domain names as WebKit's `if-domain` wants them: lowercase ASCII, IDNs in punycode.
enum SiteDomain {
    /// The lowercase punycode form of a domain from tracker data or a configuration; nil when it
    /// is not a usable host name (WebKit would reject the whole list for it).
    static func normalized(_ domain: String) -> String? {
        var candidate = domain.hasPrefix("*.") ? String(domain.dropFirst(2)) : domain
        if candidate.hasSuffix(".") { candidate.removeLast() }
        guard !candidate.isEmpty else { return nil }
        let ascii: String
        if candidate.utf8.allSatisfy({ $0 < 0x80 }) {
            ascii = candidate.lowercased()
        } else {
            guard let encoded = candidate.punycodeEncodedDomain else { return nil }
            ascii = encoded
        }
        let allowed = ascii.utf8.allSatisfy { byte in
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x2E || byte == 0x5F
        }
        guard allowed, !ascii.hasPrefix("."), !ascii.contains("..") else { return nil }
        return ascii
    }

    /// Whether `domain` is `parent` or one of its subdomains.
    static func isDomain(_ domain: String, within parent: String) -> Bool {
        domain == parent || domain.hasSuffix("." + parent)
    }
}

import TrackerDataKit

/// A site the user toggles: a host name (labels of letters, digits, `-` and `_`, at most 253
/// bytes, an internationalized name in its punycode form) or an IP address, lowercased and
/// without a leading `www.` (`DomainName.toggleDomain(_:)`, through the user allowlist).
struct SiteHost: Hashable {
    /// The normalized host.
    let name: String

    /// What a site must be, for error messages.
    static let requirement = "not a host name or IP address (give the host alone, as www.example.com, not a URL)"

    /// The host `text` names, or nil when it is not one.
    init?(_ text: String) {
        guard text.utf8.count <= 1024 else { return nil }
        let host = UserAllowlist(domains: [text]).domains.first ?? ""
        guard Self.isHostName(host) || Self.isIPv6Literal(host) else { return nil }
        name = host
    }

    /// Dot-separated labels of 1–63 bytes of `a-z`, `0-9`, `-` and `_`, 253 bytes at most
    /// (dotted IPv4 addresses are such names too), with or without a final dot.
    private static func isHostName(_ host: String) -> Bool {
        let name = host.hasSuffix(".") ? host.utf8.dropLast() : host.utf8[...]
        guard (1...253).contains(name.count) else { return false }
        return name.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).allSatisfy { label in
            (1...63).contains(label.count)
                && label.allSatisfy { byte in
                    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                        || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
                }
        }
    }

    /// `[` hex digits, colons and dots `]`, as URLs write IPv6 hosts.
    private static func isIPv6Literal(_ host: String) -> Bool {
        let bytes = Array(host.utf8)
        guard bytes.count >= 4, bytes.count <= 47, bytes.first == UInt8(ascii: "["), bytes.last == UInt8(ascii: "]") else { return false }
        return bytes.dropFirst().dropLast().allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".")
        }
    }
}

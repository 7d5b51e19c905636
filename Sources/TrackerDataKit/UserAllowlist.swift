import TrackerlessCore

/// The sites on which the user turned protection off: a JSON array of domains, as in
/// user-allowlist-reference.json.
///
/// A domain covers exactly that host, not its subdomains, as in DuckDuckGo's browsers (the user
/// turns protection off for the site in the address bar).
public struct UserAllowlist: Sendable, Hashable {
    /// The hosts, lowercased.
    public var domains: Set<String>

    /// Creates an allowlist of `domains`.
    public init(domains: [String] = []) {
        self.domains = Set(domains.map(DomainName.normalized))
    }

    /// Reads a JSON array of domain strings.
    public init(parsing bytes: [UInt8], file: String? = nil) throws(TrackerDataError) {
        self = try TrackerDataError.reading(bytes, file: file) { (reader) throws(JSONReadError) in
            UserAllowlist(domains: try reader.readStringArray(at: .root))
        }
    }

    /// Whether protection is off on pages of exactly `host`.
    public func contains(host: String) -> Bool {
        domains.contains(DomainName.normalized(host))
    }
}

import TrackerlessCore

/// The domains on which the user turned protection off: a JSON array of domains, as in
/// user-allowlist-reference.json.
///
/// A domain is what DuckDuckGo's protections toggle names (`DomainName.toggleDomain(_:)`):
/// the host in the address bar, `www.example.com` the same as `example.com`, and no other
/// subdomain (`shop.example.com` is a domain of its own). Firefox's allowlist, whose sites cover
/// their subdomains, is DisconnectLists' `SiteAllowlist`.
public struct UserAllowlist: Sendable, Hashable {
    /// The domains, each in `DomainName.toggleDomain(_:)`'s form.
    public var domains: Set<String>

    /// Creates an allowlist of `domains` (hosts; a leading `www.` is dropped).
    public init(domains: [String] = []) {
        self.domains = Set(domains.map(DomainName.toggleDomain))
    }

    /// Reads a JSON array of domain strings.
    public init(parsing bytes: [UInt8], file: String? = nil) throws(TrackerDataError) {
        self = try TrackerDataError.reading(bytes, file: file) { (reader) throws(JSONReadError) in
            UserAllowlist(domains: try reader.readStringArray(at: .root))
        }
    }

    /// Whether protection is off on pages of `host`: a listed domain covers it.
    public func contains(host: String) -> Bool {
        domain(covering: host) != nil
    }

    /// The listed domain that covers `host`: `host` itself, or `host` without its leading `www.`;
    /// nil when none does. A domain covers exactly ``hosts``' two forms of it.
    public func domain(covering host: String) -> String? {
        let name = DomainName.normalized(host)
        if domains.contains(name) { return name }
        let domain = DomainName.toggleDomain(name)
        return domains.contains(domain) ? domain : nil
    }

    /// Every exact host the domains cover (each domain and its `www.` form), sorted: for what
    /// matches hosts exactly, such as a rule list's `if-top-url` or the scripts' data.
    public var hosts: [String] {
        domains.flatMap(DomainName.toggleHosts).sorted()
    }
}

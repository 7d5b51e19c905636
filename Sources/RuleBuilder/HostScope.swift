import TrackerData

/// The request hosts that one section of the rule list is about: a tracker's domain with its
/// subdomains, or one CNAME-cloaked host whose requests really go to a tracker.
struct HostScope: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        /// `domain` and every subdomain of it (a Tracker Radar tracker entry).
        case tracker(domain: String)
        /// Exactly `host`, a first-party name whose DNS CNAME points at `target`.
        case cloaked(host: String, target: String)
    }

    let kind: Kind
    /// The url-filter prefix up to and including the host.
    let hostPattern: String
    /// The url-filter that matches every URL of the scope (and only those, for hosts without
    /// userinfo).
    let anchor: String

    /// The scheme and authority up to the host, shared by all url-filters of the list so that
    /// WebKit's prefix tree merges them (webkit.org/blog/4062).
    static let schemePrefix = #"^[^:]+://+"#
    /// Any subdomain labels in front of a domain.
    static let subdomainPrefix = #"([^:/]+\.)?"#
    /// An optional explicit port; Tracker Radar rules are matched with the port removed.
    static let optionalPort = #"(:[0-9]+)?"#

    private init(kind: Kind, hostPattern: String) {
        self.kind = kind
        self.hostPattern = hostPattern
        self.anchor = hostPattern + "[:/]"
    }

    /// `domain` and its subdomains.
    static func tracker(domain: String) -> HostScope {
        HostScope(kind: .tracker(domain: domain), hostPattern: hostPattern(domain, prefix: trackerPrefix))
    }

    /// What comes before a tracker's escaped domain, as bytes.
    private static let trackerPrefix = Array((schemePrefix + subdomainPrefix).utf8)
    /// What comes before a cloaked host, as bytes.
    private static let cloakedPrefix = Array(schemePrefix.utf8)

    /// `prefix` and the escaped host written into one buffer: a scope is made for every tracker.
    private static func hostPattern(_ host: String, prefix: [UInt8]) -> String {
        var pattern: [UInt8] = []
        pattern.reserveCapacity(prefix.count + host.utf8.count + 8)
        pattern += prefix
        TrackerRuleRegex.appendEscapedDomain(host, to: &pattern)
        return String(decoding: pattern, as: UTF8.self)
    }

    /// Exactly `host`, cloaking `target`.
    static func cloaked(host: String, target: String) -> HostScope {
        HostScope(kind: .cloaked(host: host, target: target),
                  hostPattern: hostPattern(host, prefix: cloakedPrefix))
    }

    /// Whether the requests of this scope can be same-site with the page and still be blocked:
    /// a cloaked host is usually a subdomain of the very site that loads it.
    var blocksFirstPartyLoads: Bool {
        if case .cloaked = kind { return true }
        return false
    }
}

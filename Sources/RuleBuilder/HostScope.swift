import TrackerDataKit

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
    /// The url-filter prefix up to and including the host and its optional final dot.
    let hostPattern: String
    /// The url-filter that matches every URL of the scope, and only those: the host pattern, then
    /// an optional port and the `/` that starts every path of an http(s) or ws(s) URL.
    let anchor: String

    /// The scheme and the slashes up to the authority, shared by all url-filters of the list so
    /// that WebKit's prefix tree merges them (webkit.org/blog/4062).
    static let schemePrefix = #"^[^:]+://+"#
    /// Any subdomain labels in front of a domain, or the userinfo (`user:password@`, which
    /// WebKit keeps in the URL it matches) in front of the domain or its subdomains. It has no
    /// quantified term of its own per rule, so it stays in the prefix that all rules share.
    static let subdomainPrefix = #"([^/]+[.@])?"#
    /// The userinfo in front of an exact host.
    static let userinfoPrefix = #"([^/]*@)?"#
    /// The final dot of a fully qualified host name (`tracker.com.`), which WebKit keeps.
    static let finalDot = #"\.?"#
    /// An optional explicit port; Tracker Radar rules are matched with the port removed.
    static let optionalPort = #"(:[0-9]+)?"#
    /// What ends the host: a port or the path. A bare `[:/]` would also take the `:` that ends
    /// the user name in `https://tracker.com:pw@evil.com/` for the end of the host.
    static let hostEnd = optionalPort + "/"

    private init(kind: Kind, hostPattern: String) {
        self.kind = kind
        self.hostPattern = hostPattern
        self.anchor = hostPattern + Self.hostEnd
    }

    /// `domain` and its subdomains, with or without userinfo and the final dot.
    static func tracker(domain: String) -> HostScope {
        HostScope(kind: .tracker(domain: domain), hostPattern: hostPattern(domain, prefix: trackerPrefix))
    }

    /// What comes before a tracker's escaped domain, as bytes.
    private static let trackerPrefix = Array((schemePrefix + subdomainPrefix).utf8)
    /// What comes before a cloaked host, as bytes.
    private static let cloakedPrefix = Array((schemePrefix + userinfoPrefix).utf8)
    private static let finalDotBytes = Array(finalDot.utf8)

    /// `prefix` and the escaped host written into one buffer: a scope is made for every tracker.
    private static func hostPattern(_ host: String, prefix: [UInt8]) -> String {
        var pattern: [UInt8] = []
        pattern.reserveCapacity(prefix.count + host.utf8.count + 8)
        pattern += prefix
        TrackerRuleRegex.appendEscapedDomain(host, to: &pattern)
        pattern += finalDotBytes
        return String(decoding: pattern, as: UTF8.self)
    }

    /// Exactly `host` (with or without userinfo and the final dot), cloaking `target`.
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

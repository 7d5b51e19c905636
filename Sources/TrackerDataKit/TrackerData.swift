public import TrackerlessCore

/// DuckDuckGo's Tracker Radar blocklist (tds.json): trackers, the companies behind them, which
/// company owns which domain, and CNAME-cloaked hosts.
///
/// ```swift
/// let tds = try TrackerData(parsing: FileIO.read(path: "tds.json"), file: "tds.json")
/// tds.tracker(forHost: "www.google-analytics.com")?.domain   // "google-analytics.com"
/// tds.entity(forHost: "youtube.com")?.name                   // "Google LLC"
/// ```
///
/// Keys of ``trackers``, ``domains`` and ``cnames`` are lowercased when parsed, so the lookups
/// take the lowercase hosts of `CanonicalURL`.
public struct TrackerData: Sendable, Hashable {
    /// Trackers by domain.
    public var trackers: [String: Tracker]
    /// Entities (companies) by name.
    public var entities: [String: Entity]
    /// Property domain to the name of the entity that owns it.
    public var domains: [String: String]
    /// Cloaked first-party host to the host its DNS CNAME points at.
    public var cnames: [String: String]
    /// The `_builtWith` object (source commits), kept as found.
    public var builtWith: JSONValue?
    /// The `readme` field, kept as found.
    public var readme: String?
    /// Entries that were kept but will be skipped, such as rules with an unknown action.
    public var warnings: [InputWarning]

    /// Creates tracker data from its parts.
    public init(
        trackers: [String: Tracker] = [:],
        entities: [String: Entity] = [:],
        domains: [String: String] = [:],
        cnames: [String: String] = [:],
        builtWith: JSONValue? = nil,
        readme: String? = nil,
        warnings: [InputWarning] = []
    ) {
        self.trackers = trackers
        self.entities = entities
        self.domains = domains
        self.cnames = cnames
        self.builtWith = builtWith
        self.readme = readme
        self.warnings = warnings
    }

    /// The tracker whose domain is `host` or the nearest parent of it.
    public func tracker(forHost host: String) -> Tracker? {
        DomainName.firstSuffix(of: host) { trackers[$0] }
    }

    /// The entity owning `host` or its nearest listed parent domain.
    public func entity(forHost host: String) -> Entity? {
        entityName(forHost: host).flatMap { entities[$0] }
    }

    /// The name of the entity owning `host` or its nearest listed parent, even when the entity
    /// itself is missing from ``entities``.
    public func entityName(forHost host: String) -> String? {
        DomainName.firstSuffix(of: host) { domains[$0] }
    }

    /// The CNAME target of exactly `host`; subdomains of a cloaked host are not cloaked.
    public func cname(forHost host: String) -> String? {
        cnames[host]
    }
}

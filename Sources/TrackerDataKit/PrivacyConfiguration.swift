import Foundation
public import TrackerlessCore

/// DuckDuckGo's remote privacy configuration: which protections are on, and the sites and
/// requests each one leaves alone.
///
/// ```swift
/// let config = try PrivacyConfiguration(parsing: bytes, file: "config.json")
/// config.isFeatureEnabled("contentBlocking", forSiteHost: "shop.example.com")
/// ```
///
/// A feature is enabled for a site when it is present with state `enabled`, the site is not in
/// ``unprotectedTemporary``, and the site is not in the feature's `exceptions`; exception domains
/// cover their subdomains. A feature missing from the configuration is disabled.
public struct PrivacyConfiguration: Sendable, Hashable {
    /// The `version` number (a timestamp in real files).
    public var version: Double?
    /// The `readme` text.
    public var readme: String?
    /// Features by name, such as `contentBlocking`, `trackerAllowlist`, `requestBlocklist`.
    public var features: [String: Feature]
    /// Sites on which every protection is off for now (each also covers its subdomains).
    public var unprotectedTemporary: [Exception]
    /// The `trackerAllowlist` feature's `settings.allowlistedTrackers`, read when parsing.
    public var trackerAllowlist: TrackerAllowlist
    /// The `requestBlocklist` feature's `settings.blockedRequests`, read when parsing.
    public var requestBlocklist: RequestBlocklist
    /// Entries that were dropped while parsing, with their JSON paths.
    public var warnings: [InputWarning]

    /// Creates a configuration from its parts.
    public init(
        version: Double? = nil,
        readme: String? = nil,
        features: [String: Feature] = [:],
        unprotectedTemporary: [Exception] = [],
        trackerAllowlist: TrackerAllowlist = TrackerAllowlist(),
        requestBlocklist: RequestBlocklist = RequestBlocklist(),
        warnings: [InputWarning] = []
    ) {
        self.version = version
        self.readme = readme
        self.features = features
        self.unprotectedTemporary = unprotectedTemporary
        self.trackerAllowlist = trackerAllowlist
        self.requestBlocklist = requestBlocklist
        self.warnings = warnings
    }

    /// A site listed as an exception, with why.
    public struct Exception: Sendable, Hashable {
        /// The site domain; it also covers its subdomains.
        public var domain: String
        /// Why the site is excepted.
        public var reason: String?

        /// Creates an exception.
        public init(domain: String, reason: String? = nil) {
            self.domain = domain
            self.reason = reason
        }
    }

    /// One protection's entry in `features`.
    public struct Feature: Sendable, Hashable {
        /// The `state`; only ``State-swift.enum/enabled`` turns the feature on.
        public var state: State
        /// Sites on which the feature is off (each also covers its subdomains).
        public var exceptions: [Exception]
        /// The feature-specific `settings`, kept as the text found in the document: each reader
        /// of the feature reads what it understands with a `JSONReader` (`JSONText.read(_:)`).
        public var settingsText: JSONText?
        /// The feature-specific `settings` as a tree, built on demand from ``settingsText``.
        public var settings: JSONValue? {
            get { settingsText?.value }
            set { settingsText = newValue.map(JSONText.init) }
        }
        /// The `minSupportedVersion`, kept as found (a string or a number).
        public var minSupportedVersion: JSONValue?
        /// The `hash` of the feature's entry, when given.
        public var hash: String?
        /// Sub-features by name, from `features`.
        public var features: [String: Feature]

        /// Creates a feature.
        public init(
            state: State, exceptions: [Exception] = [], settings: JSONValue? = nil,
            minSupportedVersion: JSONValue? = nil, hash: String? = nil, features: [String: Feature] = [:]
        ) {
            self.state = state
            self.exceptions = exceptions
            self.settingsText = settings.map(JSONText.init)
            self.minSupportedVersion = minSupportedVersion
            self.hash = hash
            self.features = features
        }

        /// A feature's `state`.
        public enum State: Sendable, Hashable {
            /// On.
            case enabled
            /// Off.
            case disabled
            /// Any other value, such as `internal` or `preview`: off for an SDK.
            case other(String)

            /// Reads the configuration spelling.
            public init(rawValue: String) {
                switch rawValue {
                case "enabled": self = .enabled
                case "disabled": self = .disabled
                default: self = .other(rawValue)
                }
            }

            /// The configuration spelling.
            public var rawValue: String {
                switch self {
                case .enabled: "enabled"
                case .disabled: "disabled"
                case .other(let value): value
                }
            }
        }
    }

    /// The names of the features this module acts on.
    public enum FeatureName {
        /// Tracker blocking.
        public static let contentBlocking = "contentBlocking"
        /// Requests excepted from tracker blocking.
        public static let trackerAllowlist = "trackerAllowlist"
        /// Requests blocked regardless of Tracker Radar.
        public static let requestBlocklist = "requestBlocklist"
        /// Embeds (`block-ctl-*` rules) blocked until the user clicks to load them.
        public static let clickToLoad = "clickToLoad"
    }

    /// The `contentBlocking` feature (tracker blocking), if present.
    public var contentBlocking: Feature? { features[FeatureName.contentBlocking] }

    /// Whether tracker blocking is on at all (`contentBlocking` present with state `enabled`).
    public var isContentBlockingEnabled: Bool { contentBlocking?.state == .enabled }

    /// The sites where tracker blocking is off: `unprotectedTemporary` plus the
    /// `contentBlocking` exceptions, normalized, without duplicates, sorted. Each covers its
    /// subdomains. The user allowlist is separate (``UserAllowlist``, exact hosts).
    public var contentBlockingExceptionDomains: [String] {
        let domains = unprotectedTemporary.map(\.domain) + (contentBlocking?.exceptions.map(\.domain) ?? [])
        return Set(domains.map(DomainName.normalized)).sorted()
    }

    /// Whether `host` is `unprotectedTemporary` (or a subdomain of such a site).
    public func isTemporarilyUnprotected(host: String) -> Bool {
        unprotectedTemporary.contains { DomainName.host(host, isWithin: $0.domain) }
    }

    /// Whether the feature `name` is on for pages of `host`.
    public func isFeatureEnabled(_ name: String, forSiteHost host: String) -> Bool {
        featureOff(name, forSiteHost: host) == nil
    }

    /// Whether the feature `name` is on for a page at `topURL`, optionally for a frame or a
    /// script in it.
    ///
    /// Beyond ``isFeatureEnabled(_:forSiteHost:)``: in an `about:blank` frame the feature is off
    /// when its `settings.aboutBlankEnabled` is `"disabled"` or the site is in
    /// `settings.aboutBlankSites`; for a script whose URL matches a regular expression in
    /// `settings.scripts[].domain` it is off too.
    public func isFeatureEnabled(
        _ name: String, forTopURL topURL: CanonicalURL, frameURL: CanonicalURL? = nil,
        scriptURL: CanonicalURL? = nil
    ) -> Bool {
        guard isFeatureEnabled(name, forSiteHost: topURL.host) else { return false }
        guard let settings = features[name]?.settingsText, settings.kind == .object else { return true }
        if let frameURL, frameURL.scheme == "about" {
            if settings.member("aboutBlankEnabled")?.string == "disabled" { return false }
            if Self.domains(in: settings.member("aboutBlankSites")).contains(where: {
                DomainName.host(topURL.host, isWithin: $0)
            }) {
                return false
            }
        }
        if let scriptURL {
            let url = scriptURL.stringWithoutFragment
            for pattern in Self.domains(in: settings.member("scripts")) where ScriptPatternCache.pattern(pattern, matches: url) {
                return false
            }
        }
        return true
    }

    /// The `domain` strings of an array of `{domain, reason}` objects (and the plain strings,
    /// when `plainStrings`); anything else is skipped.
    static func domains(in value: JSONText?, plainStrings: Bool = false) -> [String] {
        guard let value else { return [] }
        return value.elements.compactMap { element in
            if plainStrings, let domain = element.string { return domain }
            return element.member("domain")?.string
        }
    }
}

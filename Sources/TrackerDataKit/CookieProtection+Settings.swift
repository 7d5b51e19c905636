import TrackerlessCore

extension CookieProtection {
    /// The privacy configuration's cookie feature, reduced to what the decisions need.
    ///
    /// DuckDuckGo's configurations name the feature two ways. The current one is `cookie`, on
    /// when its state is `enabled` and `settings.trackerCookie` is `"enabled"`. The older one is
    /// `trackingCookies3p`, on when its state is `enabled`. When `cookie` is present it decides;
    /// otherwise `trackingCookies3p` does; with neither the protection is off. Both keep their
    /// `settings.excludedCookieDomains` as `[{domain, reason}]`.
    public struct Settings: Sendable, Hashable {
        /// The current feature name.
        public static let featureName = "cookie"
        /// The older feature name, still in the reference configurations.
        public static let legacyFeatureName = "trackingCookies3p"

        /// The feature that decides, or nil without a configuration (protection on everywhere).
        public var decidingFeature: String?
        /// Whether tracker cookies are blocked at all.
        public var isEnabled: Bool
        /// Sites where the protection is off: the feature's `exceptions` and the configuration's
        /// `unprotectedTemporary`, lowercase, sorted, each covering its subdomains.
        public var unprotectedDomains: [String]
        /// Request hosts whose cookies are always kept, each covering its subdomains.
        public var excludedCookieDomains: [String]

        /// Settings from their parts.
        public init(
            decidingFeature: String? = nil, isEnabled: Bool = true, unprotectedDomains: [String] = [],
            excludedCookieDomains: [String] = []
        ) {
            self.decidingFeature = decidingFeature
            self.isEnabled = isEnabled
            self.unprotectedDomains = unprotectedDomains
            self.excludedCookieDomains = excludedCookieDomains
        }

        /// Reads the cookie feature of `configuration`; nil means on everywhere.
        public init(configuration: PrivacyConfiguration?) {
            guard let configuration else {
                self.init()
                return
            }
            let name: String
            let feature: PrivacyConfiguration.Feature
            if let current = configuration.features[Self.featureName] {
                name = Self.featureName
                feature = current
            } else if let legacy = configuration.features[Self.legacyFeatureName] {
                name = Self.legacyFeatureName
                feature = legacy
            } else {
                self.init(decidingFeature: nil, isEnabled: false)
                return
            }
            let settings = feature.settingsText
            var isEnabled = feature.state == .enabled
            if name == Self.featureName {
                // DuckDuckGo's extension blocks tracker cookies only when this reads "enabled".
                if settings?.member("trackerCookie")?.string != "enabled" { isEnabled = false }
            }
            let unprotected = (configuration.unprotectedTemporary + feature.exceptions).map(\.domain)
            self.init(
                decidingFeature: name,
                isEnabled: isEnabled,
                unprotectedDomains: Self.normalized(unprotected),
                excludedCookieDomains: Self.normalized(PrivacyConfiguration.domains(
                    in: settings?.member("excludedCookieDomains"), plainStrings: true)))
        }

        private static func normalized(_ domains: [String]) -> [String] {
            Set(domains.map(DomainName.normalized).filter { !$0.isEmpty }).sorted()
        }
    }
}

import TrackerlessCore

extension PrivacyConfiguration {
    /// The entry of a privacy configuration that turns a feature off for a site: what
    /// ``PrivacyConfiguration/featureOff(_:forSiteHost:)`` finds, in the order
    /// ``PrivacyConfiguration/isFeatureEnabled(_:forSiteHost:)`` looks.
    public enum FeatureOff: Sendable, Hashable {
        /// The feature is missing (`state` nil) or its `state` is not `enabled`.
        case featureNotEnabled(feature: String, state: Feature.State?)
        /// `unprotectedTemporary[index]`, whose `domain` is the site host or a parent of it.
        case unprotectedTemporary(index: Int, domain: String)
        /// `features[feature].exceptions[index]`, whose `domain` is the site host or a parent
        /// of it; a `contentBlocking` exception is the site's entry in the unprotected sites.
        case featureException(feature: String, index: Int, domain: String)
    }

    /// Why the feature `name` is off for pages of `host`, or nil when it is on: the first of the
    /// feature's state, the `unprotectedTemporary` entries and the feature's `exceptions` (each
    /// covering its subdomains) that turns it off.
    public func featureOff(_ name: String, forSiteHost host: String) -> FeatureOff? {
        guard let feature = features[name], feature.state == .enabled else {
            return .featureNotEnabled(feature: name, state: features[name]?.state)
        }
        if let index = unprotectedTemporary.firstIndex(where: { DomainName.host(host, isWithin: $0.domain) }) {
            return .unprotectedTemporary(index: index, domain: unprotectedTemporary[index].domain)
        }
        if let index = feature.exceptions.firstIndex(where: { DomainName.host(host, isWithin: $0.domain) }) {
            return .featureException(feature: name, index: index, domain: feature.exceptions[index].domain)
        }
        return nil
    }
}

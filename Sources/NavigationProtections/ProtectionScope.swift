public import TrackerDataKit
import TrackerlessCore

/// Where a privacy-configuration feature applies: the feature's state, its exceptions,
/// `unprotectedTemporary` and the user's allowlist, in one question.
///
/// A site is covered when the feature is `enabled` and the host (or a parent domain of it) is in
/// none of the three lists, as DuckDuckGo's clients decide it.
public struct ProtectionScope: Sendable {
    /// The feature's key in the privacy configuration (`trackingParameters`, `ampLinks`, ...).
    public let feature: String
    private let configuration: PrivacyConfiguration
    private let userAllowlist: UserAllowlist

    /// The scope of `feature` in `configuration`, with the user's allowlist.
    public init(feature: String, configuration: PrivacyConfiguration, userAllowlist: UserAllowlist = UserAllowlist()) {
        self.feature = feature
        self.configuration = configuration
        self.userAllowlist = userAllowlist
    }

    /// Whether the feature is on at all (state `enabled`).
    public var isEnabled: Bool { configuration.features[feature]?.state == .enabled }

    /// Whether the feature applies to `host`.
    public func covers(host: String) -> Bool {
        let host = DomainName.normalized(host)
        return configuration.isFeatureEnabled(feature, forSiteHost: host) && !userAllowlist.contains(host: host)
    }

    /// The strings of the array setting `key`, skipping anything that is not a string.
    func strings(_ key: String) -> [String] {
        guard let values = configuration.features[feature]?.settingsText?.member(key) else { return [] }
        return values.elements.compactMap(\.string)
    }
}

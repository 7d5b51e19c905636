public import TrackerDataKit
public import URLPrefilter

/// The navigation protections of one privacy configuration, applied together: AMP links, then
/// tracking parameters, then the HTTPS upgrade on the URL; GPC and referrer trimming on the
/// headers, for the URL that will load.
public struct NavigationProtector: Sendable {
    /// AMP link protection.
    public let ampLinks: AMPLinks
    /// Tracking-parameter stripping.
    public let trackingParameters: TrackingParameters
    /// Global Privacy Control.
    public let globalPrivacyControl: GlobalPrivacyControl
    /// Referrer trimming.
    public let referrerTrimming: ReferrerTrimming
    /// Smarter Encryption, when the host has its filter.
    public let httpsUpgrade: HTTPSUpgrade?

    /// The protections of `configuration`, owners from `trackerData`, the user's allowlist and GPC
    /// setting, and the HTTPS filter if there is one.
    public init(
        configuration: PrivacyConfiguration, trackerData: TrackerData, userAllowlist: UserAllowlist = UserAllowlist(),
        gpcOnForUser: Bool = true, gpcHeaderScope: GlobalPrivacyControl.HeaderScope = .enabledSites, httpsUpgrade: HTTPSUpgrade? = nil
    ) {
        ampLinks = AMPLinks(configuration: configuration, userAllowlist: userAllowlist)
        trackingParameters = TrackingParameters(configuration: configuration, userAllowlist: userAllowlist)
        globalPrivacyControl = GlobalPrivacyControl(
            configuration: configuration, isOnForUser: gpcOnForUser, headerScope: gpcHeaderScope, userAllowlist: userAllowlist)
        referrerTrimming = ReferrerTrimming(configuration: configuration, trackerData: trackerData, userAllowlist: userAllowlist)
        self.httpsUpgrade = httpsUpgrade
    }

    /// The protections of the configuration and blocklist parts in `data` (what a set carries
    /// for a process that did not parse its inputs), with the user's allowlist and GPC setting and
    /// the HTTPS filter if there is one: the same decisions as ``init(configuration:trackerData:userAllowlist:gpcOnForUser:gpcHeaderScope:httpsUpgrade:)``
    /// with the whole configuration and blocklist `data` was made from.
    public init(
        _ data: NavigationProtectionData, userAllowlist: UserAllowlist = UserAllowlist(), gpcOnForUser: Bool = true,
        gpcHeaderScope: GlobalPrivacyControl.HeaderScope = .enabledSites, httpsUpgrade: HTTPSUpgrade? = nil
    ) {
        self.init(
            configuration: data.configuration, trackerData: data.trackerData, userAllowlist: userAllowlist,
            gpcOnForUser: gpcOnForUser, gpcHeaderScope: gpcHeaderScope, httpsUpgrade: httpsUpgrade)
    }

    /// The decision for `navigation`.
    public func decision(for navigation: Navigation) -> NavigationDecision {
        var url = navigation.url
        var reasons: [NavigationDecision.Reason] = []
        if let canonical = ampLinks.canonicalURL(forAMPLink: url) {
            url = canonical
            reasons.append(.ampLinkResolved)
        }
        let cleaned = trackingParameters.cleaning(url, initiator: navigation.initiator)
        if cleaned != url {
            url = cleaned
            reasons.append(.trackingParametersRemoved)
        }
        let site = navigation.topURL ?? url
        if let upgraded = httpsUpgrade?.upgradedURL(forRequestURL: url, topURL: site) {
            url = upgraded
            reasons.append(.upgradedToHTTPS)
        }
        let gpc = globalPrivacyControl.headerValue(topURL: navigation.topURL ?? url)
        if gpc != nil { reasons.append(.globalPrivacyControl) }
        var referrer = navigation.referrer
        if let original = referrer, let from = navigation.initiator {
            referrer = referrerTrimming.navigationReferrer(original, from: from, to: url)
            if referrer != original { reasons.append(.referrerTrimmed) }
        }
        return NavigationDecision(
            url: url, ampDetected: ampLinks.isAMPKeywordURL(url), gpcHeader: gpc, referrer: referrer, reasons: reasons)
    }
}

public import TrackerDataKit
import TrackerlessCore

/// DuckDuckGo's referrer trimming (`referrer`): the `Referer` header of navigations and
/// subrequests, and `document.referrer`, cut to the referring page's origin when they would cross
/// to another site.
///
/// A referrer is kept whole when its site and the destination's (the navigation's target, the
/// request's URL, or the document reading `document.referrer`) have the same registrable domain
/// or the same owner entity in the tracker data, unless the destination is a tracker (named
/// directly or through a CNAME) of another entity; otherwise it becomes `scheme://host[:port]/`
/// (the subdomain kept). Nothing changes where the protection does not apply: a page, a referrer
/// or a destination on a site outside the feature's scope.
public struct ReferrerTrimming: Sendable {
    /// The privacy-configuration feature.
    public static let feature = "referrer"

    private let scope: ProtectionScope
    private let trackerData: TrackerData
    private let publicSuffixList = PublicSuffixList.bundled

    /// The protection as `configuration` sets it, owners from `trackerData`, with the user's
    /// allowlist.
    public init(configuration: PrivacyConfiguration, trackerData: TrackerData, userAllowlist: UserAllowlist = UserAllowlist()) {
        scope = ProtectionScope(feature: Self.feature, configuration: configuration, userAllowlist: userAllowlist)
        self.trackerData = trackerData
    }

    /// The `Referer` header of a navigation from `fromURL` to `toURL` (nil: none).
    public func navigationReferrer(_ referrer: String?, from fromURL: String, to toURL: String) -> String? {
        trimmed(referrer, site: fromURL, destination: toURL)
    }

    /// The `Referer` header of a request for `requestURL` made by a page at `topURL` (nil: none).
    public func subrequestReferrer(_ referrer: String?, topURL: String, requestURL: String) -> String? {
        trimmed(referrer, site: topURL, destination: requestURL)
    }

    /// `document.referrer` in a page at `topURL`, or in a frame at `frameURL` inside it.
    public func documentReferrer(_ referrer: String, topURL: String, frameURL: String? = nil) -> String {
        trimmed(referrer, site: topURL, destination: frameURL ?? topURL) ?? referrer
    }

    private func trimmed(_ referrer: String?, site: String, destination: String) -> String? {
        guard let referrer, !referrer.isEmpty, scope.isEnabled,
            let referrerURL = CanonicalURL(referrer), let siteHost = CanonicalURL(site)?.host,
            let destinationHost = CanonicalURL(destination)?.host,
            scope.covers(host: siteHost), scope.covers(host: destinationHost), scope.covers(host: referrerURL.host),
            crossesSites(from: referrerURL.host, to: destinationHost)
        else { return referrer }
        return Self.origin(of: referrerURL)
    }

    /// Whether a referrer of `from` would leave its owner for `to`.
    private func crossesSites(from: String, to: String) -> Bool {
        let fromHost = CanonicalURL.removingFinalDot(fromHost: from), toHost = CanonicalURL.removingFinalDot(fromHost: to)
        let fromEntity = trackerData.entityName(forHost: fromHost)
        let trackerHost = trackerData.cname(forHost: toHost) ?? toHost
        if trackerData.tracker(forHost: trackerHost) != nil {
            let trackerEntity = trackerData.entityName(forHost: trackerHost)
            return trackerEntity == nil || trackerEntity != fromEntity
        }
        if let fromEntity, fromEntity == trackerData.entityName(forHost: toHost) { return false }
        let fromSite = publicSuffixList.registrableDomain(of: fromHost) ?? fromHost
        let toSite = publicSuffixList.registrableDomain(of: toHost) ?? toHost
        return fromSite != toSite
    }

    /// `scheme://host[:port]/` of a URL.
    static func origin(of url: CanonicalURL) -> String {
        url.scheme + "://" + url.host + (url.port.map { ":\($0)" } ?? "") + "/"
    }
}

public import TrackerDataKit
import TrackerlessCore

/// Global Privacy Control (`gpc`): the `Sec-GPC: 1` request header and
/// `navigator.globalPrivacyControl` in every frame, with the user's setting.
///
/// Off for sites outside the feature's scope (its exceptions, `unprotectedTemporary`, the user's
/// allowlist): no header and no API there. Where it applies, the API says the user's setting
/// (`true` or `false`); the header is sent only when the setting is on.
public struct GlobalPrivacyControl: Sendable {
    /// The privacy-configuration feature.
    public static let feature = "gpc"

    /// Which requests carry the header.
    public enum HeaderScope: Sendable, Hashable {
        /// Navigations to the sites of `settings.gpcHeaderEnabledSites` and their subrequests:
        /// what hosts do that can set headers on navigations only (WKWebView, Android's WebView).
        case enabledSites
        /// Every request of a page where the protection applies: hosts that see every request
        /// (a WebKitGTK web-process extension, WebView2's `WebResourceRequested`).
        case everyRequest
    }

    /// The user's setting.
    public let isOnForUser: Bool
    /// Which requests carry the header.
    public let headerScope: HeaderScope
    /// `settings.gpcHeaderEnabledSites`, each `DomainName.normalized(_:)`.
    public let headerEnabledSites: [String]
    private let scope: ProtectionScope

    /// The protection as `configuration` sets it, with the user's setting and allowlist.
    public init(
        configuration: PrivacyConfiguration, isOnForUser: Bool = true, headerScope: HeaderScope = .enabledSites,
        userAllowlist: UserAllowlist = UserAllowlist()
    ) {
        scope = ProtectionScope(feature: Self.feature, configuration: configuration, userAllowlist: userAllowlist)
        self.isOnForUser = isOnForUser
        self.headerScope = headerScope
        headerEnabledSites = scope.strings("gpcHeaderEnabledSites").map(DomainName.normalized)
    }

    /// The `Sec-GPC` value for the requests of a page at `topURL` (for a navigation, the
    /// destination), or nil for no header: the decision is the page's, whatever the request.
    public func headerValue(topURL: String) -> String? {
        guard isOnForUser, let site = CanonicalURL(topURL)?.host, applies(toSite: site) else { return nil }
        switch headerScope {
        case .everyRequest:
            return "1"
        case .enabledSites:
            let host = DomainName.normalized(site)
            return headerEnabledSites.contains { DomainName.host(host, isWithin: $0) } ? "1" : nil
        }
    }

    /// `navigator.globalPrivacyControl` in a frame of a page at `topURL`: nil when the API is not
    /// injected, else the value it returns.
    public func javaScriptValue(topURL: String) -> Bool? {
        guard let site = CanonicalURL(topURL)?.host, applies(toSite: site) else { return nil }
        return isOnForUser
    }

    private func applies(toSite host: String) -> Bool { scope.isEnabled && scope.covers(host: host) }
}

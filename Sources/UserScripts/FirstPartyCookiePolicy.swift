public import TrackerDataKit
import TrackerlessCore

/// The cap on the lifetime of first-party cookies that tracker scripts write through
/// `document.cookie`: the privacy configuration's `cookie` feature and its
/// `settings.firstPartyCookiePolicy`, which the blocking script applies in the page.
///
/// A script is a tracker script when its host, or the target of its host's CNAME, is a tracker of
/// the tds (whatever the tracker's rules decide for it: a tracker that is never blocked is one
/// too), unless the host is within one of `settings.excludedCookieDomains`. A cookie such a
/// script writes on a site where the feature applies, with a lifetime (`Max-Age`, else `Expires`)
/// above `threshold` seconds, is written with `Max-Age=maxAge` instead; session cookies, cookies
/// within the threshold and expired ones are written as they are.
///
/// ```swift
/// let policy = FirstPartyCookiePolicy(configuration: config, trackerData: tds)
/// policy.documentCookie("id=1; Max-Age=900000", scriptURL: "https://tracker.example/t.js",
///                       topURL: "https://news.example/", now: now)   // "id=1; Max-Age=86400"
/// ```
public struct FirstPartyCookiePolicy: Sendable {
    /// The privacy-configuration feature.
    public static let feature = "cookie"

    /// The feature's settings the page uses.
    public struct Settings: Sendable, Hashable {
        /// `firstPartyCookiePolicy.threshold`: lifetimes above it are capped (seconds).
        public var threshold: Int
        /// `firstPartyCookiePolicy.maxAge`: the lifetime a capped cookie gets (seconds).
        public var maxAge: Int
        /// `excludedCookieDomains[].domain`: script hosts whose cookies are never capped.
        public var excludedCookieDomains: [String]

        /// Settings with these values.
        public init(threshold: Int, maxAge: Int, excludedCookieDomains: [String] = []) {
            self.threshold = threshold
            self.maxAge = maxAge
            self.excludedCookieDomains = excludedCookieDomains
        }

        /// The settings of `configuration`'s `cookie` feature; nil when the policy is missing or
        /// its numbers are not whole non-negative seconds.
        public init?(configuration: PrivacyConfiguration) {
            guard let settings = configuration.features[FirstPartyCookiePolicy.feature]?.settingsText,
                let policy = settings.member("firstPartyCookiePolicy"),
                let threshold = Self.seconds(policy.member("threshold")), let maxAge = Self.seconds(policy.member("maxAge"))
            else { return nil }
            self.threshold = threshold
            self.maxAge = maxAge
            excludedCookieDomains = (settings.member("excludedCookieDomains")?.elements ?? []).compactMap { entry in
                (entry.member("domain")?.string ?? entry.string).map { $0.lowercased() }
            }.filter { !$0.isEmpty }
        }

        static func seconds(_ text: JSONText?) -> Int? {
            guard case .number(let value)? = text?.value, value >= 0, value <= 1e12, value == value.rounded() else { return nil }
            return Int(value)
        }
    }

    /// The settings, or nil when the feature is off or has no usable policy (nothing is capped).
    public let settings: Settings?
    private let configuration: PrivacyConfiguration
    private let trackerData: TrackerData
    private let userAllowlist: UserAllowlist

    /// The policy as `configuration` sets it, trackers from `trackerData`, with the user's allowlist.
    public init(configuration: PrivacyConfiguration, trackerData: TrackerData, userAllowlist: UserAllowlist = UserAllowlist()) {
        let isOn = configuration.features[Self.feature]?.state == .enabled
        settings = isOn ? Settings(configuration: configuration) : nil
        self.configuration = configuration
        self.trackerData = trackerData
        self.userAllowlist = userAllowlist
    }

    /// Whether the cookies the script at `scriptURL` writes on a page at `topURL` are capped.
    public func caps(scriptURL: String, topURL: String) -> Bool {
        guard let settings, let site = CanonicalURL(topURL)?.host, let script = CanonicalURL(scriptURL)?.host else { return false }
        let siteHost = CanonicalURL.removingFinalDot(fromHost: site)
        guard configuration.isFeatureEnabled(Self.feature, forSiteHost: siteHost), !userAllowlist.contains(host: siteHost) else {
            return false
        }
        let host = CanonicalURL.removingFinalDot(fromHost: script)
        guard trackerData.tracker(forHost: host) != nil || trackerData.cname(forHost: host).flatMap(trackerData.tracker(forHost:)) != nil
        else { return false }
        return !settings.excludedCookieDomains.contains { DomainName.host(host, isWithin: $0) }
    }

    /// What the script at `scriptURL` writes instead of `cookie` (the text it assigns to
    /// `document.cookie`) on a page at `topURL`, at `now` (seconds since 1970): `cookie` itself
    /// unless the policy caps it.
    public func documentCookie(_ cookie: String, scriptURL: String, topURL: String, now: Double) -> String {
        guard let settings, caps(scriptURL: scriptURL, topURL: topURL) else { return cookie }
        let parsed = DocumentCookie(cookie)
        guard let lifetime = parsed.lifetime(now: now), lifetime > Double(settings.threshold) else { return cookie }
        return parsed.withMaxAge(settings.maxAge)
    }
}

/// Whether a load (or a frame) keeps its cookies under ``CookieProtection``, and why.
///
/// For a request, ``blocksCookies`` means: remove every `Cookie` header from the request and
/// every `Set-Cookie` header from its response. For a frame it means: `document.cookie` reads
/// as `""` and assignments to it are dropped.
public struct CookieDecision: Sendable, Hashable {
    /// Why the cookies are kept or blocked.
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// The user turned protection off for the site (``UserAllowlist``).
        case userAllowlist = "user allowlist"
        /// The privacy configuration does not turn the cookie protection on (see
        /// ``CookieProtection/Settings``).
        case featureDisabled = "feature disabled"
        /// The site is one of the feature's exceptions or is `unprotectedTemporary`.
        case unprotectedDomain = "unprotected domain"
        /// The load is not a tracker.
        case noMatch = "no match"
        /// The tracker belongs to the site's company, or the load is same-site with the page.
        case firstParty = "first party"
        /// The load's host is in the feature's `excludedCookieDomains`.
        case excludedCookieDomain = "excluded cookie domain"
        /// A third-party tracker: its cookies are blocked.
        case thirdPartyTracker = "third-party tracker"
    }

    /// Why.
    public var reason: Reason
    /// The tracker the load belongs to (after CNAME uncloaking, the target's tracker), if any.
    public var tracker: Tracker?
    /// The CNAME target the load's host was uncloaked to, when the tracker was found that way.
    public var cnameTarget: String?
    /// The `excludedCookieDomains` entry that kept the cookies, for
    /// ``Reason-swift.enum/excludedCookieDomain``.
    public var excludedCookieDomain: String?

    /// Creates a decision.
    public init(reason: Reason, tracker: Tracker? = nil, cnameTarget: String? = nil, excludedCookieDomain: String? = nil) {
        self.reason = reason
        self.tracker = tracker
        self.cnameTarget = cnameTarget
        self.excludedCookieDomain = excludedCookieDomain
    }

    /// Whether the cookies are blocked: strip `Cookie` and `Set-Cookie`, or block
    /// `document.cookie` in the frame.
    public var blocksCookies: Bool { reason == .thirdPartyTracker }

    /// Whether the load belongs to a tracker (possibly uncloaked).
    public var isTracker: Bool { tracker != nil }
}

public import TrackerlessCore

/// Decides DuckDuckGo's third-party tracking-cookie protection: which loads go without their
/// cookies (strip `Cookie` from the request and `Set-Cookie` from the response) and in which
/// frames `document.cookie` is blocked.
///
/// ```swift
/// let protection = CookieProtection(trackerData: tds, configuration: config)
/// let load = protection.decision(forRequestURL: "https://tracker.com/track", topURL: "https://example.com/")
/// load?.blocksCookies                              // true
/// load?.removingCookieHeaders(from: headers)       // headers without any `Cookie`
/// let frame = protection.decision(forFrameURL: "https://tracker.com/frame", topURL: "https://example.com/")
/// frame?.blocksCookies                             // true: document.cookie reads "" and drops writes
/// ```
///
/// This is the API for hosts that see headers (a proxy, a network stack, the engine path). On
/// WebKit, `CookieRules` in RuleBuilder builds `block-cookies` rules with the same meaning for
/// loads; `document.cookie` there needs a user script that asks the frame decision.
///
/// ## The decision procedure
/// Both decisions run the same steps, the first that decides wins. The *load* is the request
/// (for headers) or the frame's document (for `document.cookie`).
///
/// 1. **Protection off for the site.** The site host is in the ``UserAllowlist`` (exact host):
///    ``CookieDecision/Reason-swift.enum/userAllowlist``. The cookie feature is off (see
///    ``Settings``): ``CookieDecision/Reason-swift.enum/featureDisabled``. The site is one of the
///    feature's `exceptions` or `unprotectedTemporary` (each covering subdomains):
///    ``CookieDecision/Reason-swift.enum/unprotectedDomain``.
/// 2. **Find the tracker.** Walk the load's host and its parents in `trackers`; only if that
///    finds nothing, look the *exact* host up in `cnames` and walk the target in `trackers`, as
///    ``TrackerResolver`` does. A tracker's `default` and rules do not matter: an `ignore`
///    tracker still has its cookies stripped. No tracker:
///    ``CookieDecision/Reason-swift.enum/noMatch``.
/// 3. **First party.** ``CookieDecision/Reason-swift.enum/firstParty`` when the tracker's owner is
///    the site's entity (the site host's nearest listed domain in `domains`), or when the load is
///    same-site with the page: for a tracker found directly, the load host is the site's eTLD+1 or
///    inside it (WebKit's `first-party` load type); for a cloaked host, the load host is exactly
///    the site host or the site is on the CNAME target's eTLD+1. A main-frame load (the site
///    itself) is therefore never stripped.
/// 4. **Excluded domain.** The load host (before uncloaking) is one of the feature's
///    `settings.excludedCookieDomains` or a subdomain of one:
///    ``CookieDecision/Reason-swift.enum/excludedCookieDomain``.
/// 5. Otherwise: ``CookieDecision/Reason-swift.enum/thirdPartyTracker``, cookies blocked.
///
/// Cookies of third parties that are not trackers (the `nonTrackerCookie` setting, the
/// `nonTracking3pCookies` feature) are not handled.
public struct CookieProtection: Sendable {
    /// The blocklist that says which hosts are trackers and who owns them.
    public let trackerData: TrackerData
    /// The cookie feature as read from the privacy configuration.
    public let settings: Settings
    /// Sites where the user turned protection off.
    public let userAllowlist: UserAllowlist

    private let publicSuffixList: PublicSuffixList

    /// Prepares the decisions for a blocklist and a privacy configuration.
    ///
    /// - Parameters:
    ///   - trackerData: the blocklist.
    ///   - configuration: nil means the protection is on everywhere, without excluded domains.
    ///   - userAllowlist: sites where the user turned protection off.
    ///   - publicSuffixList: for same-site comparisons.
    public init(
        trackerData: TrackerData,
        configuration: PrivacyConfiguration? = nil,
        userAllowlist: UserAllowlist = UserAllowlist(),
        publicSuffixList: PublicSuffixList = .bundled
    ) {
        self.trackerData = trackerData
        self.settings = Settings(configuration: configuration)
        self.userAllowlist = userAllowlist
        self.publicSuffixList = publicSuffixList
    }

    /// Decides whether a request loses its cookies: its `Cookie` headers and its response's
    /// `Set-Cookie` headers. Nil when either URL cannot be parsed.
    public func decision(forRequestURL requestURL: String, topURL: String) -> CookieDecision? {
        guard let request = CanonicalURL(requestURL), let site = CanonicalURL(topURL) else { return nil }
        return decision(forRequestURL: request, topURL: site)
    }

    /// Decides whether a request to `requestURL` made on a page at `topURL` (the top-level
    /// page, as shown in the address bar) loses its cookies. For a navigation, `topURL` is the
    /// page being loaded, so its cookies are kept.
    public func decision(forRequestURL requestURL: CanonicalURL, topURL: CanonicalURL) -> CookieDecision {
        decision(forHost: CanonicalURL.removingFinalDot(fromHost: requestURL.host), siteHost: topURL.host)
    }

    /// Decides whether `document.cookie` is blocked in a frame. Nil when either URL cannot be
    /// parsed.
    public func decision(forFrameURL frameURL: String, topURL: String) -> CookieDecision? {
        guard let frame = CanonicalURL(frameURL), let site = CanonicalURL(topURL) else { return nil }
        return decision(forFrameURL: frame, topURL: site)
    }

    /// Decides whether `document.cookie` is blocked in the frame whose document is at `frameURL`,
    /// on a page at `topURL`: when blocked, reading gives `""` and writing stores nothing.
    ///
    /// Pass the site URL for the main frame (never blocked). A frame without a host of its own
    /// (`about:blank`, `data:`) is never a tracker; pass the URL of the document it inherits its
    /// origin from instead.
    public func decision(forFrameURL frameURL: CanonicalURL, topURL: CanonicalURL) -> CookieDecision {
        decision(forHost: CanonicalURL.removingFinalDot(fromHost: frameURL.host), siteHost: topURL.host)
    }

    // MARK: - Steps

    private func decision(forHost host: String, siteHost: String) -> CookieDecision {
        // Step 1: protection off for the site.
        if userAllowlist.contains(host: siteHost) { return CookieDecision(reason: .userAllowlist) }
        guard settings.isEnabled else { return CookieDecision(reason: .featureDisabled) }
        if settings.unprotectedDomains.contains(where: { DomainName.host(siteHost, isWithin: $0) }) {
            return CookieDecision(reason: .unprotectedDomain)
        }

        // Step 2: the tracker, directly or through a CNAME.
        guard !host.isEmpty else { return CookieDecision(reason: .noMatch) }
        var cnameTarget: String?
        var tracker = trackerData.tracker(forHost: host)
        if tracker == nil, let target = trackerData.cname(forHost: host) {
            tracker = trackerData.tracker(forHost: target)
            if tracker != nil { cnameTarget = target }
        }
        guard let tracker else { return CookieDecision(reason: .noMatch) }
        func decided(_ reason: CookieDecision.Reason, excludedCookieDomain: String? = nil) -> CookieDecision {
            CookieDecision(
                reason: reason, tracker: tracker, cnameTarget: cnameTarget, excludedCookieDomain: excludedCookieDomain)
        }

        // Step 3: first party.
        if isFirstParty(tracker: tracker, host: host, cnameTarget: cnameTarget, siteHost: siteHost) {
            return decided(.firstParty)
        }

        // Step 4: excluded domains, by the host as requested.
        if let excluded = settings.excludedCookieDomains.first(where: { DomainName.host(host, isWithin: $0) }) {
            return decided(.excludedCookieDomain, excludedCookieDomain: excluded)
        }

        // Step 5.
        return decided(.thirdPartyTracker)
    }

    private func isFirstParty(tracker: Tracker, host: String, cnameTarget: String?, siteHost: String) -> Bool {
        if let owner = tracker.ownerName, owner == trackerData.entityName(forHost: siteHost) { return true }
        guard !siteHost.isEmpty else { return false }
        if let cnameTarget {
            // A cloaked host is usually a subdomain of the site that loads it: same-site by name,
            // third party by where it really goes.
            let targetSite = publicSuffixList.registrableDomain(of: cnameTarget) ?? cnameTarget
            return host == siteHost || DomainName.host(siteHost, isWithin: targetSite)
        }
        let site = publicSuffixList.registrableDomain(of: siteHost) ?? siteHost
        return DomainName.host(host, isWithin: site)
    }
}

public import NavigationProtections
import TrackerlessCore

extension ProtectionRuntime {
    /// What the web view does with `navigation`: the URL to load by the current set's navigation
    /// decision (``ProtectionSet/navigationProtector``: AMP link resolved, tracking parameters
    /// removed, upgraded to https), and that URL's plan (rule lists, scripts), all of one set.
    ///
    /// A site whose protection the user turned off (``setProtection(_:forSite:)``) gets no
    /// navigation protection either, as a site of the inputs' user allowlist: neither as the
    /// destination nor as the page that started the navigation.
    ///
    /// An adapter asks it when it decides a main-frame navigation; when ``NavigationPlan/url``
    /// differs from `navigation.url` it cancels the navigation and starts one to the plan's URL
    /// (asking again for that one, whose decision is normally the same URL).
    public func navigationPlan(for navigation: Navigation) -> NavigationPlan {
        let (set, sitesOff) = setAndSitesOff
        let decision = toggledNavigation.protector(set: set, sitesOff: sitesOff).decision(for: navigation)
        let host = CanonicalURL(decision.url)?.host ?? ""
        let off = !host.isEmpty && Self.isOff(host, set: set, sitesOff: sitesOff)
        return NavigationPlan(protectionSet: set, url: decision.url, isProtected: !off, decision: decision)
    }
}

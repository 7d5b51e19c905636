import TrackerData
import TrackerlessCore

/// What the host's resolver says about one observed request, reduced to what the statistics need.
struct RequestClassification: Sendable {
    /// The request host; "" when the URL does not parse.
    var host: String
    /// Whether the request goes to another registrable domain than the site.
    var isThirdParty: Bool
    /// The entity name (tds `owner.name`) the request is counted under, or its registrable
    /// domain when no entity owns it; nil when the request is not a tracker and is not blocked.
    var company: String?
    /// The tracker domain, for trackers.
    var trackerDomain: String?
    /// The tracker's Firefox bucket.
    var category: FirefoxCategory
    /// Whether the resolver blocks (or redirects) it.
    var blocks: Bool
    /// Why the resolver lets a tracker load.
    var allowedReason: AllowedReason?
    /// The surrogate the resolver redirects it to.
    var surrogate: String?

    static func unparseable() -> RequestClassification {
        RequestClassification(host: "", isThirdParty: false, company: nil, trackerDomain: nil, category: .other, blocks: false)
    }

    /// The dashboard state of the request after the page saw it end `observed`; nil when it is
    /// not a tracker and nothing blocks it.
    ///
    /// A request the resolver blocks but that the page saw load was not blocked:
    /// ``AllowedReason/protectionsOff``. Pending or failed, it is taken as blocked, which is how a
    /// content blocker's block looks from the page.
    func state(observed: ObservedState) -> TrackerState? {
        guard company != nil else { return nil }
        if blocks { return observed == .loaded ? .allowed(.protectionsOff) : .blocked }
        return allowedReason.map { .allowed($0) }
    }
}

/// Classifies a page's requests with the ``TrackerResolver``, remembering what it learned about
/// each host, so that requests to hosts that can never be trackers skip the resolver.
///
/// A host skips it only when no tracker, CNAME or request-blocklist entry can apply to any URL
/// on it; the resolver's answer for such a host is "no match" (action nil) for every URL,
/// site and type, so the results are the resolver's.
struct RequestClassifier: Sendable {
    let resolver: TrackerResolver
    let site: CanonicalURL?
    let siteDomain: String?
    let siteEntityName: String?
    private var plainHosts: [String: Bool] = [:]

    static let publicSuffixList = PublicSuffixList.bundled

    init(resolver: TrackerResolver, siteURL: String) {
        self.resolver = resolver
        site = CanonicalURL(siteURL)
        let host = site?.host ?? ""
        siteDomain = Self.publicSuffixList.registrableDomain(of: host) ?? (host.isEmpty ? nil : host)
        siteEntityName = resolver.trackerData.entityName(forHost: host)
    }

    /// Whether the site has protection on: not in the user allowlist, and `contentBlocking` on
    /// for it in the privacy configuration.
    var isProtected: Bool {
        guard let host = site?.host else { return true }
        if resolver.userAllowlist.contains(host: host) { return false }
        if let configuration = resolver.privacyConfiguration {
            return configuration.isFeatureEnabled(PrivacyConfiguration.FeatureName.contentBlocking, forSiteHost: host)
        }
        return true
    }

    mutating func classify(url: String, type: RequestType) -> RequestClassification {
        guard let request = CanonicalURL(url), !request.host.isEmpty else { return .unparseable() }
        let host = request.host
        let domain = Self.publicSuffixList.registrableDomain(of: host) ?? host
        let isThirdParty = domain != siteDomain
        let isPlain: Bool
        if let known = plainHosts[host] {
            isPlain = known
        } else {
            isPlain = isPlainHost(host, domain: domain)
            if plainHosts.count < 4096 { plainHosts[host] = isPlain }
        }
        guard !isPlain, let site else {
            return RequestClassification(
                host: host, isThirdParty: isThirdParty, company: nil, trackerDomain: nil, category: .other, blocks: false)
        }
        let decision = resolver.decision(forRequestURL: request, siteURL: site, type: type)
        var classification = RequestClassification(
            host: host, isThirdParty: isThirdParty, company: nil, trackerDomain: decision.tracker?.domain,
            category: decision.tracker.map(FirefoxCategory.init(tracker:)) ?? .other, blocks: decision.isBlocked)
        if let tracker = decision.tracker {
            classification.company = tracker.owner?.name ?? domain
        } else if decision.isBlocked {
            // Blocked by the request blocklist without being a tracker.
            classification.company = resolver.trackerData.entityName(forHost: host) ?? domain
        }
        classification.allowedReason = AllowedReason(decision: decision, siteEntityName: siteEntityName)
        if case .redirect(let surrogate)? = decision.action { classification.surrogate = surrogate }
        return classification
    }

    /// Whether no tracker (direct or through a CNAME) and no request-blocklist entry can apply
    /// to a URL on `host`.
    private func isPlainHost(_ host: String, domain: String) -> Bool {
        let trackerData = resolver.trackerData
        if trackerData.tracker(forHost: host) != nil { return false }
        if let target = trackerData.cname(forHost: host), trackerData.tracker(forHost: target) != nil { return false }
        if let configuration = resolver.privacyConfiguration,
            configuration.requestBlocklist.blockedRequests[domain] != nil
        {
            return false
        }
        return true
    }
}

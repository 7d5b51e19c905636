import TrackerDataKit
import TrackerlessCore

/// Classifies a page's requests with the ``TrackerResolver``, remembering what it learned about
/// each host, so that requests to hosts that can never be trackers skip the resolver.
///
/// A host skips it only when the resolver says nothing can match it
/// (``TrackerResolver/mayMatch(host:)``): its answer for such a host is no tracker and no action
/// for every URL, site and type, so the results are the resolver's.
struct RequestClassifier: Sendable {
    let resolver: TrackerResolver
    let site: CanonicalURL?
    let siteDomain: String?
    let siteEntityName: String?
    let cache: ClassificationCache
    /// This site's classifications, shared with the other pages of the site.
    let siteTable: ClassificationCache.SiteTable

    static let publicSuffixList = PublicSuffixList.bundled

    init(resolver: TrackerResolver, topURL: String, cache: ClassificationCache) {
        self.resolver = resolver
        self.cache = cache
        site = CanonicalURL(topURL)
        siteTable = cache.table(forSite: site?.host ?? "")
        let host = site?.host ?? ""
        siteDomain = Self.publicSuffixList.registrableDomain(of: host) ?? (host.isEmpty ? nil : host)
        siteEntityName = resolver.trackerData.entityName(forHost: host)
    }

    /// Whether the site has protection on: not in the user allowlist, and `contentBlocking` on
    /// for it in the privacy configuration.
    var isProtected: Bool {
        guard let host = site?.host else { return true }
        return resolver.isProtected(siteHost: host)
    }

    /// The resolver's classification of a request on this site.
    ///
    /// Hosts that can never be trackers take a shortcut: the host, its registrable domain and
    /// whether it is plain are looked up by the URL's raw authority (``authorityRange(in:)``), without
    /// parsing the URL, and such requests share one classification per (host, third party).
    /// Only requests to other hosts are parsed, resolved and cached per site.
    func classify(_ key: RequestKey) -> RequestClassification {
        var parsed: CanonicalURL?
        let shortcut = key.url.utf8.withContiguousStorageIfAvailable { bytes -> HostInfo? in
            guard let range = Self.authorityRange(in: bytes) else { return nil }
            let authority = UnsafeBufferPointer(rebasing: bytes[range])
            return cache.authorities[authority] ?? learn(authority: authority)
        }
        let info: HostInfo
        if let known = shortcut ?? nil {
            info = known
        } else {
            guard let request = CanonicalURL(key.url), !request.host.isEmpty else { return .unparseable }
            parsed = request
            info = hostInfo(request.host)
        }
        guard !info.host.isEmpty else { return .unparseable }
        let isThirdParty = info.domain != siteDomain
        guard !info.isPlain, let site else { return isThirdParty ? info.thirdParty : info.firstParty }
        if let known = siteTable[key] { return known }
        // The authority parsed, so the whole URL does: ``authorityRange(in:)`` explains why.
        guard let request = parsed ?? parse(key.url) else { return .unparseable }
        let classification = resolve(request, type: key.type, site: site, info: info, isThirdParty: isThirdParty)
        siteTable.store(classification, for: key)
        return classification
    }

    /// Where the authority of an `http:` or `https:` URL is, exactly as the URL parser delimits
    /// it (after the run of `/` and `\` that follows the scheme, up to the first `/`, `\`, `?` or
    /// `#`), when it is printable ASCII; nil for anything else, which is parsed in full.
    ///
    /// Such a URL's host depends on its authority alone: the parser trims and strips only bytes
    /// up to U+0020, which are not in the authority, and the path, query and fragment that
    /// follow never make a URL invalid. So the host of `http://<authority>/`, and whether it
    /// parses, is the URL's.
    static func authorityRange(in url: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var index = 0
        for byte in Self.httpPrefix {
            guard index < url.count, url[index] == byte else { return nil }
            index += 1
        }
        if index < url.count, url[index] == UInt8(ascii: "s") { index += 1 }
        guard index < url.count, url[index] == UInt8(ascii: ":") else { return nil }
        index += 1
        while index < url.count, url[index] == UInt8(ascii: "/") || url[index] == UInt8(ascii: "\\") { index += 1 }
        let start = index
        while index < url.count {
            let byte = url[index]
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") {
                break
            }
            guard byte > 0x20, byte < 0x7F else { return nil }
            index += 1
        }
        return start..<index
    }

    private static let httpPrefix = Array("http".utf8)

    /// Parses an authority not seen yet and remembers what its host is.
    private func learn(authority: UnsafeBufferPointer<UInt8>) -> HostInfo {
        let host = CanonicalURL("http://" + String(decoding: authority, as: UTF8.self) + "/")?.host ?? ""
        let info = host.isEmpty ? HostInfo.unparseable : hostInfo(host)
        cache.authorities.store(info, for: authority)
        return info
    }

    /// A request URL to a host that may be a tracker, parsed once for every site: the same
    /// tracker scripts and pixels load on site after site.
    private func parse(_ url: String) -> CanonicalURL? {
        if let known = cache.trackerURLs[url] { return known }
        guard let parsed = CanonicalURL(url) else { return nil }
        cache.trackerURLs.store(parsed, for: url)
        return parsed
    }

    /// What is known of a host, computed on first sight; a host with the final dot of a fully
    /// qualified name is the same host as without it, as the resolver sees it.
    private func hostInfo(_ spelledHost: String) -> HostInfo {
        if let known = cache.hosts[spelledHost] { return known }
        let host = CanonicalURL.removingFinalDot(fromHost: spelledHost)
        let domain = Self.publicSuffixList.registrableDomain(of: host) ?? host
        let info = HostInfo(host: host, domain: domain, isPlain: !resolver.mayMatch(host: host))
        cache.hosts.store(info, for: spelledHost)
        return info
    }

    private func resolve(
        _ request: CanonicalURL, type: RequestType, site: CanonicalURL, info: HostInfo, isThirdParty: Bool
    ) -> RequestClassification {
        let host = info.host
        let domain = info.domain
        let decision = resolver.decision(forRequestURL: request, topURL: site, type: type)
        var company: String?
        if let tracker = decision.tracker {
            // The parent company, as DuckDuckGo's dashboard groups: Google Analytics counts as Google LLC.
            company = tracker.owner?.ownedBy ?? tracker.owner?.name ?? domain
        } else if decision.isBlocked {
            // Blocked by the request blocklist without being a tracker.
            company = resolver.trackerData.entityName(forHost: host) ?? domain
        }
        var surrogate: String?
        if case .redirect(let name)? = decision.action { surrogate = name }
        var clickToLoadAction: String?
        if decision.isBlocked, case .blockClickToLoad(let action)? = decision.matchedRule?.action { clickToLoadAction = action }
        return RequestClassification(
            host: host, isThirdParty: isThirdParty, company: company, trackerDomain: decision.tracker?.domain,
            category: decision.tracker.map(FirefoxCategory.init(tracker:)) ?? .other, blocks: decision.isBlocked,
            allowedReason: AllowedReason(decision: decision, siteEntityName: siteEntityName), surrogate: surrogate,
            clickToLoadAction: clickToLoadAction, decidingEntry: decision.decidingEntry)
    }
}

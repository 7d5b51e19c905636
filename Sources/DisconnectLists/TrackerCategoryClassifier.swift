public import ContentRuleList
public import TrackerlessCore

/// Tells which Firefox category a blocked load belongs to, for the per-category counters of
/// the privacy stats.
///
/// WebKit does not say which rule blocked a load, so Firefox matches the reported URLs against
/// its lists again. This classifier answers from the same category and entity lists as the rule
/// lists, with the same meaning: an http(s) URL whose host is a tracker domain or a subdomain of
/// one (its path starting with the entry's path, if any), loaded third party, on a page that is
/// not one of the tracker owner's sites.
///
/// ```swift
/// let classifier = TrackerCategoryClassifier(categoryLists: lists, entityList: entities)
/// classifier.category(of: "https://stats.tracker.example/p.gif", topURL: "https://news.example/")   // .analytics
/// ```
public struct TrackerCategoryClassifier: Sendable {
    private struct Entry: Sendable {
        var category: FirefoxCategory
        var path: String?
        var ownerProperties: [String]
    }

    /// Tracker host -> its entries, in ``FirefoxCategory/classificationOrder``.
    private let entries: [String: [Entry]]
    private let publicSuffixList: PublicSuffixList

    /// Prepares the lookup table.
    public init(categoryLists: CategoryLists, entityList: EntityList, publicSuffixList: PublicSuffixList = .bundled) {
        let trackers = OwnedTracker.resolve(categoryLists, entityList, publicSuffixList: publicSuffixList)
        var entries: [String: [Entry]] = [:]
        for category in FirefoxCategory.classificationOrder {
            for tracker in trackers[category] ?? [] {
                entries[tracker.domain.host, default: []].append(
                    Entry(category: category, path: tracker.domain.path, ownerProperties: tracker.ownerProperties))
            }
        }
        self.entries = entries
        self.publicSuffixList = publicSuffixList
    }

    /// The category of a load of `url` on the page at `topURL`; nil when no list matches it
    /// (not a tracker, first party, or on one of the tracker owner's sites).
    ///
    /// A URL in several lists counts for the first category of
    /// `FirefoxCategory.classificationOrder`, as in Firefox.
    public func category(of url: String, topURL: String) -> FirefoxCategory? {
        guard let request = CanonicalURL(url), request.scheme == "http" || request.scheme == "https" else {
            return nil
        }
        let pageHost = CanonicalURL(topURL)?.host ?? ""
        guard isThirdParty(host: request.host, pageHost: pageHost) else { return nil }
        var best: FirefoxCategory?
        var bestRank = Int.max
        var host = Substring(request.host)
        while true {
            for entry in entries[String(host)] ?? [] where entry.path == nil || Self.matches(entry.path, request) {
                guard let rank = FirefoxCategory.classificationOrder.firstIndex(of: entry.category), rank < bestRank
                else { continue }
                if !Self.isOwnerSite(pageHost, entry.ownerProperties) {
                    best = entry.category
                    bestRank = rank
                }
            }
            guard let dot = host.firstIndex(of: ".") else { break }
            host = host[host.index(after: dot)...]
        }
        return best
    }

    /// The category of a load described as WebKit sees it (its URL and top URL).
    public func category(for request: Request) -> FirefoxCategory? {
        category(of: request.url, topURL: request.resourceType == .topDocument ? request.url : request.topURL)
    }

    /// WebKit's third-party test: the host is not the page's registrable domain or under it.
    private func isThirdParty(host: String, pageHost: String) -> Bool {
        guard !pageHost.isEmpty else { return true }
        let site = publicSuffixList.registrableDomain(of: pageHost) ?? pageHost
        return !DomainName.host(host, isWithin: site)
    }

    /// Whether a path entry's rule (`host/path` right after the host, no port) matches the URL.
    private static func matches(_ path: String?, _ url: CanonicalURL) -> Bool {
        guard let path else { return true }
        return url.port == nil && (url.path + (url.query.map { "?" + $0 } ?? "")).lowercased().hasPrefix(path)
    }

    /// `unless-domain` with `*property` entries: the page host is a property or under one.
    private static func isOwnerSite(_ pageHost: String, _ properties: [String]) -> Bool {
        properties.contains { property in
            pageHost == property
                || (pageHost.hasSuffix(property)
                    && pageHost.utf8.dropLast(property.utf8.count).last == UInt8(ascii: "."))
        }
    }
}

public import ContentRuleList
import TrackerlessCore

/// Sites on which the user turned tracking protection off, applied without recompiling any list.
///
/// A site here is Firefox's: the host and every subdomain of it (`example.com` covers
/// `shop.example.com`). DuckDuckGo's toggle, which covers one domain with or without `www.`, is
/// TrackerDataKit's `UserAllowlist` of domains.
///
/// An `ignore-previous-rules` rule only cancels rules of its own list, so an allowlist cannot be
/// a list of its own; Firefox appends it to every list, so that each change recompiles all of
/// them. Here the compiled lists never change: ``blocklists(for:topURL:)`` leaves them all out of
/// pages of allowlisted sites (the app removes them from the web view's content controller
/// before such a navigation). ``ignoreRule`` gives Firefox's in-list rule for apps that prefer it.
///
/// ```swift
/// let allowlist = SiteAllowlist(["https://www.example.com/"])   // stored as "example.com"
/// allowlist.blocklists(for: .strict, topURL: "https://shop.example.com/")   // []
/// ```
public struct SiteAllowlist: Sendable, Hashable {
    /// The sites, normalized (lowercase host without scheme, `www.`, port or path), sorted and
    /// without duplicates.
    public let sites: [String]

    /// Creates an allowlist from entries such as `example.com`, `www.example.com` or
    /// `https://example.com/page`; entries without a usable host are left out.
    public init(_ entries: [String]) {
        var sites: Set<String> = []
        for entry in entries {
            if let site = Self.site(of: entry) { sites.insert(site) }
        }
        self.sites = sites.sorted()
    }

    /// Whether the page at `url` (or a bare host) is on an allowlisted site or a subdomain of one.
    public func contains(page url: String) -> Bool {
        guard let host = Self.host(of: url) else { return false }
        return sites.contains { DomainName.host(host, isWithin: $0) }
    }

    /// The lists to attach to the page at `url`: the level's lists, or none on an allowlisted site.
    public func blocklists(for level: ProtectionLevel, topURL url: String) -> [FirefoxBlocklist] {
        contains(page: url) ? [] : level.blocklists
    }

    /// Firefox's in-list form: an `ignore-previous-rules` rule for every URL on the allowlisted
    /// sites and their subdomains, to append to each list; nil when the allowlist is empty.
    public var ignoreRule: ContentRule? {
        guard !sites.isEmpty else { return nil }
        return ContentRule(
            trigger: Trigger(urlFilter: ".*", condition: .ifDomain(sites.map { "*" + $0 })),
            action: .ignorePreviousRules)
    }

    /// The site an entry names, as Firefox's ad-blocker exceptions normalize it: lowercase,
    /// without scheme, `www.`, port, path or trailing dot.
    private static func site(of entry: String) -> String? {
        guard var host = host(of: entry) else { return nil }
        if host.hasPrefix("www."), host.utf8.count > 4 { host = String(host.dropFirst(4)) }
        return host
    }

    /// The host of a URL or of a bare host name, lowercase, punycode; nil when there is none.
    private static func host(of text: String) -> String? {
        let trimmed = text.trimmingSpaces()
        let candidate = trimmed.contains("://") ? trimmed : "http://" + trimmed
        guard let url = CanonicalURL(candidate), !url.host.isEmpty else { return nil }
        var host = url.host
        if host.hasSuffix(".") { host.removeLast() }
        return host.isEmpty ? nil : host
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and line breaks.
    fileprivate func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[start...end])
    }
}

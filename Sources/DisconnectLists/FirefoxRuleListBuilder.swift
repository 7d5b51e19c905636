import ContentRuleList
import TrackerlessCore

/// Builds Firefox for iOS's content-blocker lists from the category lists and the entity list:
/// one rule per tracker domain, third-party loads only, except on the sites of the tracker's
/// owner.
///
/// ```swift
/// let builder = FirefoxRuleListBuilder(categoryLists: CategoryLists(disconnectList), entityList: entities)
/// for (blocklist, ruleList) in builder.ruleLists() { … ruleList.encoded() … }
/// ```
///
/// The rules are Firefox's, with its generator's faults fixed:
/// - the `url-filter` ends at the host (`[:/]`), so `tracker.com` no longer matches
///   `tracker.com.evil.net`;
/// - the owner is found by exact resource, then by parent domain, not by the first substring
///   in dictionary order (see ``EntityList/owner(of:publicSuffixList:)``);
/// - an empty category yields a list with only ``placeholderRule`` instead of silently ending
///   the generation;
/// - rules are sorted by domain, without duplicates, with sorted `unless-domain` entries, so the
///   same input always gives the same bytes.
public struct FirefoxRuleListBuilder: Sendable {
    private let trackers: [FirefoxCategory: [OwnedTracker]]

    /// Prepares the rules of every category.
    public init(categoryLists: CategoryLists, entityList: EntityList, publicSuffixList: PublicSuffixList = .bundled) {
        trackers = OwnedTracker.resolve(categoryLists, entityList, publicSuffixList: publicSuffixList)
    }

    /// The rule list of one blocklist.
    public func ruleList(for blocklist: FirefoxBlocklist) -> RuleList {
        let action: Action = blocklist.action == .block ? .block : .blockCookies
        let trackers = trackers[blocklist.category] ?? []
        guard !trackers.isEmpty else { return RuleList([Self.placeholderRule]) }
        return RuleList(trackers.map { tracker in
            ContentRule(
                trigger: Trigger(
                    urlFilter: Self.urlFilter(for: tracker.domain),
                    loadTypes: [.thirdParty],
                    condition: tracker.ownerProperties.isEmpty
                        ? nil : .unlessDomain(tracker.ownerProperties.map { "*" + $0 })),
                action: action)
        })
    }

    /// The one rule of the list of an empty category. WebKit rejects a list without rules
    /// ("Empty extension."), which is why Firefox's generator stops at an empty category; this
    /// rule keeps the file valid and does nothing: it matches only hosts under the reserved
    /// `invalid` top-level domain, and has no earlier rule to ignore.
    public static let placeholderRule = ContentRule(
        trigger: Trigger(urlFilter: #"^https?://([^/]+\.)?invalid[:/]"#), action: .ignorePreviousRules)

    /// The rule lists of all ten blocklists, in ``FirefoxBlocklist/all``'s order.
    public func ruleLists() -> [(blocklist: FirefoxBlocklist, ruleList: RuleList)] {
        FirefoxBlocklist.all.map { ($0, ruleList(for: $0)) }
    }

    /// The `url-filter` of a tracker domain: `^https?://([^/]+\.)?tracker\.com[:/]` for a domain
    /// and its subdomains; for an entry with a path, the escaped path follows the host instead
    /// of `[:/]` (as in Firefox, the port must then be absent).
    public static func urlFilter(for domain: TrackerDomain) -> String {
        var filter = #"^https?://([^/]+\.)?"# + escaped(domain.host)
        if let path = domain.path {
            filter += escaped(path)
        } else {
            filter += "[:/]"
        }
        return filter
    }

    /// `text` with the characters that are special in WebKit's url-filter escaped.
    private static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for character in text {
            if "\\^$.*+?()[]{}|".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }
}

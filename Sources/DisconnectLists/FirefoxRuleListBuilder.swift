public import ContentRuleList
public import TrackerlessCore

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
/// - the `url-filter` ends at the host (an optional port, then `/`), so `tracker.com` no longer
///   matches `tracker.com.evil.net`, nor the user name of `https://tracker.com:pw@evil.net/`;
/// - the host is found after any userinfo (`https://u:p@tracker.com/`) and may keep the final
///   dot of a fully qualified name (`https://tracker.com./`), both of which WebKit keeps in the
///   URL it matches;
/// - the owner is found by exact resource, then by parent domain, not by the first substring
///   in dictionary order (see ``EntityList/owner(of:publicSuffixList:)``);
/// - an empty category yields a list with only ``placeholderRule`` instead of silently ending
///   the generation;
/// - rules are sorted by domain, without duplicates, with sorted `unless-domain` entries, so the
///   same input always gives the same bytes.
public struct FirefoxRuleListBuilder: Sendable {
    /// The triggers of each category, built once for its `block` and `block-cookies` lists.
    private let triggers: [FirefoxCategory: [Trigger]]

    /// Prepares the rules of every category, for the WebKit of `target`.
    ///
    /// Firefox decides third party by registrable domain. Where the target's WebKit may not
    /// (Safari 15, by origin, and so the oldest target; WebKitGTK 2.44 under a top-level domain
    /// the Public Suffix List does not list), each rule's `unless-domain` also names the
    /// tracker's own site, so that a page on another host of that site still loads it.
    public init(
        categoryLists: CategoryLists, entityList: EntityList, publicSuffixList: PublicSuffixList = .bundled,
        target: WebKitTarget = .oldest
    ) {
        triggers = OwnedTracker.resolve(categoryLists, entityList, publicSuffixList: publicSuffixList).mapValues {
            $0.map { tracker in
                var unlessDomain = tracker.unlessDomain
                let site = publicSuffixList.registrableDomain(of: tracker.domain.host) ?? tracker.domain.host
                if target.mayFindOwnSiteThirdParty(site, publicSuffixList: publicSuffixList) {
                    if !tracker.ownerProperties.contains(where: { DomainName.host(site, isWithin: $0) }) {
                        unlessDomain.append("*" + site)
                        unlessDomain.sort()
                    }
                }
                return Trigger(
                    urlFilter: Self.urlFilter(for: tracker.domain),
                    loadTypes: [.thirdParty],
                    condition: unlessDomain.isEmpty ? nil : .unlessDomain(unlessDomain))
            }
        }
    }

    /// The rule list of one blocklist.
    public func ruleList(for blocklist: FirefoxBlocklist) -> RuleList {
        let action: Action = blocklist.action == .block ? .block : .blockCookies
        let triggers = triggers[blocklist.category] ?? []
        guard !triggers.isEmpty else { return RuleList([Self.placeholderRule]) }
        return RuleList(triggers.map { ContentRule(trigger: $0, action: action) })
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

    /// The rule lists a protection level compiles into each web view, in Firefox's order.
    public func ruleLists(for level: ProtectionLevel) -> [(blocklist: FirefoxBlocklist, ruleList: RuleList)] {
        level.blocklists.map { ($0, ruleList(for: $0)) }
    }

    /// The `url-filter` of a tracker domain: `^https?://([^/]+[.@])?tracker\.com\.?(:[0-9]+)?/`
    /// for a domain and its subdomains, with or without userinfo and the host's final dot; for an
    /// entry with a path, the escaped path follows the host instead of the port and `/` (as in
    /// Firefox, the port must then be absent).
    public static func urlFilter(for domain: TrackerDomain) -> String {
        var filter = #"^https?://([^/]+[.@])?"# + escaped(domain.host) + #"\.?"#
        if let path = domain.path {
            filter += escaped(path)
        } else {
            filter += "(:[0-9]+)?/"
        }
        return filter
    }

    /// `text` with the characters that are special in WebKit's url-filter escaped.
    private static func escaped(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\\"), UInt8(ascii: "^"), UInt8(ascii: "$"), UInt8(ascii: "."), UInt8(ascii: "*"),
                UInt8(ascii: "+"), UInt8(ascii: "?"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "["),
                UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "|"):
                bytes.append(UInt8(ascii: "\\"))
            default:
                break
            }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

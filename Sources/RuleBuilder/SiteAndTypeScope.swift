import ContentRuleList
import TrackerDataKit
import TrackerlessCore

/// Where a rule applies: pages on some domains (with subdomains) and requests of some types.
/// `nil` means no restriction.
struct SiteAndTypeScope: Sendable, Hashable {
    var domains: [String]?
    var types: [ResourceType]?

    init(domains: [String]?, types: [ResourceType]?) {
        self.domains = domains
        self.types = types
    }

    /// A Tracker Radar `options`/`exceptions` object as WebKit trigger limits; nil when it can
    /// never match (for example only request types WebKit never loads).
    init?(
        _ condition: Tracker.Rule.Condition?, settings: RuleListBuilder.Settings, path: @autoclosure () -> String,
        report: inout BuildReport
    ) {
        guard let condition else {
            self.init(domains: nil, types: nil)
            return
        }
        var domains: [String]?
        if let listed = condition.domains {
            domains = listed.compactMap { domain in
                guard let normalized = SiteDomain.normalized(domain) else {
                    report.skippedRules.append(.init(path: path() + ".domains", reason: "invalid domain \"\(domain.excerpt())\" left out"))
                    return nil
                }
                return normalized
            }
        }
        var types: [ResourceType]?
        if let listed = condition.types {
            var mapped: [ResourceType] = []
            for type in listed {
                for webKitType in type.webKitResourceTypes where !mapped.contains(webKitType) { mapped.append(webKitType) }
            }
            types = mapped
        }
        if domains?.isEmpty == true || types?.isEmpty == true { return nil }
        self.init(domains: domains, types: types)
    }

    /// Pages and types in both scopes; nil when there are none.
    func intersection(_ other: SiteAndTypeScope) -> SiteAndTypeScope? {
        var domains: [String]?
        switch (self.domains, other.domains) {
        case (nil, let only), (let only, nil): domains = only
        case (let left?, let right?):
            var both: [String] = []
            for domain in left where right.contains(where: { DomainName.host(domain, isWithin: $0) }) { both.append(domain) }
            for domain in right where left.contains(where: { DomainName.host(domain, isWithin: $0) }) && !both.contains(domain) {
                both.append(domain)
            }
            domains = both
        }
        var types: [ResourceType]?
        switch (self.types, other.types) {
        case (nil, let only), (let only, nil): types = only
        case (let left?, let right?): types = left.filter(right.contains)
        }
        if domains?.isEmpty == true || types?.isEmpty == true { return nil }
        return SiteAndTypeScope(domains: domains, types: types)
    }

    func rule(urlFilter: String, loadTypes: [LoadType], action: Action, settings: RuleListBuilder.Settings) -> ContentRule {
        ContentRule(
            trigger: Trigger(
                urlFilter: urlFilter,
                resourceTypes: types ?? [],
                loadTypes: loadTypes,
                condition: domains.map { settings.siteCondition(for: $0) }
            ),
            action: action
        )
    }
}

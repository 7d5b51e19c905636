import ContentRuleList
import TrackerDataKit
import TrackerlessCore

/// The privacy configuration's part of the rule list: it comes after every tracker section, so
/// that its exceptions cancel whatever blocked the request before.
extension RuleListBuilder {
    /// Request-blocklist blocks, then the exceptions that turn protection off, then the loads that
    /// are never blocked.
    /// Also returns the input of each rule.
    func configurationRules(report: inout BuildReport) -> (rules: [ContentRule], origins: [Origin]) {
        var rules: [ContentRule] = []
        var origins: [Origin] = []
        if let clickToLoadAction {
            clickToLoadExceptionRules(for: clickToLoadAction, into: &rules, origins: &origins)
        } else {
            requestBlocklistRules(into: &rules, origins: &origins, report: &report)
        }
        trackerAllowlistRules(into: &rules, origins: &origins, report: &report)

        let unprotected = ((configuration?.unprotectedTemporary ?? []).map(\.domain)
            + (configuration?.features[PrivacyConfiguration.FeatureName.contentBlocking]?.exceptions.map(\.domain) ?? []))
            .compactMap(SiteDomain.normalized)
        if !unprotected.isEmpty {
            rules.append(ContentRule(
                trigger: Trigger(urlFilter: ".*", condition: settings.siteCondition(for: Self.outermost(unprotected))),
                action: .ignorePreviousRules))
            origins.append(.configuration("unprotectedTemporary and features.contentBlocking.exceptions"))
        }
        let userAllowlisted = userAllowlist.hosts.compactMap(SiteDomain.normalized).sorted()
        if !userAllowlisted.isEmpty {
            rules.append(ContentRule(
                trigger: Trigger(urlFilter: ".*", condition: settings.siteCondition(for: userAllowlisted, includingSubdomains: false)),
                action: .ignorePreviousRules))
            origins.append(.configuration("the user allowlist"))
        }
        // The resolver decides about subresources; navigations and popups are never blocked.
        rules.append(ContentRule(trigger: Trigger(urlFilter: ".*", resourceTypes: [.topDocument, .popup]),
                                 action: .ignorePreviousRules))
        origins.append(.configuration("(the rule that never blocks navigations)"))
        return (rules, origins)
    }

    /// Whether a feature is on at all (its per-site exceptions are separate rules), as the
    /// resolver sees it: without a configuration only tracker blocking is on; with one, a feature
    /// is on when it is listed as enabled.
    func isFeatureOn(_ name: String) -> Bool {
        guard let configuration else { return name == PrivacyConfiguration.FeatureName.contentBlocking }
        return configuration.features[name]?.state == .enabled
    }

    /// Sites where a feature is switched off by its exceptions.
    func exceptionSites(of name: String) -> [String] {
        (configuration?.features[name]?.exceptions ?? []).compactMap { SiteDomain.normalized($0.domain) }
    }

    /// The site condition for a rule listed for `domains` (or all sites) less a feature's
    /// exception sites, and the exception sites inside listed sites, which a condition cannot
    /// carve out.
    func siteCondition(listed domains: [String]?, lessExceptionsOf feature: String) -> (condition: Condition?, holes: [String])? {
        let excepted = exceptionSites(of: feature)
        guard let domains else {
            return (excepted.isEmpty ? nil : settings.siteCondition(for: Self.outermost(excepted)).negated, [])
        }
        let sites = domains.compactMap(SiteDomain.normalized).filter { site in
            !excepted.contains { DomainName.host(site, isWithin: $0) }
        }
        guard !sites.isEmpty else { return nil }
        let holes = excepted.filter { exception in sites.contains { DomainName.host(exception, isWithin: $0) } }
        return (settings.siteCondition(for: Self.outermost(sites)), holes)
    }

    /// The pages of a Click-to-Load list where its embeds load anyway: the `clickToLoad`
    /// feature's exception sites, and the sites of the entities that list the action (their own
    /// embeds), as the resolver decides.
    private func clickToLoadExceptionRules(for action: String, into rules: inout [ContentRule], origins: inout [Origin]) {
        guard let configuration else { return }
        let feature = PrivacyConfiguration.FeatureName.clickToLoad
        var sites = exceptionSites(of: feature)
        for (entity, settings) in configuration.clickToLoadEntities where settings.ruleActions.contains(action) {
            sites += trackerData.domains.compactMap { $0.value == entity ? SiteDomain.normalized($0.key) : nil }
        }
        guard !sites.isEmpty else { return }
        rules.append(ContentRule(
            trigger: Trigger(urlFilter: ".*", condition: settings.siteCondition(for: Self.outermost(sites))),
            action: .ignorePreviousRules))
        origins.append(.configuration(
            JSONPath.root.appending(key: "features").appending(key: feature).description + " (exceptions and entities)"))
    }

    private func trackerAllowlistRules(into rules: inout [ContentRule], origins: inout [Origin], report: inout BuildReport) {
        guard isFeatureOn(PrivacyConfiguration.FeatureName.trackerAllowlist) else { return }
        for entry in configuration?.trackerAllowlist.entries ?? [] {
            for (index, rule) in entry.rules.enumerated() {
                let path = JSONPath.root.appending(key: "features").appending(key: "trackerAllowlist").appending(key: "settings")
                    .appending(key: "allowlistedTrackers").appending(key: entry.trackerDomain).appending(key: "rules").appending(index: index).description
                guard let host = SiteDomain.normalized(rule.host) else {
                    report.skippedRules.append(.init(path: path, reason: "invalid host in \"\(rule.rule.excerpt())\""))
                    continue
                }
                let prefix = rule.pathPrefix
                let urlFilter = HostScope.tracker(domain: host).hostPattern
                    + (prefix.isEmpty ? HostScope.hostEnd : HostScope.optionalPort + Self.escapedLiteral(prefix))
                guard let (condition, holes) = siteCondition(
                    listed: rule.appliesToAllSites ? nil : rule.domains,
                    lessExceptionsOf: PrivacyConfiguration.FeatureName.trackerAllowlist)
                else { continue }
                if !holes.isEmpty {
                    report.approximations.append(.init(
                        path: path, reason: "trackerAllowlist exception sites inside the rule's sites stay allowlisted"))
                }
                rules.append(ContentRule(trigger: Trigger(urlFilter: urlFilter, condition: condition), action: .ignorePreviousRules))
                origins.append(.configuration(path))
            }
        }
    }

    private func requestBlocklistRules(into rules: inout [ContentRule], origins: inout [Origin], report: inout BuildReport) {
        guard isFeatureOn(PrivacyConfiguration.FeatureName.requestBlocklist) else { return }
        let blocklist = configuration?.requestBlocklist.blockedRequests ?? [:]
        for key in blocklist.keys.sorted() {
            for (index, rule) in (blocklist[key] ?? []).enumerated() {
                let path = JSONPath.root.appending(key: "features").appending(key: "requestBlocklist").appending(key: "settings")
                    .appending(key: "blockedRequests").appending(key: key).appending(key: "rules").appending(index: index).description
                // The resolver looks rules up by the request's eTLD+1: a rule for a host under
                // another registrable domain never matches.
                guard let host = SiteDomain.normalized(rule.host),
                      (publicSuffixList.registrableDomain(of: host) ?? host) == key
                else {
                    report.skippedRules.append(.init(path: path, reason: "host of \"\(rule.rule.excerpt())\" is not under \(key.excerpt())"))
                    continue
                }
                var urlFilter = HostScope.tracker(domain: host).hostPattern
                if let port = rule.port { urlFilter += ":\(port)" }
                urlFilter += rule.pathPattern.isEmpty ? "/" : Self.wildcardPattern(rule.pathPattern)
                guard let (condition, holes) = siteCondition(
                    listed: rule.appliesToAllSites ? nil : rule.domains,
                    lessExceptionsOf: PrivacyConfiguration.FeatureName.requestBlocklist)
                else { continue }
                rules.append(ContentRule(
                    trigger: Trigger(urlFilter: urlFilter, urlFilterIsCaseSensitive: true, condition: condition),
                    action: .block))
                origins.append(.configuration(path))
                if !holes.isEmpty {
                    report.approximations.append(.init(
                        path: path,
                        reason: "exception sites inside the rule's sites also cancel tracker blocks of the same URLs there"))
                    rules.append(ContentRule(
                        trigger: Trigger(urlFilter: urlFilter, urlFilterIsCaseSensitive: true,
                                         condition: settings.siteCondition(for: holes)),
                        action: .ignorePreviousRules))
                    origins.append(.configuration(path))
                }
            }
        }
    }

    /// Drops domains that are inside another domain of the list (subdomains are included anyway).
    static func outermost(_ domains: [String]) -> [String] {
        // Most entities own one domain, and most of the rest a few: compare those pairwise
        // instead of hashing every parent domain of every one.
        if domains.count == 1 { return domains }
        if domains.count <= 8 {
            var sorted = domains.sorted()
            sorted.removeAll { domain in
                domains.contains { other in other != domain && DomainName.host(domain, isWithin: other) }
            }
            var unique: [String] = []
            for domain in sorted where unique.last != domain { unique.append(domain) }
            return unique
        }
        // Parents as Strings (short ones need no allocation): hashing Substrings cost far more.
        let unique = Set(domains)
        return unique.filter { domain in
            DomainName.firstParentDomain(of: domain) { unique.contains($0) } == nil
        }.sorted()
    }

    /// A plain string as a url-filter that matches it literally.
    static func escapedLiteral(_ text: String) -> String {
        var output: [UInt8] = []
        for byte in text.utf8 where byte < 0x80 { TrackerRuleRegex.appendLiteral(byte, to: &output) }
        return String(decoding: output, as: UTF8.self)
    }

    /// A request-blocklist path with `*` wildcards (and an implicit trailing one) as a url-filter.
    static func wildcardPattern(_ text: String) -> String {
        text.split(separator: "*", omittingEmptySubsequences: false)
            .map { escapedLiteral(String($0)) }
            .joined(separator: ".*")
    }
}

extension Condition {
    /// The `unless-` form of an `if-` condition.
    var negated: Condition {
        switch self {
        case .ifDomain(let values): .unlessDomain(values)
        case .ifTopURL(let values): .unlessTopURL(values)
        case .ifFrameURL(let values): .unlessFrameURL(values)
        case .unlessDomain(let values): .ifDomain(values)
        case .unlessTopURL(let values): .ifTopURL(values)
        case .unlessFrameURL(let values): .ifFrameURL(values)
        }
    }
}

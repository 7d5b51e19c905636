import ContentRuleList
public import TrackerDataKit
public import TrackerlessCore

/// Builds the WebKit rule list of third-party tracking-cookie protection: `block-cookies` on the
/// loads whose cookies `CookieProtection` strips, so that WebKit sends them without `Cookie`
/// and stores none of their `Set-Cookie`.
///
/// ```swift
/// let build = CookieRules(trackerData: tds, configuration: config).build()
/// let json = build.ruleLists[0].encoded()   // install beside the blocking lists
/// ```
///
/// Install the lists as lists of their own: they end with `ignore-previous-rules` exceptions,
/// which would cancel tracker blocks if the rules were appended to a blocking list. The list is:
/// 1. one section per tracker, sorted by domain: `block-cookies` for every URL of the tracker's
///    hosts, `load-type: third-party` (the same-site half of the resolver's first-party test),
///    `unless-top-url` the sites of the tracker's company (the entity half). A tracker nested in
///    another's domain comes after it and starts by cancelling the outer one for its hosts;
/// 2. one section per CNAME-cloaked host whose target is a tracker: `block-cookies` for exactly
///    that host, any load type, unless the page is on that very host, on the target's site, or a
///    site of the target tracker's company;
/// 3. `ignore-previous-rules` for the feature's `excludedCookieDomains` (by request host), its
///    exceptions and `unprotectedTemporary` (by page site), and user-allowlisted sites (exact).
///
/// As for the blocking lists, a company with many trackers and sites gets lists of its own, where
/// one `ignore-previous-rules` naming its sites replaces the `unless-top-url` of each of its
/// trackers (``RuleListBuilder/Settings/minimumBytesSavedByEntityList``).
///
/// WebKit's `block-cookies` keeps cookies out of the load itself: no `Cookie` is sent and no
/// `Set-Cookie` is stored, for a frame's document load too. It does not reach `document.cookie`
/// (measured in WebKitGTK: a script in a blocked tracker frame still reads and writes cookies), so
/// blocking that API, as `CookieProtection.decision(forFrameURL:topURL:)` decides, needs a
/// user script.
public struct CookieRules: Sendable {
    /// The tracker blocklist.
    public let trackerData: TrackerData
    /// The privacy configuration, whose cookie feature decides (see `CookieProtection.Settings`);
    /// nil means on everywhere.
    public let configuration: PrivacyConfiguration?
    /// Sites where the user turned protection off.
    public let userAllowlist: UserAllowlist
    /// Output shape: how page conditions are written and how many rules fit in a list.
    public let settings: RuleListBuilder.Settings
    /// Registrable domains, for the sites WebKit already treats as first party.
    public let publicSuffixList: PublicSuffixList

    /// A builder for the given inputs.
    public init(
        trackerData: TrackerData,
        configuration: PrivacyConfiguration? = nil,
        userAllowlist: UserAllowlist = UserAllowlist(),
        settings: RuleListBuilder.Settings = RuleListBuilder.Settings(),
        publicSuffixList: PublicSuffixList = .bundled
    ) {
        self.trackerData = trackerData
        self.configuration = configuration
        self.userAllowlist = userAllowlist
        self.settings = settings
        self.publicSuffixList = publicSuffixList
    }

    /// Builds the lists: one, or more when the rules exceed ``RuleListBuilder/Settings/maximumRulesPerList``
    /// (each then repeats the exceptions). With the feature off the one list changes nothing.
    ///
    /// Every list is checked as the target's WebKit would check it; an input whose rule it would
    /// refuse is left out, and the report's ``BuildReport/skippedRules`` names it by its JSON
    /// path (`trackers["x.com"]`, `cnames["a.example"]`, the configuration's entry), as
    /// ``RuleListBuilder/build()`` does for the blocking rules.
    public func build() -> RuleListBuild {
        RuleListBuilder.leavingOutRefusedInputs(target: settings.target, ruleKind: "cookie rule") { build(leavingOut: $0) }
    }

    /// ``build()`` without the rules of `leftOut`, with the input of every rule of every list.
    func build(leavingOut leftOut: Set<RuleListBuilder.Origin>) -> (RuleListBuild, [[RuleListBuilder.Sections.Span]]) {
        var report = BuildReport()
        report.trackerCount = trackerData.trackers.count
        let cookieSettings = CookieProtection.Settings(configuration: configuration)
        var groups = [RuleListBuilder.ListGroup(isMain: true)]
        var tail: [ContentRule] = []
        var tailOrigins: [RuleListBuilder.Origin] = []
        if cookieSettings.isEnabled {
            for (rule, origin) in exceptionRules(cookieSettings) where !leftOut.contains(origin) {
                tail.append(rule)
                tailOrigins.append(origin)
            }
            let sitesByEntity = self.sitesByEntity()
            // An entity with many trackers and sites gets lists of its own (see
            // RuleListBuilder+EntityLists.swift), each ended by one exception for its sites.
            // By bytes alone: the choice by site entries is measured for the blocking lists'
            // compile time, not for these.
            var byBytes = settings
            byBytes.entityListsForMostSiteEntries = 0
            let separated = RuleListBuilder.entitiesWithOwnLists(
                trackerData: trackerData, tailByteCount: RuleListBuilder.approximateByteCount(of: tail), settings: byBytes
            ) { owner in
                sitesByEntity[owner].map { sites in (sites.count, sites.reduce(0) { $0 + settings.sitePattern(for: $1).utf8.count }) }
            }
            var sections = RuleListBuilder.SectionGroups(separated: separated, leftOut: leftOut, recordsParts: settings.recordsRuleSources)
            // Hosts whose cookies are always kept need no block: the exceptions would cancel it.
            let excluded = cookieSettings.excludedCookieDomains.compactMap(SiteDomain.normalized)
            func isExcluded(_ host: String) -> Bool { excluded.contains { DomainName.host(host, isWithin: $0) } }
            appendTrackerSections(to: &sections, sitesByEntity: sitesByEntity, skipping: isExcluded, report: &report)
            appendCloakedSections(to: &sections, sitesByEntity: sitesByEntity, skipping: isExcluded, report: &report)
            groups = sections.listGroups { entity in
                sitesByEntity[entity].map { sites in
                    ContentRule(trigger: Trigger(urlFilter: ".*", condition: settings.siteCondition(for: sites)), action: .ignorePreviousRules)
                }
            }
            report.approximations += nestedSiteNotes()
        }
        for index in groups.indices { settings.target.lower(&groups[index].sections, report: &report) }
        settings.target.lower(&tail, origins: &tailOrigins, report: &report)
        do throws(RuleListBuildError) {
            let limits = RuleListBuilder.ListLimits(
                maximum: settings.maximumRulesPerList, byteBudget: settings.byteBudget, kind: "cookie")
            let packed = try RuleListBuilder.split(
                &groups, tail: tail, tailOrigins: tailOrigins, limits: limits, target: settings.target, report: &report)
            var made = RuleListBuild(ruleLists: packed.lists, report: report)
            if settings.recordsRuleSources {
                made.sources = RuleListBuilder.sources(of: packed.lists, spans: packed.origins, parts: packed.parts)
            }
            return (made, packed.origins)
        } catch {
            return (RuleListBuild(refusal: error, report: report), [])
        }
    }

    // MARK: Sections

    /// The trackers' sections; those of an entity with lists of its own leave its sites to the
    /// exception that ends them.
    private func appendTrackerSections(
        to groups: inout RuleListBuilder.SectionGroups, sitesByEntity: [String: [String]], skipping isExcluded: (String) -> Bool,
        report: inout BuildReport
    ) {
        var conditions: [String: Condition?] = [:]
        // Each company's sites with their page patterns, made once: the condition of each of its
        // trackers is that list less the tracker's own site.
        var patternsByOwner: [String: [(site: String, pattern: String)]] = [:]
        for key in trackerData.trackerKeysInSectionOrder() {
            guard let tracker = trackerData.trackers[key] else { continue }
            guard let domain = SiteDomain.normalized(key) else {
                report.skippedRules.append(.init(path: #"trackers["\#(key)"]"#, reason: "invalid tracker domain left out"))
                continue
            }
            if isExcluded(domain) { continue }
            let scope = HostScope.tracker(domain: domain)
            let trackerSite = publicSuffixList.registrableDomain(of: domain) ?? domain
            let owner = tracker.ownerName ?? ""
            let inOwnLists = groups.group(ofOwner: owner) != nil
            let conditionKey = owner + "\n" + trackerSite
            let condition: Condition?
            if let cached = conditions[conditionKey] {
                condition = cached
            } else {
                // Pages WebKit already sees as the tracker's own site need no entry.
                let patterns: [(site: String, pattern: String)]
                if inOwnLists {
                    patterns = []
                } else if let known = patternsByOwner[owner] {
                    patterns = known
                } else {
                    patterns = (sitesByEntity[owner] ?? []).map { ($0, settings.sitePattern(for: $0, includingSubdomains: true)) }
                    patternsByOwner[owner] = patterns
                }
                var values: [String]
                if settings.namesAsFirstParty(trackerSite: trackerSite, publicSuffixList: publicSuffixList) {
                    // WebKit may find the tracker's own site third party: it is named too.
                    values = patterns.map(\.pattern)
                    let owned = sitesByEntity[owner] ?? []
                    if !owned.contains(where: { DomainName.host(trackerSite, isWithin: $0) }) {
                        values.append(settings.sitePattern(for: trackerSite, includingSubdomains: true))
                    }
                } else {
                    values = patterns.filter { !DomainName.host($0.site, isWithin: trackerSite) }.map(\.pattern)
                }
                condition = values.isEmpty ? nil : unlessSite(patterns: values)
                conditions[conditionKey] = condition
            }
            groups.appendTrackerSection(
                key: key, domain: domain, owner: owner, hasEnclosing: trackerData.hasEnclosingTracker(domain),
                trackers: trackerData.trackers
            ) { rules, _ in
                rules.append(ContentRule(
                    trigger: Trigger(urlFilter: scope.anchor, loadTypes: [.thirdParty], condition: condition),
                    action: .blockCookies))
            }
        }
    }

    /// The CNAMEs' sections, each for exactly its host; those of an entity with lists of its own
    /// leave its sites to the exception that ends them.
    private func appendCloakedSections(
        to groups: inout RuleListBuilder.SectionGroups, sitesByEntity: [String: [String]], skipping isExcluded: (String) -> Bool,
        report: inout BuildReport
    ) {
        for cloaked in trackerData.cnames.keys.sorted() {
            guard let target = trackerData.cnames[cloaked] else { continue }
            // A direct tracker match wins over the CNAME.
            guard trackerData.tracker(forHost: cloaked) == nil, let tracker = trackerData.tracker(forHost: target) else {
                continue
            }
            guard let host = SiteDomain.normalized(cloaked), let targetHost = SiteDomain.normalized(target) else {
                report.skippedRules.append(.init(path: #"cnames["\#(cloaked)"]"#, reason: "invalid host name left out"))
                continue
            }
            if isExcluded(host) { continue }
            let scope = HostScope.cloaked(host: host, target: targetHost)
            let targetSite = publicSuffixList.registrableDomain(of: targetHost) ?? targetHost
            let owner = tracker.ownerName ?? ""
            let companySites = groups.group(ofOwner: owner) != nil ? []
                : (sitesByEntity[owner] ?? []).filter { !DomainName.host($0, isWithin: targetSite) }
            let pages = [(host, false), (targetSite, true)] + companySites.map { ($0, true) }
            groups.appendCloakedSection(cloaked, owner: owner) { rules, _ in
                rules.append(ContentRule(trigger: Trigger(urlFilter: scope.anchor, condition: unlessSite(pages)), action: .blockCookies))
            }
        }
    }

    // MARK: Exceptions

    /// The exceptions, each with the input it comes from.
    private func exceptionRules(_ cookieSettings: CookieProtection.Settings) -> [(ContentRule, RuleListBuilder.Origin)] {
        let feature = JSONPath.root.appending(key: "features")
            .appending(key: cookieSettings.decidingFeature ?? CookieProtection.Settings.featureName)
        var rules: [(ContentRule, RuleListBuilder.Origin)] = []
        let excluded = RuleListBuilder.outermost(cookieSettings.excludedCookieDomains.compactMap(SiteDomain.normalized))
        let excludedPath = feature.appending(key: "settings").appending(key: "excludedCookieDomains").description
        for domain in excluded {
            rules.append((
                ContentRule(trigger: Trigger(urlFilter: HostScope.tracker(domain: domain).anchor), action: .ignorePreviousRules),
                .configuration(excludedPath + " (\(domain))")))
        }
        let unprotected = RuleListBuilder.outermost(cookieSettings.unprotectedDomains.compactMap(SiteDomain.normalized))
        if !unprotected.isEmpty {
            rules.append((
                ContentRule(trigger: Trigger(urlFilter: ".*", condition: settings.siteCondition(for: unprotected)), action: .ignorePreviousRules),
                .configuration(feature.appending(key: "exceptions").description + " and unprotectedTemporary")))
        }
        let userAllowlisted = userAllowlist.hosts.compactMap(SiteDomain.normalized).sorted()
        if !userAllowlisted.isEmpty {
            rules.append((
                ContentRule(
                    trigger: Trigger(urlFilter: ".*", condition: settings.siteCondition(for: userAllowlisted, includingSubdomains: false)),
                    action: .ignorePreviousRules),
                .configuration("the user allowlist")))
        }
        return rules
    }

    // MARK: Helpers

    /// "The page is on none of these sites", each with or without its subdomains.
    private func unlessSite(_ sites: [(domain: String, includingSubdomains: Bool)]) -> Condition {
        unlessSite(patterns: sites.map { settings.sitePattern(for: $0.domain, includingSubdomains: $0.includingSubdomains) })
    }

    /// "The page matches none of these page patterns" (``RuleListBuilder/Settings/sitePattern(for:includingSubdomains:)``).
    private func unlessSite(patterns values: [String]) -> Condition {
        switch settings.siteConditionStyle {
        case .ifDomain: return .unlessDomain(values)
        case .topURL: return .unlessTopURL(values)
        }
    }

    /// The sites (outermost domains) that `domains` gives to each entity: the pages whose owner
    /// the resolver finds to be that entity.
    private func sitesByEntity() -> [String: [String]] {
        var sites: [String: [String]] = [:]
        for (domain, entity) in trackerData.domains {
            if let site = SiteDomain.normalized(domain) { sites[entity, default: []].append(site) }
        }
        return sites.mapValues { RuleListBuilder.outermost($0) }
    }

    /// Domains listed for one company inside a domain listed for another: their pages belong to
    /// the inner company, but a page condition on the outer domain covers them too, so trackers
    /// of the outer company keep their cookies there.
    private func nestedSiteNotes() -> [BuildReport.Note] {
        var notes: [BuildReport.Note] = []
        for (domain, entity) in trackerData.domains {
            for parent in DomainName.parentDomains(of: domain) {
                guard let outer = trackerData.domains[parent] else { continue }
                if outer != entity {
                    notes.append(.init(
                        path: #"domains["\#(domain)"]"#,
                        reason: "pages of \(domain) (\(entity)) keep the cookies of trackers of \(outer), like pages of \(parent)"))
                }
                break
            }
        }
        return notes.sorted { $0.path < $1.path }
    }

}

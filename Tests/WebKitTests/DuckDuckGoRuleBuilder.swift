import ContentRuleList
import TrackerData

/// A test-only port of DuckDuckGo's rule builder (TrackerRadarKit's `ContentBlockerRulesBuilder`,
/// 2026), written from the description in `shared/research/duckduckgo.md` §2.1–2.7, so that its
/// rules can be run through real WebKit next to ours on the same reference suites.
///
/// It reproduces the builder's choices, including the ones that make reference tests fail:
/// groups per tds rule sorted by size (tds order lost), options that become unconditional
/// ignores, tds regexes anchored at the host but not port-tolerant, CNAME copies that keep the
/// target's regexes, and the resource-type map that drops what it does not know.
///
/// One deliberate difference: DuckDuckGo iterates `trackers` and `cnames` as Swift dictionaries,
/// whose order changes from one launch to the next. Here both are sorted by key, so the output
/// (and the pass count measured from it) is the same on every run.
struct DuckDuckGoRuleBuilder: Sendable {
    /// `subDomainPrefix`: any scheme, then an optional run of subdomains (`[^:/]` includes dots).
    static let subdomainPrefix = #"^[^:]+://+([^:/]+\.)?"#
    /// `domainMatchSuffix`: the host ends at a port or a path.
    static let domainMatchSuffix = "[:/]"

    /// The blocklist.
    var trackerData: TrackerData

    /// The rule list DuckDuckGo would compile: tracker rules, CNAME copies, then the exception
    /// rules (§2.2).
    ///
    /// - Parameters:
    ///   - userUnprotectedDomains: sites the user unprotected, matched exactly (no `*`).
    ///   - temporaryUnprotectedDomains: `unprotectedTemporary` plus contentBlocking exceptions,
    ///     each matched with its subdomains.
    ///   - trackerAllowlist: the privacy configuration's tracker allowlist.
    func build(
        userUnprotectedDomains: [String] = [], temporaryUnprotectedDomains: [String] = [],
        trackerAllowlist: TrackerAllowlist? = nil
    ) -> RuleList {
        var rules: [ContentRule] = []
        for domain in trackerData.trackers.keys.sorted() {
            guard let tracker = trackerData.trackers[domain] else { continue }
            rules += trackerRules(tracker, domain: tracker.domain, loadTypes: [.thirdParty])
        }
        for cloaked in trackerData.cnames.keys.sorted() {
            guard let target = trackerData.cnames[cloaked], let tracker = tracker(forCNAMETarget: target) else {
                continue
            }
            // The copy is the whole tracker under the cloaked host's name (§2.6).
            rules += trackerRules(tracker, domain: cloaked, loadTypes: [.firstParty, .thirdParty])
        }
        rules += exceptionRules(
            userUnprotectedDomains: userUnprotectedDomains, temporaryUnprotectedDomains: temporaryUnprotectedDomains,
            trackerAllowlist: trackerAllowlist)
        return RuleList(rules)
    }

    // MARK: - Trackers (§2.3)

    /// The default rules, then the tds rules' groups sorted by size (largest first, stable) and
    /// flattened, without exact duplicates.
    func trackerRules(_ tracker: Tracker, domain: String, loadTypes: [LoadType]) -> [ContentRule] {
        let ownerDomains = relatedDomains(of: tracker)
        var rules: [ContentRule] = []
        let blocksByDefault = tracker.defaultAction == .block
        if blocksByDefault {
            let filter = Self.subdomainPrefix + Self.escaped(domain) + Self.domainMatchSuffix
            rules.append(ContentRule(
                trigger: Trigger(urlFilter: filter, loadTypes: loadTypes, condition: ownerDomains.map(Condition.unlessDomain)),
                action: .block))
            rules.append(ContentRule(
                trigger: Trigger(urlFilter: filter, resourceTypes: [.popup], loadTypes: loadTypes, loadContexts: [.topFrame]),
                action: .ignorePreviousRules))
        }
        let groups = tracker.rules.compactMap { rule -> [ContentRule]? in
            // Rules with an action DuckDuckGo cannot decode never reach its builder.
            if case .unsupported? = rule.action { return nil }
            return blocksByDefault
                ? groupForBlockingTracker(rule, ownerDomains: ownerDomains, loadTypes: loadTypes)
                : groupForIgnoringTracker(rule, ownerDomains: ownerDomains, loadTypes: loadTypes)
        }
        let sorted = groups.enumerated().sorted { left, right in
            left.element.count != right.element.count
                ? left.element.count > right.element.count : left.offset < right.offset
        }
        var seen: Set<ContentRule> = []
        for rule in sorted.flatMap(\.element) where seen.insert(rule).inserted {
            rules.append(rule)
        }
        return rules
    }

    /// The table of §2.3 for a tracker whose default is block.
    private func groupForBlockingTracker(
        _ rule: Tracker.Rule, ownerDomains: [String]?, loadTypes: [LoadType]
    ) -> [ContentRule] {
        let filter = Self.normalized(rule.rule)
        if let options = rule.options, let exceptions = rule.exceptions {
            return [
                ignorePrevious(filter, matching: nil, loadTypes: loadTypes),
                block(filter, matching: options),
                ignorePrevious(filter, matching: exceptions, loadTypes: loadTypes),
            ]
        }
        if rule.action == .ignore {
            return [ignorePrevious(filter, matching: rule.options, loadTypes: loadTypes)]
        }
        if let options = rule.options {
            return [ignorePrevious(filter, matching: nil, loadTypes: loadTypes), block(filter, matching: options)]
        }
        if let exceptions = rule.exceptions {
            return [ignorePrevious(filter, matching: exceptions, loadTypes: loadTypes)]
        }
        return [block(filter, unlessDomains: ownerDomains, loadTypes: loadTypes)]
    }

    /// The table of §2.3 for a tracker whose default is ignore (or missing or unknown).
    private func groupForIgnoringTracker(
        _ rule: Tracker.Rule, ownerDomains: [String]?, loadTypes: [LoadType]
    ) -> [ContentRule] {
        let filter = Self.normalized(rule.rule)
        if rule.action == .ignore {
            return [
                block(filter, unlessDomains: ownerDomains, loadTypes: loadTypes),
                ignorePrevious(filter, matching: rule.options, loadTypes: loadTypes),
            ]
        }
        switch (rule.options, rule.exceptions) {
        case (nil, nil):
            return [
                block(filter, unlessDomains: ownerDomains, loadTypes: loadTypes),
                ContentRule(
                    trigger: Trigger(urlFilter: filter, resourceTypes: [.popup], loadTypes: loadTypes, loadContexts: [.topFrame]),
                    action: .ignorePreviousRules),
            ]
        case (let options?, let exceptions?):
            return [block(filter, matching: options), ignorePrevious(filter, matching: exceptions, loadTypes: loadTypes)]
        case (let options?, nil):
            return [block(filter, matching: options)]
        case (nil, let exceptions?):
            return [
                block(filter, unlessDomains: ownerDomains, loadTypes: loadTypes),
                ignorePrevious(filter, matching: exceptions, loadTypes: loadTypes),
            ]
        }
    }

    /// A plain block: the owner entity's sites are excepted by `unless-domain`.
    private func block(_ filter: String, unlessDomains: [String]?, loadTypes: [LoadType]) -> ContentRule {
        ContentRule(
            trigger: Trigger(urlFilter: filter, loadTypes: loadTypes, condition: unlessDomains.map(Condition.unlessDomain)),
            action: .block)
    }

    /// A block scoped by options: always third-party only and without the entity exception, even
    /// on CNAME copies (DuckDuckGo's factory for it takes no load types).
    private func block(_ filter: String, matching: Tracker.Rule.Condition) -> ContentRule {
        ContentRule(
            trigger: Trigger(
                urlFilter: filter, resourceTypes: Self.resourceTypes(matching.types), loadTypes: [.thirdParty],
                condition: Self.ifDomain(matching.domains)),
            action: .block)
    }

    private func ignorePrevious(_ filter: String, matching: Tracker.Rule.Condition?, loadTypes: [LoadType]) -> ContentRule {
        ContentRule(
            trigger: Trigger(
                urlFilter: filter, resourceTypes: Self.resourceTypes(matching?.types), loadTypes: loadTypes,
                condition: Self.ifDomain(matching?.domains)),
            action: .ignorePreviousRules)
    }

    /// `*` + each domain of the tracker owner's entity, or nil when the entity is unknown.
    private func relatedDomains(of tracker: Tracker) -> [String]? {
        trackerData.entities[tracker.owner?.name ?? ""].map { $0.domains.map { "*" + $0 } }
    }

    /// The tracker whose domain is the CNAME target or one of its parent domains (§2.6).
    private func tracker(forCNAMETarget target: String) -> Tracker? {
        var labels = target.split(separator: ".", omittingEmptySubsequences: false)
        while labels.count > 1 {
            if let tracker = trackerData.trackers[labels.joined(separator: ".")] { return tracker }
            labels.removeFirst()
        }
        return nil
    }

    // MARK: - Exceptions (§2.5)

    private func exceptionRules(
        userUnprotectedDomains: [String], temporaryUnprotectedDomains: [String], trackerAllowlist: TrackerAllowlist?
    ) -> [ContentRule] {
        var rules: [ContentRule] = []
        let sites = userUnprotectedDomains + temporaryUnprotectedDomains.map { "*" + $0 }
        if !sites.isEmpty {
            rules.append(ContentRule(
                trigger: Trigger(urlFilter: ".*", loadTypes: [.firstParty, .thirdParty], condition: .ifDomain(sites)),
                action: .ignorePreviousRules))
        }
        for entry in trackerAllowlist?.entries ?? [] {
            for rule in entry.rules where !rule.domains.isEmpty {
                let condition: Condition? = rule.domains.contains("<all>") ? nil : .ifDomain(rule.domains.map { "*" + $0 })
                rules.append(ContentRule(
                    trigger: Trigger(
                        urlFilter: Self.allowlistFilter(rule.rule), loadTypes: [.firstParty, .thirdParty],
                        condition: condition),
                    action: .ignorePreviousRules))
            }
        }
        return rules
    }

    // MARK: - Regexes (§2.1)

    /// A tds rule regex, verbatim, anchored at the host unless it already starts with "http".
    static func normalized(_ rule: String) -> String {
        rule.hasPrefix("http") ? rule : subdomainPrefix + rule
    }

    /// `makeRegexpFilter`: a port allowed before the first `/`, escaped, anchored, open-ended.
    static func allowlistFilter(_ rule: String) -> String {
        var rule = rule
        if let slash = rule.firstIndex(of: "/") { rule.insert(contentsOf: "(:[0-9]+)?", at: slash) }
        return subdomainPrefix + escaped(rule) + ".*"
    }

    /// Escapes backslash, dot and slash only.
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\\": result += #"\\"#
            case ".": result += #"\."#
            case "/": result += #"\/"#
            default: result.append(character)
            }
        }
        return result
    }

    // MARK: - Conditions (§2.7)

    /// `resourceMapping`: five tds types have a WebKit type; every other type is dropped.
    static func resourceTypes(_ types: [RequestType]?) -> [ResourceType] {
        (types ?? []).compactMap { type in
            switch type.rawValue {
            case "script": .script
            case "xmlhttprequest": .raw
            case "subdocument": .document
            case "image": .image
            case "stylesheet": .styleSheet
            default: nil
            }
        }
    }

    private static func ifDomain(_ domains: [String]?) -> Condition? {
        domains.map { .ifDomain($0.map { "*" + $0 }) }
    }
}

import Foundation
public import TrackerlessCore

/// Decides what to do with a request made by a page, the way WebKit should when given the rule
/// lists built from the same inputs: the reference semantics of this SDK.
///
/// ```swift
/// let resolver = TrackerResolver(trackerData: tds, surrogates: surrogates, privacyConfiguration: config)
/// let decision = resolver.decision(
///     forRequestURL: "https://www.google-analytics.com/analytics.js",
///     topURL: "https://example.com/", type: .script)
/// decision?.action   // .redirect(surrogate: "analytics.js")
/// decision?.reason   // .matchedRuleSurrogate
/// ```
///
/// ## The decision procedure
/// `decision(forRequestURL:topURL:type:)` runs these steps in order; the
/// first that decides wins.
///
/// 1. **Find the tracker.** Walk the request host (without the final dot of a fully qualified
///    name; userinfo is never part of the host) and its parents in `trackers`. Only if that
///    finds nothing, look the *exact* request host up in `cnames` (subdomains of a cloaked host
///    are not cloaked) and walk the CNAME target and its parents in `trackers`; the request URL
///    is then rewritten to the target host, keeping scheme, path and query. A direct tracker
///    match always wins over a CNAME.
/// 2. **Protection off for the site.** If the site host is in the ``UserAllowlist`` (exact host):
///    reason ``BlockingDecision/Reason-swift.enum/userAllowlist``. If the privacy configuration's
///    `contentBlocking` is not enabled for the site (disabled, missing, a feature exception, or
///    `unprotectedTemporary`, all covering subdomains):
///    ``BlockingDecision/Reason-swift.enum/unprotectedDomain``. Action `ignore` for a tracker,
///    nil otherwise. Nothing else applies, not even the request blocklist.
/// 3. **Request blocklist.** Unless the request is a navigation (`main_frame`), the
///    `requestBlocklist` feature is off for the site, or the tracker allowlist (step 6) covers
///    the request: a matching ``RequestBlocklist`` rule blocks it, tracker or not, first party or
///    not. Reason ``BlockingDecision/Reason-swift.enum/requestBlocklist``.
/// 4. **Not a tracker.** No tracker from step 1: action nil,
///    ``BlockingDecision/Reason-swift.enum/noMatch``.
/// 5. **Navigation.** A `main_frame` request is never blocked:
///    ``BlockingDecision/Reason-swift.enum/mainFrame``.
/// 6. **First party.** `ignore` with ``BlockingDecision/Reason-swift.enum/firstParty`` when the
///    tracker owner's entity is the site's entity (the site host's nearest listed domain in
///    `domains`), or — for a tracker found directly, not through a CNAME — when the request and
///    the site have the same eTLD+1 (what WebKit's `third-party` load type means).
/// 7. **Tracker allowlist.** When the `trackerAllowlist` feature is on for the site and a
///    ``TrackerAllowlist`` rule matches the original request URL and the site: `ignore`,
///    ``BlockingDecision/Reason-swift.enum/trackerAllowlist``.
/// 8. **Rules, first applicable wins.** For each of the tracker's rules in order:
///    - skip a rule with an unsupported action, or whose regular expression does not compile
///      (reported in ``warnings``);
///    - skip a Click-to-Load rule (`block-ctl-*`) whose action does not block here: it is one of
///      the decision's `userUnblockedRuleActions` (the user clicked to load that embed on the
///      page), or, with a privacy configuration, the `clickToLoad` feature is off for the site,
///      no enabled entity of its `settings` lists the action, or the site's own entity lists it;
///    - skip it unless its regular expression matches the request URL without port and fragment
///      (after step 1's rewriting), case-insensitively and anywhere in the URL;
///    - skip it if it has `options` and they do not match (fall through to the next rule);
///      this holds for `action: ignore` rules too;
///    - `action: ignore`: `ignore`, ``BlockingDecision/Reason-swift.enum/matchedRuleIgnore``;
///    - `exceptions` matching: `ignore`, ``BlockingDecision/Reason-swift.enum/matchedRuleException``;
///    - a `surrogate` that exists in the given ``Surrogates``: `redirect`,
///      ``BlockingDecision/Reason-swift.enum/matchedRuleSurrogate``;
///    - otherwise (no action, `block`, or `block-ctl-*`; also a surrogate that does not exist):
///      `block`, ``BlockingDecision/Reason-swift.enum/matchedRuleBlock``.
///
///    `options` and `exceptions` match when every list present matches: the site host is one of
///    `domains` or a subdomain of one, and the request type is in `types`. An empty list matches
///    nothing; an object with neither list is treated as absent.
/// 9. **Default.** `default: block`: `block`, ``BlockingDecision/Reason-swift.enum/defaultBlock``.
///    Otherwise (`ignore`, missing or unknown): `ignore`,
///    ``BlockingDecision/Reason-swift.enum/defaultIgnore``.
///
/// The step that decides records what it found in ``BlockingDecision/decidingEntry``: the user
/// allowlist domain or the configuration entry of step 2, the request-blocklist rule of step 3,
/// `mainFrame` (5), the shared entity or registrable domain (6), the tracker-allowlist rule (7),
/// the tds rule (8) or the tracker's default (9), with their positions in the inputs; nothing for
/// step 4.
///
/// Each tds regular expression is compiled once, when the resolver is created.
public struct TrackerResolver: Sendable {
    /// The blocklist.
    public let trackerData: TrackerData
    /// The surrogates that redirects may name.
    public let surrogates: Surrogates
    /// The privacy configuration, or nil for "every protection on, no exceptions".
    public let privacyConfiguration: PrivacyConfiguration?
    /// Sites where the user turned protection off.
    public let userAllowlist: UserAllowlist
    /// tds rules that can never apply, such as a regular expression that does not compile.
    public let warnings: [InputWarning]

    /// What decisions read, behind one reference: a decision never copies the resolver's fields.
    private let engine: Engine

    /// Prepares a resolver; compiles every tds rule's regular expression.
    ///
    /// - Parameters:
    ///   - trackerData: the blocklist.
    ///   - surrogates: the surrogates a rule's `surrogate` may name; a rule naming a missing one
    ///     blocks. The default is ``Surrogates/bundled``, the same set the blocking script embeds
    ///     by default, so that the resolver redirects where the script runs a surrogate.
    ///   - privacyConfiguration: nil means tracker blocking on everywhere and no allowlist or
    ///     request blocklist.
    ///   - userAllowlist: sites where the user turned protection off.
    ///   - publicSuffixList: for eTLD+1 comparisons.
    public init(
        trackerData: TrackerData,
        surrogates: Surrogates = .bundled,
        privacyConfiguration: PrivacyConfiguration? = nil,
        userAllowlist: UserAllowlist = UserAllowlist(),
        publicSuffixList: PublicSuffixList = .bundled
    ) {
        self.trackerData = trackerData
        self.surrogates = surrogates
        self.privacyConfiguration = privacyConfiguration
        self.userAllowlist = userAllowlist
        var warnings: [InputWarning] = []
        var entries: [String: Engine.TrackerEntry] = [:]
        entries.reserveCapacity(trackerData.trackers.count)
        for (key, tracker) in trackerData.trackers {
            let rules = tracker.rules.enumerated().map { index, rule in
                let compiled = CompiledRule(rule)
                if compiled.regex == nil {
                    warnings.append(InputWarning(
                        path: JSONPath.root.appending(key: "trackers").appending(key: key)
                            .appending(key: "rules").appending(index: index).appending(key: "rule"),
                        message: "unusable regular expression \"\(rule.rule.excerpt())\": \(compiled.regexError?.description ?? "invalid"); the rule is skipped"))
                }
                return compiled
            }
            entries[key] = Engine.TrackerEntry(
                tracker: tracker, entity: tracker.ownerName.flatMap { trackerData.entities[$0] }, rules: rules)
        }
        engine = Engine(
            trackerData: trackerData, surrogates: surrogates, privacyConfiguration: privacyConfiguration,
            userAllowlist: userAllowlist, publicSuffixList: publicSuffixList, entries: entries)
        self.warnings = warnings.sorted { $0.description < $1.description }
    }

    /// Decides a request given as strings; nil when either URL cannot be parsed.
    public func decision(
        forRequestURL requestURL: String, topURL: String, type: RequestType, userUnblockedRuleActions: Set<String> = []
    ) -> BlockingDecision? {
        guard let request = CanonicalURL(requestURL), let site = CanonicalURL(topURL) else { return nil }
        return decision(forRequestURL: request, topURL: site, type: type, userUnblockedRuleActions: userUnblockedRuleActions)
    }

    /// Decides a request of `type` to `requestURL` made by a page at `topURL` (the top-level
    /// page, as shown in the address bar). See the type's documentation for the procedure.
    ///
    /// A request host spelled with its final dot (`https://tracker.com./a.js`) is the same host
    /// as without it: it is looked up, and the rules see it, without the dot.
    ///
    /// `userUnblockedRuleActions` are the Click-to-Load rule actions (`block-ctl-fb`) the user
    /// allowed on this page by clicking a placeholder: rules with those actions are skipped.
    public func decision(
        forRequestURL requestURL: CanonicalURL, topURL: CanonicalURL, type: RequestType,
        userUnblockedRuleActions: Set<String> = []
    ) -> BlockingDecision {
        engine.decision(
            forRequestURL: requestURL.removingFinalDotFromHost(), topURL: topURL, type: type,
            userUnblockedRuleActions: userUnblockedRuleActions)
    }

    /// Whether rules with the Click-to-Load action `action` (`block-ctl-fb`) block on pages of
    /// `siteHost` before the user clicks to load: see step 8 of the procedure. A host shows
    /// placeholders only for such actions.
    public func isClickToLoadBlocking(_ action: String, siteHost: String) -> Bool {
        engine.isClickToLoadBlocking(action, siteHost: siteHost, unblocked: [])
    }

    /// Whether the privacy configuration's tracker allowlist is on for the site and covers the
    /// request.
    public func isTrackerAllowlisted(_ requestURL: CanonicalURL, siteHost: String) -> Bool {
        engine.trackerAllowlistRule(requestURL.removingFinalDotFromHost(), siteHost: siteHost) != nil
    }

    /// Whether protection is on for a site: its host is not in the ``UserAllowlist`` and the
    /// privacy configuration's `contentBlocking` is enabled for it (step 2 of the procedure).
    /// Where it is off, decisions are `ignore` for trackers and nil for everything else.
    public func isProtected(siteHost: String) -> Bool {
        engine.protectionOff(siteHost: siteHost) == nil
    }

    /// Whether anything can match a request to `host`: a tracker, found by the suffix walk of the
    /// host or of its CNAME target (step 1), or a request-blocklist entry for its registrable
    /// domain (step 3).
    ///
    /// When false, the decision for every URL on the host, on any site and of any type, has no
    /// tracker and no action: a caller may skip the resolver for such hosts. A host with the
    /// final dot of a fully qualified name is the same host as without it.
    public func mayMatch(host: String) -> Bool {
        engine.mayMatch(host: CanonicalURL.removingFinalDot(fromHost: host))
    }
}

extension TrackerResolver {
    /// The decision procedure over the resolver's inputs and prepared tables.
    private final class Engine: Sendable {
        let trackerData: TrackerData
        let surrogates: Surrogates
        let privacyConfiguration: PrivacyConfiguration?
        let userAllowlist: UserAllowlist
        let publicSuffixList: PublicSuffixList
        /// Every tracker by key, with its owner's entity and its compiled rules: one lookup per
        /// candidate host finds all a decision needs.
        let entries: [String: TrackerEntry]
        /// The same, and `cnames` and `domains`, as byte tables; nil when a key is not ASCII.
        let entryTable: HostTable<TrackerEntry>?
        let cnameTable: HostTable<String>?
        let entityNameTable: HostTable<String>?
        /// The privacy configuration's features and tracker allowlist, prepared.
        let contentBlocking: FeatureGate?
        let trackerAllowlist: FeatureGate?
        let requestBlocklist: FeatureGate?
        let clickToLoad: FeatureGate?
        /// The configuration's Click-to-Load actions that block (nil without a configuration:
        /// all of them), and each entity's own actions, which never block on its sites.
        let supportedClickToLoadActions: Set<String>?
        let clickToLoadActionsByEntity: [String: Set<String>]
        let allowlistIndex: TrackerAllowlist.Index?
        /// The request blocklist's entry domains, lowercased.
        let blocklistDomains: HostTable<Bool>?

        init(
            trackerData: TrackerData, surrogates: Surrogates, privacyConfiguration: PrivacyConfiguration?,
            userAllowlist: UserAllowlist, publicSuffixList: PublicSuffixList, entries: [String: TrackerEntry]
        ) {
            self.trackerData = trackerData
            self.surrogates = surrogates
            self.privacyConfiguration = privacyConfiguration
            self.userAllowlist = userAllowlist
            self.publicSuffixList = publicSuffixList
            self.entries = entries
            entryTable = HostTable(entries)
            cnameTable = HostTable(trackerData.cnames)
            entityNameTable = HostTable(trackerData.domains)
            typealias Name = PrivacyConfiguration.FeatureName
            contentBlocking = privacyConfiguration.map { FeatureGate(Name.contentBlocking, in: $0) }
            trackerAllowlist = privacyConfiguration.map { FeatureGate(Name.trackerAllowlist, in: $0) }
            requestBlocklist = privacyConfiguration.map { FeatureGate(Name.requestBlocklist, in: $0) }
            clickToLoad = privacyConfiguration.map { FeatureGate(Name.clickToLoad, in: $0) }
            supportedClickToLoadActions = privacyConfiguration?.supportedClickToLoadRuleActions
            clickToLoadActionsByEntity = (privacyConfiguration?.clickToLoadEntities ?? [:]).mapValues { Set($0.ruleActions) }
            allowlistIndex = privacyConfiguration.flatMap { TrackerAllowlist.Index($0.trackerAllowlist) }
            blocklistDomains = privacyConfiguration.flatMap { configuration in
                HostTable(Dictionary(
                    configuration.requestBlocklist.blockedRequests.keys.map {
                        (String(decoding: $0.utf8.map(ASCII.lowercased), as: UTF8.self), true)
                    }, uniquingKeysWith: { first, _ in first }))
            }
        }

        func decision(
            forRequestURL requestURL: CanonicalURL, topURL: CanonicalURL, type: RequestType, userUnblockedRuleActions: Set<String>
        ) -> BlockingDecision {
            let siteHost = topURL.host

            // Step 1: find the tracker, directly or through a CNAME.
            let match = trackerMatch(for: requestURL)
            var decision = BlockingDecision(
                action: nil, reason: .noMatch, tracker: match?.entry.tracker, entity: match?.entry.entity,
                cnameTarget: match?.cnameTarget)
            func decided(
                _ action: BlockingDecision.Action?, _ reason: BlockingDecision.Reason, by entry: BlockingDecision.DecidingEntry?
            ) -> BlockingDecision {
                decision.action = action
                decision.reason = reason
                decision.decidingEntry = entry
                return decision
            }

            // Step 2: protection off for the site.
            if let (reason, entry) = protectionOff(siteHost: siteHost) {
                return decided(match == nil ? nil : .ignore, reason, by: entry)
            }

            // Step 3: the request blocklist, independent of the tds.
            let allowlistRule = trackerAllowlistRule(requestURL, siteHost: siteHost)
            if type != .mainFrame, allowlistRule == nil, let configuration = privacyConfiguration,
                isEnabled(requestBlocklist, forSiteHost: siteHost),
                // The request's eTLD+1 is a suffix of its host: no entry enclosing it, no rule.
                blocklistDomains?.anyKey(enclosing: requestURL.host, where: { $0 }) != false,
                let (domain, index) = configuration.requestBlocklist.matchingPosition(
                    requestURL: requestURL, siteHost: siteHost, publicSuffixList: publicSuffixList),
                let rule = configuration.requestBlocklist.blockedRequests[domain]?[index]
            {
                decision.requestBlocklistRule = rule
                return decided(.block, .requestBlocklist, by: .requestBlocklist(domain: domain, index: index, rule: rule))
            }

            // Step 4: not a tracker.
            guard let match else { return decided(nil, .noMatch, by: nil) }

            // Step 5: navigations are never blocked.
            if type == .mainFrame { return decided(.ignore, .mainFrame, by: .mainFrame) }

            // Step 6: first party.
            if let entry = firstParty(match, requestHost: requestURL.host, siteHost: siteHost) {
                return decided(.ignore, .firstParty, by: entry)
            }

            // Step 7: the tracker allowlist.
            if let rule = allowlistRule {
                return decided(
                    .ignore, .trackerAllowlist, by: .trackerAllowlist(trackerDomain: rule.trackerDomain, index: rule.index, rule: rule.rule))
            }

            // Step 8: the tracker's rules, first applicable wins.
            let entry = match.entry
            if !entry.rules.isEmpty,
                let index = Self.withMatchableURL(requestURL, host: match.cnameTarget ?? requestURL.host, { url, lowercased in
                    let rules = entry.rules
                    for index in rules.indices
                    where rules[index].applies(to: url, lowercased: lowercased, siteHost: siteHost, type: type) {
                        if let action = rules[index].clickToLoadAction,
                            !isClickToLoadBlocking(action, siteHost: siteHost, unblocked: userUnblockedRuleActions)
                        {
                            continue
                        }
                        return index
                    }
                    return nil
                })
            {
                decision.matchedRuleIndex = index
                let tdsRule = entry.tracker.rules[index]
                let rule = BlockingDecision.DecidingEntry.trackerRule(
                    .init(trackerDomain: entry.tracker.domain, index: index, in: entry.tdsRules))
                if case .ignore? = tdsRule.action { return decided(.ignore, .matchedRuleIgnore, by: rule) }
                if entry.rules[index].isExcepted(siteHost: siteHost, type: type) {
                    return decided(.ignore, .matchedRuleException, by: rule)
                }
                if let surrogate = tdsRule.surrogate, surrogates.contains(surrogate) {
                    return decided(.redirect(surrogate: surrogate), .matchedRuleSurrogate, by: rule)
                }
                return decided(.block, .matchedRuleBlock, by: rule)
            }

            // Step 9: the tracker's default.
            let defaultEntry = BlockingDecision.DecidingEntry.trackerDefault(
                trackerDomain: entry.tracker.domain, defaultAction: entry.tracker.defaultAction)
            if case .block? = entry.tracker.defaultAction { return decided(.block, .defaultBlock, by: defaultEntry) }
            return decided(.ignore, .defaultIgnore, by: defaultEntry)
        }

        /// Whether a `block-ctl-*` rule with `action` applies on pages of `siteHost` (step 8), the
        /// way DuckDuckGo's click-to-load reference tests decide it.
        func isClickToLoadBlocking(_ action: String, siteHost: String, unblocked: Set<String>) -> Bool {
            if unblocked.contains(action) { return false }
            guard let supported = supportedClickToLoadActions else { return true }
            guard supported.contains(action), isEnabled(clickToLoad, forSiteHost: siteHost) else { return false }
            if let siteEntity = entityName(forHost: siteHost), clickToLoadActionsByEntity[siteEntity]?.contains(action) == true {
                return false
            }
            return true
        }

        /// Why protection is off for the site (step 2) and the entry that turns it off, or nil
        /// when it is on.
        func protectionOff(siteHost: String) -> (BlockingDecision.Reason, BlockingDecision.DecidingEntry)? {
            if let domain = userAllowlist.domain(covering: siteHost) { return (.userAllowlist, .userAllowlist(domain: domain)) }
            if let configuration = privacyConfiguration, let contentBlocking,
                let off = featureOff(contentBlocking, forSiteHost: siteHost, in: configuration)
            {
                return (.unprotectedDomain, .unprotectedSite(off))
            }
            return nil
        }

        /// Whether a tracker (step 1) or a request-blocklist entry (step 3) can apply to a URL on
        /// `host`, whatever the site.
        func mayMatch(host: String) -> Bool {
            if trackerMatch(forHost: host) != nil { return true }
            guard let configuration = privacyConfiguration else { return false }
            return configuration.requestBlocklist.rules(forHost: host, publicSuffixList: publicSuffixList) != nil
        }

        /// The rule of the privacy configuration's tracker allowlist that covers the request, when
        /// the allowlist is on for the site.
        func trackerAllowlistRule(_ requestURL: CanonicalURL, siteHost: String) -> TrackerAllowlist.Index.PreparedRule? {
            guard let configuration = privacyConfiguration, isEnabled(trackerAllowlist, forSiteHost: siteHost) else {
                return nil
            }
            if let answer = allowlistIndex?.matchingRule(requestURL: requestURL, siteHost: siteHost) { return answer }
            let allowlist = configuration.trackerAllowlist
            guard let (entry, index) = allowlist.matchingPosition(requestURL: requestURL, siteHost: siteHost) else { return nil }
            return TrackerAllowlist.Index.PreparedRule(
                rule: allowlist.entries[entry].rules[index], trackerDomain: allowlist.entries[entry].trackerDomain,
                index: index, lowercasedPathPrefix: nil)
        }

        /// `isFeatureEnabled(_:forSiteHost:)` of the privacy configuration (false without one).
        func isEnabled(_ gate: FeatureGate?, forSiteHost host: String) -> Bool {
            guard let gate, let configuration = privacyConfiguration else { return false }
            return featureOff(gate, forSiteHost: host, in: configuration) == nil
        }

        /// `featureOff(_:forSiteHost:)` of the privacy configuration, the prepared table first.
        func featureOff(
            _ gate: FeatureGate, forSiteHost host: String, in configuration: PrivacyConfiguration
        ) -> PrivacyConfiguration.FeatureOff? {
            guard gate.isOn else { return .featureNotEnabled(feature: gate.name, state: configuration.features[gate.name]?.state) }
            if let table = gate.exceptedSites {
                var found: PrivacyConfiguration.FeatureOff?
                if table.anyKey(enclosing: host, where: { found = $0; return true }) != nil { return found }
            }
            return configuration.featureOff(gate.name, forSiteHost: host)
        }

        /// A feature of the privacy configuration as a decision reads it: whether it is on at all,
        /// and the sites where it is off (`unprotectedTemporary` and its exceptions, lowercased)
        /// in one table instead of two lists to scan.
        struct FeatureGate: Sendable {
            let name: String
            let isOn: Bool
            /// The entry that turns the feature off on each site; nil when a domain is not ASCII:
            /// the configuration is asked.
            let exceptedSites: HostTable<PrivacyConfiguration.FeatureOff>?

            init(_ name: String, in configuration: PrivacyConfiguration) {
                self.name = name
                guard let feature = configuration.features[name], feature.state == .enabled else {
                    isOn = false
                    exceptedSites = nil
                    return
                }
                isOn = true
                var sites: [String: PrivacyConfiguration.FeatureOff] = [:]
                func add(_ domain: String, _ off: PrivacyConfiguration.FeatureOff) {
                    guard !domain.isEmpty else { return }
                    let key = String(decoding: domain.utf8.map(ASCII.lowercased), as: UTF8.self)
                    // The first entry of a domain is the one `featureOff(_:forSiteHost:)` finds.
                    if sites[key] == nil { sites[key] = off }
                }
                for (index, exception) in configuration.unprotectedTemporary.enumerated() {
                    add(exception.domain, .unprotectedTemporary(index: index, domain: exception.domain))
                }
                for (index, exception) in feature.exceptions.enumerated() {
                    add(exception.domain, .featureException(feature: name, index: index, domain: exception.domain))
                }
                exceptedSites = HostTable(sites)
            }
        }

        // MARK: - Steps

        /// A tracker with what the resolver prepared for it.
        final class TrackerEntry: Sendable {
            let tracker: Tracker
            /// The owner's entity in `entities`.
            let entity: Entity?
            /// Parallel to the tracker's `rules`.
            let rules: [CompiledRule]
            /// The tracker's rules as deciding entries refer to them.
            let tdsRules: BlockingDecision.TrackerRuleReference.Rules

            init(tracker: Tracker, entity: Entity?, rules: [CompiledRule]) {
                self.tracker = tracker
                self.entity = entity
                self.rules = rules
                tdsRules = .init(tracker.rules)
            }
        }

        /// The tracker a request belongs to, and the host its rules see.
        struct TrackerMatch {
            var entry: TrackerEntry
            var cnameTarget: String?
        }

        func trackerMatch(for url: CanonicalURL) -> TrackerMatch? {
            trackerMatch(forHost: url.host)
        }

        /// The tracker of `host` by the suffix walk, else that of its CNAME target (the exact host).
        func trackerMatch(forHost host: String) -> TrackerMatch? {
            if let entry = trackerEntry(forHost: host) {
                return TrackerMatch(entry: entry, cnameTarget: nil)
            }
            if let target = cname(forHost: host), let entry = trackerEntry(forHost: target) {
                return TrackerMatch(entry: entry, cnameTarget: target)
            }
            return nil
        }

        func trackerEntry(forHost host: String) -> TrackerEntry? {
            if let found = entryTable?.firstSuffixValue(of: host) { return found }
            return DomainName.firstSuffix(of: host) { entries[$0] }
        }

        /// `trackerData.cname(forHost:)`.
        func cname(forHost host: String) -> String? {
            if let found = cnameTable?.exactValue(of: host) { return found }
            return trackerData.cname(forHost: host)
        }

        /// `trackerData.entityName(forHost:)`.
        func entityName(forHost host: String) -> String? {
            if let found = entityNameTable?.firstSuffixValue(of: host) { return found }
            return trackerData.entityName(forHost: host)
        }

        /// Calls `body` with the URL rules are matched against, `scheme://host/path?query` (no user,
        /// port or fragment; the host uncloaked), as bytes and with ASCII letters lowercased, in
        /// scratch memory rather than a new string.
        static func withMatchableURL<T>(
            _ url: CanonicalURL, host: String, _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> T
        ) -> T {
            let separator = "://"
            let length = url.scheme.utf8.count + separator.utf8.count + host.utf8.count + url.path.utf8.count
                + (url.query.map { $0.utf8.count + 1 } ?? 0)
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * length) { scratch in
                let base = scratch.baseAddress!
                var offset = 0
                func append(_ string: String) {
                    for byte in string.utf8 {
                        base[offset] = byte
                        base[length + offset] = ASCII.lowercased(byte)
                        offset += 1
                    }
                }
                append(url.scheme)
                append(separator)
                append(host)
                append(url.path)
                if let query = url.query {
                    append("?")
                    append(query)
                }
                return body(UnsafeBufferPointer(start: base, count: length), UnsafeBufferPointer(start: base + length, count: length))
            }
        }

        /// What makes the tracker first party on the site (step 6), or nil when it is third party.
        func firstParty(_ match: TrackerMatch, requestHost: String, siteHost: String) -> BlockingDecision.DecidingEntry? {
            if let owner = match.entry.tracker.ownerName, let siteEntity = entityName(forHost: siteHost),
                owner == siteEntity
            {
                return .sameEntity(entity: owner)
            }
            guard match.cnameTarget == nil, let requestSite = publicSuffixList.registrableDomain(of: requestHost) else {
                return nil
            }
            // A lowercase ASCII site host (as URLs give) has its eTLD+1 as a suffix on a label
            // boundary: one not ending in the request's eTLD+1 cannot share it, no second look-up.
            if !siteHost.utf8.contains(where: { $0 >= 0x80 || $0 &- UInt8(ascii: "A") < 26 }),
                !DomainName.host(siteHost, isWithin: requestSite)
            {
                return nil
            }
            return requestSite == publicSuffixList.registrableDomain(of: siteHost) ? .sameSite(registrableDomain: requestSite) : nil
        }
    }
}

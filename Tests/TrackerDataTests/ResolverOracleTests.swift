import Testing
import TrackerDataKit
import TrackerlessCore
import TrackerlessTestSupport

/// The optimized ``TrackerResolver`` against a straightforward reading of its documented
/// procedure (below, written for clarity rather than speed: string suffixes, dictionary look-ups,
/// every rule's NFA run over the whole URL without the literal prefilter), on the 8,276 real
/// request URLs from several sites, with and without a privacy configuration. Every field of
/// every decision must be the same.
@Suite(
    "TrackerResolver against a reference resolver",
    .enabled(if: SharedData.shouldRun(SharedData.matchingTestRequests), SharedData.skipMessage))
struct ResolverOracleTests {
    static let sites = [
        "https://news.example/", "https://www.google.com/search", "https://www.facebook.com/",
        "https://www.bbc.co.uk/news", "https://www.amazon.com/",
    ]

    @Test("same decisions on the real requests", arguments: ["apple-tds.json", "extension-tds.json"])
    func sameDecisions(_ file: String) throws {
        let trackerData = try TrackerData(contentsOfFile: SharedData.path("tds/\(file)"))
        let surrogates = Surrogates(parsing: String(
            decoding: try #require(SharedData.bytes("\(SharedData.domainMatching)/surrogates.txt")), as: UTF8.self))
        let configuration = try PrivacyConfiguration(
            parsing: try #require(SharedData.bytes("\(SharedData.requestBlocklist)/config-reference.json")))
        let requests = try Self.requests()
        #expect(requests.count == 8_276)
        let userAllowlist = UserAllowlist(domains: ["www.amazon.com"])
        var compared = 0
        for configuration in [nil, configuration] {
            let resolver = TrackerResolver(
                trackerData: trackerData, surrogates: surrogates, privacyConfiguration: configuration,
                userAllowlist: userAllowlist)
            let reference = ReferenceResolver(
                trackerData: trackerData, surrogates: surrogates, configuration: configuration, userAllowlist: userAllowlist)
            for site in Self.sites {
                let topURL = try #require(CanonicalURL(site))
                for (url, type) in requests {
                    guard let requestURL = CanonicalURL(url) else { continue }
                    for type in [type, .mainFrame] {
                        let expected = reference.decision(requestURL, topURL, type)
                        var actual = resolver.decision(forRequestURL: requestURL, topURL: topURL, type: type)
                        // The deciding entry is re-checked by DecidingEntryRealBlocklistTests.
                        actual.decidingEntry = nil
                        #expect(actual == expected, "\(url) from \(site) as \(type.rawValue)")
                        if actual != expected { return }
                        compared += 1
                    }
                }
            }
        }
        #expect(compared > 150_000)
    }

    /// The URLs and webRequest types of `matching-test-requests.json`.
    static func requests() throws -> [(String, RequestType)] {
        let types: [String: RequestType] = ["xhr": .xmlhttprequest, "fetch": .xmlhttprequest]
        let root = try #require(SharedData.json(SharedData.matchingTestRequests))
        return try root.array().map { item in
            let type = try item.required("type").string()
            return (try item.required("url").string(), types[type] ?? RequestType(rawValue: type))
        }
    }
}

/// The decision procedure of ``TrackerResolver``'s documentation, step by step.
private struct ReferenceResolver {
    let trackerData: TrackerData
    let surrogates: Surrogates
    let configuration: PrivacyConfiguration?
    let userAllowlist: UserAllowlist
    let publicSuffixList = PublicSuffixList.bundled
    /// Each tracker's rule regexes, compiled (nil: unusable).
    let matchers: [String: [TrackerRuleRegex.Matcher?]]

    init(trackerData: TrackerData, surrogates: Surrogates, configuration: PrivacyConfiguration?, userAllowlist: UserAllowlist) {
        self.trackerData = trackerData
        self.surrogates = surrogates
        self.configuration = configuration
        self.userAllowlist = userAllowlist
        matchers = trackerData.trackers.mapValues { tracker in
            tracker.rules.map { try? TrackerRuleRegex(parsing: $0.rule).matcher() }
        }
    }

    /// `host`, then each parent that still contains a dot.
    static func suffixes(_ host: String) -> [String] {
        var result = [host]
        var labels = host.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        while labels.count > 2 {
            labels.removeFirst()
            result.append(labels.joined(separator: "."))
        }
        return result
    }

    static func isWithin(_ host: String, _ domain: String) -> Bool {
        let host = host.lowercased()
        let domain = domain.lowercased()
        return !domain.isEmpty && (host == domain || host.hasSuffix("." + domain))
    }

    func conditionMatches(_ condition: Tracker.Rule.Condition?, siteHost: String, type: RequestType) -> Bool? {
        guard let condition, !condition.isEmpty else { return nil }
        if let types = condition.types, !types.contains(type) { return false }
        if let domains = condition.domains, !domains.contains(where: { Self.isWithin(siteHost, $0) }) { return false }
        return true
    }

    func enabled(_ feature: String, _ siteHost: String) -> Bool {
        configuration?.isFeatureEnabled(feature, forSiteHost: siteHost) ?? false
    }

    func decision(_ request: CanonicalURL, _ site: CanonicalURL, _ type: RequestType) -> BlockingDecision {
        let siteHost = site.host
        // 1. The tracker, directly or through the exact host's CNAME.
        var tracker = Self.suffixes(request.host).lazy.compactMap { trackerData.trackers[$0] }.first
        var cnameTarget: String?
        if tracker == nil, let target = trackerData.cnames[request.host] {
            tracker = Self.suffixes(target).lazy.compactMap { trackerData.trackers[$0] }.first
            if tracker != nil { cnameTarget = target }
        }
        var decision = BlockingDecision(
            action: nil, reason: .noMatch, tracker: tracker,
            entity: tracker?.owner.flatMap { trackerData.entities[$0.name] }, cnameTarget: cnameTarget)
        func decided(_ action: BlockingDecision.Action?, _ reason: BlockingDecision.Reason) -> BlockingDecision {
            decision.action = action
            decision.reason = reason
            return decision
        }
        // 2. Protection off.
        if userAllowlist.contains(host: siteHost) { return decided(tracker == nil ? nil : .ignore, .userAllowlist) }
        if let configuration, !configuration.isFeatureEnabled("contentBlocking", forSiteHost: siteHost) {
            return decided(tracker == nil ? nil : .ignore, .unprotectedDomain)
        }
        // 3. The request blocklist.
        let allowlisted = enabled("trackerAllowlist", siteHost)
            && configuration!.trackerAllowlist.entries.contains { entry in
                entry.rules.contains { $0.matches(requestURL: request, siteHost: siteHost) }
            }
        if type != .mainFrame, !allowlisted, enabled("requestBlocklist", siteHost),
            let domain = publicSuffixList.registrableDomain(of: request.host),
            let rule = configuration!.requestBlocklist.blockedRequests[domain]?.first(where: {
                $0.matchesRequest(request) && $0.appliesOnSite(siteHost)
            })
        {
            decision.requestBlocklistRule = rule
            return decided(.block, .requestBlocklist)
        }
        // 4, 5. Not a tracker; navigations.
        guard let tracker else { return decided(nil, .noMatch) }
        if type == .mainFrame { return decided(.ignore, .mainFrame) }
        // 6. First party: same entity, or (directly found) the same eTLD+1.
        let siteEntity = Self.suffixes(siteHost).lazy.compactMap { trackerData.domains[$0] }.first
        if let owner = tracker.owner?.name, owner == siteEntity { return decided(.ignore, .firstParty) }
        if cnameTarget == nil, let requestSite = publicSuffixList.registrableDomain(of: request.host),
            requestSite == publicSuffixList.registrableDomain(of: siteHost)
        {
            return decided(.ignore, .firstParty)
        }
        // 7. The tracker allowlist.
        if allowlisted { return decided(.ignore, .trackerAllowlist) }
        // 8. Rules.
        var url = request.scheme + "://" + (cnameTarget ?? request.host) + request.path
        if let query = request.query { url += "?" + query }
        let bytes = Array(url.utf8)
        for (index, rule) in tracker.rules.enumerated() {
            guard rule.action?.isSupported ?? true, let matcher = matchers[tracker.domain]?[index] ?? nil,
                bytes.withUnsafeBufferPointer({ matcher.matches($0) })
            else { continue }
            if conditionMatches(rule.options, siteHost: siteHost, type: type) == false { continue }
            // A Click-to-Load rule blocks only where the configuration's clickToLoad lists its
            // action for an enabled entity and is on for the site, and not on that entity's sites.
            if case .blockClickToLoad(let action)? = rule.action, let configuration {
                let entities = configuration.clickToLoadEntities
                let listed = entities.values.contains { $0.isEnabled && $0.ruleActions.contains(action) }
                    && configuration.features["clickToLoad"]?.state == .enabled
                let own = siteEntity.flatMap { entities[$0] }?.ruleActions.contains(action) ?? false
                if !listed || !enabled("clickToLoad", siteHost) || own { continue }
            }
            decision.matchedRuleIndex = index
            if case .ignore? = rule.action { return decided(.ignore, .matchedRuleIgnore) }
            if conditionMatches(rule.exceptions, siteHost: siteHost, type: type) == true {
                return decided(.ignore, .matchedRuleException)
            }
            if let surrogate = rule.surrogate, surrogates.contains(surrogate) {
                return decided(.redirect(surrogate: surrogate), .matchedRuleSurrogate)
            }
            return decided(.block, .matchedRuleBlock)
        }
        // 9. The default.
        if case .block? = tracker.defaultAction { return decided(.block, .defaultBlock) }
        return decided(.ignore, .defaultIgnore)
    }
}

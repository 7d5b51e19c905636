import Testing
import TrackerDataKit
import TrackerlessCore
import TrackerlessTestSupport

/// The deciding entry of every case of DuckDuckGo's suites that go through the resolver: where a
/// suite says what decided (the request blocklist, the tracker allowlist, a Click-to-Load rule,
/// a feature's state), the entry is that; everywhere, ``DecidingEntryCheck`` re-checks it alone.
@Suite("Deciding entries on the reference suites", .enabled(if: SharedData.shouldRun, SharedData.skipMessage))
struct DecidingEntryReferenceTests {
    @Test("TR-domain-matching: every tracker decision names a tds rule or default that re-checks", arguments: DomainMatchingCase.all)
    func domainMatching(_ test: DomainMatchingCase) throws {
        let fixture = try DomainMatchingFixture.loaded.get()
        let (request, site) = (try #require(CanonicalURL(test.requestURL)), try #require(CanonicalURL(test.topURL)))
        let type = RequestType(rawValue: test.requestType)
        let decision = fixture.resolver.decision(forRequestURL: request, topURL: site, type: type)
        let check = DecidingEntryCheck(trackerData: fixture.trackerData, surrogates: fixture.surrogates)
        #expect(check.problem(with: decision, request: request, site: site, type: type) == nil)
        #expect((decision.decidingEntry == nil) == (test.expectAction == nil), "\(String(describing: decision.decidingEntry))")
        // The suite's redirects name a surrogate: only a rule can.
        if test.expectRedirect != nil, case .trackerRule(let reference)? = decision.decidingEntry {
            #expect(reference.rule.surrogate != nil)
        } else if test.expectRedirect != nil {
            Issue.record("a redirect decided by \(String(describing: decision.decidingEntry))")
        }
    }

    @Test("request-blocklist: a blocked case names the blocklist rule, an allowed one does not", arguments: RequestBlocklistCase.all)
    func requestBlocklist(_ test: RequestBlocklistCase) throws {
        let fixture = try RequestBlocklistFixture.loaded.get()
        let (request, site) = (try #require(CanonicalURL(test.requestURL)), try #require(CanonicalURL(test.websiteURL)))
        let decision = fixture.resolver.decision(forRequestURL: request, topURL: site, type: test.type)
        let check = DecidingEntryCheck(
            trackerData: fixture.trackerData, surrogates: fixture.surrogates, configuration: fixture.configuration,
            userAllowlist: fixture.userAllowlist)
        #expect(check.problem(with: decision, request: request, site: site, type: test.type) == nil)
        let isBlocklistRule = decision.decidingEntry?.kind == "requestBlocklist"
        if test.expectsBlocked, !decision.isTracker {
            #expect(isBlocklistRule, "\(String(describing: decision.decidingEntry))")
        }
        if !test.expectsBlocked { #expect(!isBlocklistRule) }
    }

    @Test("tracker allowlist: an allowlisted tracker request names the allowlist rule, and only then", arguments: TrackerAllowlistCase.all)
    func trackerAllowlist(_ test: TrackerAllowlistCase) throws {
        let fixture = try TrackerAllowlistFixture.loaded.get()
        let (request, site) = (try #require(CanonicalURL(test.request)), try #require(CanonicalURL(test.site)))
        let decision = fixture.resolver.decision(forRequestURL: request, topURL: site, type: .script)
        let check = DecidingEntryCheck(trackerData: fixture.trackerData, configuration: fixture.configuration)
        #expect(check.problem(with: decision, request: request, site: site, type: .script) == nil)
        let named = decision.decidingEntry?.kind == "trackerAllowlist"
        let thirdParty = !["sameEntity", "sameSite"].contains(decision.decidingEntry?.kind ?? "")
        if decision.isTracker, thirdParty {
            #expect(named == test.isAllowlisted, "\(String(describing: decision.decidingEntry))")
        } else {
            #expect(!named)
        }
    }

    @Test("click-to-load: a case decided by a block-ctl rule is blocked or redirected, with the rule's action blocking on the site and not unblocked by the user", arguments: ClickToLoadCase.all)
    func clickToLoad(_ test: ClickToLoadCase) throws {
        let (trackerData, configuration, surrogates) = try ClickToLoadCase.loadFixture()
        let resolver = TrackerResolver(trackerData: trackerData, surrogates: surrogates, privacyConfiguration: configuration)
        let (request, site) = (try #require(CanonicalURL(test.requestURL)), try #require(CanonicalURL(test.topURL)))
        let decision = resolver.decision(
            forRequestURL: request, topURL: site, type: .script, userUnblockedRuleActions: Set(test.userUnblockedRuleActions))
        let check = DecidingEntryCheck(trackerData: trackerData, surrogates: surrogates, configuration: configuration)
        // Click-to-Load rules skipped for the site are rules DecidingEntryCheck does not count.
        #expect(check.problem(with: decision, request: request, site: site, type: .script) == nil)
        if case .trackerRule(let reference)? = decision.decidingEntry, case .blockClickToLoad(let action)? = reference.rule.action {
            #expect(test.expectedOutcome != "ignore")
            #expect(!test.userUnblockedRuleActions.contains(action))
            #expect(resolver.isClickToLoadBlocking(action, siteHost: site.host))
        }
    }

    @Test("privacy-configuration: featureOff names an entry exactly where the suite says the feature is off", arguments: PrivacyConfigurationCase.all.filter { $0.frameURL == nil && $0.scriptURL == nil })
    func featureOff(_ test: PrivacyConfigurationCase) throws {
        let configuration = try PrivacyConfiguration(contentsOfFile: test.referenceConfigPath)
        let site = try #require(CanonicalURL(test.topURL))
        let off = configuration.featureOff(test.featureName, forSiteHost: site.host)
        #expect((off == nil) == test.expectFeatureEnabled, "\(String(describing: off))")
        switch off {
        case .featureNotEnabled(let feature, let state)?:
            #expect(feature == test.featureName && configuration.features[feature]?.state == state && state != .enabled)
        case .unprotectedTemporary(let index, let domain)?:
            #expect(configuration.unprotectedTemporary[index].domain == domain)
            #expect(DecidingEntryCheck.isWithin(site.host.lowercased(), domain))
        case .featureException(let feature, let index, let domain)?:
            #expect(configuration.features[feature]?.exceptions[index].domain == domain)
            #expect(DecidingEntryCheck.isWithin(site.host.lowercased(), domain))
        case nil:
            break
        }
    }
}

import Testing
import TrackerDataKit
import TrackerlessCore
import TrackerlessTestSupport

/// privacy-reference-tests/block-third-party-tracking-cookies: every case through the Swift API,
/// the header cases through the header filters and the `document.cookie` cases through a page
/// whose cookie jar obeys the frame decision.
@Suite("Third-party tracking-cookie reference tests", .enabled(if: SharedData.shouldRun, SharedData.skipMessage))
struct CookieProtectionReferenceTests {
    static let fixture = Result { () throws(TrackerDataError) in try CookieProtectionCase.loadFixture() }

    @Test("the suite has 28 cases: cookieHeader 10, setCookieHeader 10, cookieAPI 8")
    func suiteSize() {
        let cases = CookieProtectionCase.all
        #expect(cases.count == 28)
        #expect(cases.filter { $0.set == "cookieHeader" }.count == 10)
        #expect(cases.filter { $0.set == "setCookieHeader" }.count == 10)
        #expect(cases.filter { $0.set == "cookieAPI" }.count == 8)
        #expect(cases.allSatisfy { $0.expectation != nil })
    }

    @Test("cookies kept or blocked", arguments: CookieProtectionCase.all)
    func referenceCase(_ test: CookieProtectionCase) throws {
        let (trackerData, configuration) = try Self.fixture.get()
        let protection = CookieProtection(trackerData: trackerData, configuration: configuration)
        switch try #require(test.expectation) {
        case .cookieHeadersRemoved(let removed):
            let requestURL = try #require(test.requestURL)
            let decision = try #require(protection.decision(forRequestURL: requestURL, topURL: test.topURL))
            let output = decision.removingCookieHeaders(from: test.requestHeaders.map { ($0.name, $0.value) })
            let remaining = output.count { $0.name.lowercased() == "cookie" }
            #expect(removed ? remaining == 0 : remaining > 0, "reason: \(decision.reason.rawValue)")
            #expect(output.count == test.requestHeaders.count - (removed ? test.requestHeaders.count : 0))
        case .setCookieHeadersRemoved(let removed):
            let requestURL = try #require(test.requestURL)
            let decision = try #require(protection.decision(forRequestURL: requestURL, topURL: test.topURL))
            let output = decision.removingSetCookieHeaders(from: test.responseHeaders.map { ($0.name, $0.value) })
            let remaining = output.count { $0.name.lowercased() == "set-cookie" }
            #expect(removed ? remaining == 0 : remaining > 0, "reason: \(decision.reason.rawValue)")
        case .documentCookieSet(let stored, let value):
            let decision = try #require(
                protection.decision(forFrameURL: test.frameURL ?? test.topURL, topURL: test.topURL))
            var page = FramePage(blocksDocumentCookie: decision.blocksCookies)
            page.setDocumentCookie(value)
            #expect(page.documentCookie == (stored ? value : ""), "reason: \(decision.reason.rawValue)")
        }
    }

    @Test("the reasons are the expected ones")
    func reasons() throws {
        let (trackerData, configuration) = try Self.fixture.get()
        let protection = CookieProtection(trackerData: trackerData, configuration: configuration)
        func reason(_ url: String, on site: String) -> CookieDecision.Reason? {
            protection.decision(forRequestURL: url, topURL: site)?.reason
        }
        #expect(reason("https://all.good.site/love", on: "https://example.com/") == .noMatch)
        #expect(reason("https://tracker.com/track", on: "https://example.com/") == .thirdPartyTracker)
        #expect(reason("https://unblockable-tracker.net/track", on: "https://example.com/") == .thirdPartyTracker)
        #expect(reason("https://tracker.com/track", on: "https://exception.local.site/") == .unprotectedDomain)
        #expect(reason("https://tracker.com/track", on: "https://exception.global.site/") == .unprotectedDomain)
        #expect(reason("https://tracker.com/track", on: "https://tracker.com/some-page.html") == .firstParty)
        #expect(reason("https://sub.excluded-cookie-tracker.com/t", on: "https://example.com/") == .excludedCookieDomain)
        let cloaked = try #require(protection.decision(forRequestURL: "https://tracker.cname.com/track", topURL: "https://example.com/"))
        #expect(cloaked.reason == .thirdPartyTracker)
        #expect(cloaked.cnameTarget == "bad.tracker.com")
        #expect(cloaked.tracker?.domain == "tracker.com")
        #expect(protection.settings.decidingFeature == "cookie")
        #expect(protection.settings.excludedCookieDomains == ["excluded-cookie-tracker.com"])
        #expect(protection.settings.unprotectedDomains == ["exception.global.site", "exception.local.site"])
    }
}

/// A frame whose `document.cookie` behaves as DuckDuckGo's cookie script makes it behave.
private struct FramePage {
    var blocksDocumentCookie: Bool
    private(set) var documentCookie = ""

    init(blocksDocumentCookie: Bool) {
        self.blocksDocumentCookie = blocksDocumentCookie
    }

    mutating func setDocumentCookie(_ value: String) {
        guard !blocksDocumentCookie else { return }
        documentCookie = value
    }
}

/// The `trackingCookies3p` cases of privacy-reference-tests/privacy-configuration: the protection
/// is on for a site exactly when the feature is.
@Suite("Cookie protection under the privacy-configuration suite", .enabled(if: SharedData.shouldRun, SharedData.skipMessage))
struct CookieProtectionConfigurationTests {
    static let cases = PrivacyConfigurationCase.all.filter { $0.featureName == CookieProtection.Settings.legacyFeatureName }

    @Test("the suite has 2 trackingCookies3p cases")
    func suiteSize() {
        #expect(Self.cases.count == 2)
    }

    @Test("tracker cookies are blocked iff the feature is on", arguments: cases)
    func featureState(_ test: PrivacyConfigurationCase) throws {
        let configuration = try PrivacyConfiguration(contentsOfFile: test.referenceConfigPath)
        let protection = CookieProtection(trackerData: CookieProtectionExamples.trackerData, configuration: configuration)
        let decision = try #require(protection.decision(forRequestURL: "https://tracker.example/p", topURL: test.topURL))
        #expect(decision.blocksCookies == test.expectFeatureEnabled, "reason: \(decision.reason.rawValue)")
    }
}

/// Behaviour by example: one blocklist, one configuration, one load, the decision.
@Suite("Cookie protection")
struct CookieProtectionExamples {
    /// `tracker.example` (Tracker Inc, which also owns `tracker-owned.example`), `ignored.example`
    /// (default ignore, owned by Ignore Co), and `metrics.news.example` cloaking `t.tracker.example`.
    static let trackerData = TrackerData(
        trackers: [
            "tracker.example": Tracker(domain: "tracker.example", owner: .init(name: "Tracker Inc"), defaultAction: .block),
            "ignored.example": Tracker(domain: "ignored.example", owner: .init(name: "Ignore Co"), defaultAction: .ignore),
        ],
        entities: [:],
        domains: [
            "tracker.example": "Tracker Inc", "tracker-owned.example": "Tracker Inc", "ignored.example": "Ignore Co",
        ],
        cnames: ["metrics.news.example": "t.tracker.example"])

    static func configuration(_ json: String) throws -> PrivacyConfiguration {
        try PrivacyConfiguration(parsing: Array(json.utf8), file: "test config")
    }

    static func reason(
        _ url: String, on site: String, configuration: PrivacyConfiguration? = nil, userAllowlist: [String] = []
    ) -> CookieDecision.Reason? {
        CookieProtection(trackerData: trackerData, configuration: configuration,
                         userAllowlist: UserAllowlist(domains: userAllowlist))
            .decision(forRequestURL: url, topURL: site)?.reason
    }

    @Test("without a configuration every third-party tracker loses its cookies, whatever its default")
    func noConfiguration() {
        #expect(Self.reason("https://tracker.example/p", on: "https://news.example/") == .thirdPartyTracker)
        #expect(Self.reason("https://cdn.tracker.example:8443/p", on: "https://news.example/") == .thirdPartyTracker)
        #expect(Self.reason("https://ignored.example/p", on: "https://news.example/") == .thirdPartyTracker)
        #expect(Self.reason("https://nottracker.example/p", on: "https://news.example/") == .noMatch)
        #expect(Self.reason("https://news.example/?u=tracker.example", on: "https://news.example/") == .noMatch)
    }

    @Test("first party: the same site, or a page of the tracker's company")
    func firstParty() {
        #expect(Self.reason("https://cdn.tracker.example/p", on: "https://www.tracker.example/") == .firstParty)
        #expect(Self.reason("https://tracker.example/p", on: "https://tracker-owned.example/") == .firstParty)
        #expect(Self.reason("https://tracker.example/p", on: "https://shop.tracker-owned.example/") == .firstParty)
        #expect(Self.reason("https://ignored.example/p", on: "https://tracker-owned.example/") == .thirdPartyTracker)
    }

    @Test("a cloaked host is third party on its own site, but not on its own host, and only the exact host")
    func cloaked() throws {
        let protection = CookieProtection(trackerData: Self.trackerData)
        let decision = try #require(protection.decision(forRequestURL: "https://metrics.news.example/c", topURL: "https://www.news.example/"))
        #expect(decision.reason == .thirdPartyTracker)
        #expect(decision.cnameTarget == "t.tracker.example")
        #expect(Self.reason("https://metrics.news.example/c", on: "https://metrics.news.example/") == .firstParty)
        #expect(Self.reason("https://metrics.news.example/c", on: "https://tracker.example/") == .firstParty)
        #expect(Self.reason("https://a.metrics.news.example/c", on: "https://www.news.example/") == .noMatch)
    }

    @Test("the current `cookie` feature decides, and needs trackerCookie enabled")
    func cookieFeature() throws {
        let on = try Self.configuration(#"{"features": {"cookie": {"state": "enabled", "settings": {"trackerCookie": "enabled"}}}}"#)
        let off = try Self.configuration(#"{"features": {"cookie": {"state": "enabled", "settings": {"trackerCookie": "disabled"}}, "trackingCookies3p": {"state": "enabled"}}}"#)
        let missing = try Self.configuration(#"{"features": {"cookie": {"state": "enabled"}}}"#)
        let disabled = try Self.configuration(#"{"features": {"cookie": {"state": "disabled", "settings": {"trackerCookie": "enabled"}}}}"#)
        #expect(Self.reason("https://tracker.example/p", on: "https://news.example/", configuration: on) == .thirdPartyTracker)
        #expect(Self.reason("https://tracker.example/p", on: "https://news.example/", configuration: off) == .featureDisabled)
        #expect(Self.reason("https://tracker.example/p", on: "https://news.example/", configuration: missing) == .featureDisabled)
        #expect(Self.reason("https://tracker.example/p", on: "https://news.example/", configuration: disabled) == .featureDisabled)
    }

    @Test("the older `trackingCookies3p` feature decides when `cookie` is absent; neither means off")
    func legacyFeature() throws {
        let on = try Self.configuration(#"{"features": {"trackingCookies3p": {"state": "enabled"}}}"#)
        let off = try Self.configuration(#"{"features": {"trackingCookies3p": {"state": "disabled"}}}"#)
        let none = try Self.configuration(#"{"features": {"contentBlocking": {"state": "enabled"}}}"#)
        #expect(Self.reason("https://tracker.example/p", on: "https://news.example/", configuration: on) == .thirdPartyTracker)
        #expect(Self.reason("https://tracker.example/p", on: "https://news.example/", configuration: off) == .featureDisabled)
        #expect(Self.reason("https://tracker.example/p", on: "https://news.example/", configuration: none) == .featureDisabled)
    }

    @Test("exceptions and unprotectedTemporary cover subdomains; the user allowlist is DuckDuckGo's toggle: its domain and www. of it, no other subdomain")
    func siteExceptions() throws {
        let config = try Self.configuration(#"""
            {"features": {"trackingCookies3p": {"state": "enabled", "exceptions": [{"domain": "news.example"}]}},
             "unprotectedTemporary": [{"domain": "blog.example"}]}
            """#)
        #expect(Self.reason("https://tracker.example/p", on: "https://www.news.example/", configuration: config) == .unprotectedDomain)
        #expect(Self.reason("https://tracker.example/p", on: "https://blog.example/", configuration: config) == .unprotectedDomain)
        #expect(Self.reason("https://tracker.example/p", on: "https://badnews.example/", configuration: config) == .thirdPartyTracker)
        #expect(Self.reason("https://tracker.example/p", on: "https://shop.example/", userAllowlist: ["shop.example"]) == .userAllowlist)
        #expect(Self.reason("https://tracker.example/p", on: "https://www.shop.example/", userAllowlist: ["shop.example"]) == .userAllowlist)
        #expect(Self.reason("https://tracker.example/p", on: "https://m.shop.example/", userAllowlist: ["shop.example"]) == .thirdPartyTracker)
    }

    @Test("excludedCookieDomains cover subdomains, by the host as requested")
    func excludedDomains() throws {
        let config = try Self.configuration(#"""
            {"features": {"trackingCookies3p": {"state": "enabled",
              "settings": {"excludedCookieDomains": [{"domain": "cdn.tracker.example", "reason": "breakage"}]}}}}
            """#)
        let protection = CookieProtection(trackerData: Self.trackerData, configuration: config)
        let decision = try #require(protection.decision(forRequestURL: "https://a.cdn.tracker.example/p", topURL: "https://news.example/"))
        #expect(decision.reason == .excludedCookieDomain)
        #expect(decision.excludedCookieDomain == "cdn.tracker.example")
        #expect(Self.reason("https://xcdn.tracker.example/p", on: "https://news.example/", configuration: config) == .thirdPartyTracker)
        #expect(Self.reason("https://tracker.example/p", on: "https://news.example/", configuration: config) == .thirdPartyTracker)
    }

    @Test("frames: a tracker frame has document.cookie blocked; the main frame and about:blank never")
    func frames() throws {
        let protection = CookieProtection(trackerData: Self.trackerData)
        #expect(protection.decision(forFrameURL: "https://tracker.example/f", topURL: "https://news.example/")?.blocksCookies == true)
        #expect(protection.decision(forFrameURL: "https://news.example/", topURL: "https://news.example/")?.blocksCookies == false)
        #expect(protection.decision(forFrameURL: "about:blank", topURL: "https://news.example/")?.reason == .noMatch)
        #expect(protection.decision(forFrameURL: "not a url", topURL: "https://news.example/") == nil)
    }

    @Test("headers: every Cookie or Set-Cookie goes, in any spelling; the rest stays in order")
    func headers() throws {
        let protection = CookieProtection(trackerData: Self.trackerData)
        let blocked = try #require(protection.decision(forRequestURL: "https://tracker.example/p", topURL: "https://news.example/"))
        let kept = try #require(protection.decision(forRequestURL: "https://news.example/p", topURL: "https://news.example/"))
        let request: [(name: String, value: String)] = [("Accept", "*/*"), ("Cookie", "a=1"), ("COOKIE", "b=2"), ("cookie2", "c"), ("X-Cookie", "d")]
        #expect(blocked.removingCookieHeaders(from: request).map(\.name) == ["Accept", "cookie2", "X-Cookie"])
        #expect(kept.removingCookieHeaders(from: request).map(\.name) == request.map(\.name))
        let response: [(name: String, value: String)] = [("set-cookie", "a=1"), ("Content-Type", "image/gif"), ("Set-Cookie", "b=2; Secure")]
        #expect(blocked.removingSetCookieHeaders(from: response).map(\.name) == ["Content-Type"])
        #expect(blocked.removingCookieHeaders(from: response).count == 3)
        #expect(kept.removingSetCookieHeaders(from: response).count == 3)
    }
}

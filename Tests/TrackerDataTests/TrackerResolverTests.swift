import Testing
import TrackerDataKit
import TrackerlessCore

/// The decision procedure, one step at a time, on a small blocklist a reader can check by eye.
@Suite("TrackerResolver")
struct TrackerResolverTests {
    static let ads = Tracker(
        domain: "ads.example",
        owner: .init(name: "Ads Inc"),
        defaultAction: .block,
        rules: [
            .init(rule: #"ads\.example/ok\.js"#, action: .ignore),
            .init(rule: #"ads\.example/tag\.js"#, surrogate: "tag.js"),
            .init(rule: #"ads\.example/pixel"#, exceptions: .init(domains: ["shop.example"], types: [.image])),
            .init(rule: #"ads\.example/only-news"#, options: .init(domains: ["news.example"])),
            .init(rule: #"ads\.example/only-news"#, action: .ignore),
            .init(rule: #"ads\.example/(broken"#),
            .init(rule: #"ads\.example/future"#, action: .unsupported("teleport")),
            .init(rule: #"ads\.example/ctl"#, action: .blockClickToLoad("block-ctl-yt")),
        ])
    static let cdn = Tracker(domain: "cdn.example", owner: .init(name: "CDN Co"), defaultAction: .ignore)

    static let trackerData = TrackerData(
        trackers: ["ads.example": ads, "cdn.example": cdn],
        entities: [
            "Ads Inc": Entity(name: "Ads Inc", displayName: "Ads", domains: ["ads.example", "ads-owner.example"]),
            "CDN Co": Entity(name: "CDN Co", domains: ["cdn.example"]),
        ],
        domains: ["ads.example": "Ads Inc", "ads-owner.example": "Ads Inc", "cdn.example": "CDN Co"],
        cnames: ["metrics.shop.example": "edge.ads.example"])

    static let surrogates = Surrogates([
        .init(name: "tag.js", path: "ads.example/tag.js", contentType: "application/javascript", source: "window.tag = {};")
    ])

    let resolver = TrackerResolver(trackerData: trackerData, surrogates: surrogates)

    func decide(_ request: String, on site: String = "https://shop.example/", type: RequestType = .script) throws
        -> BlockingDecision
    {
        try #require(resolver.decision(forRequestURL: request, topURL: site, type: type))
    }

    @Test("a host with its final dot is the same tracker; userinfo is not the host")
    func hostSpellings() throws {
        for url in ["https://ads.example./tag.js", "https://ADS.example%2e/tag.js", "https://u:p@ads.example/tag.js"] {
            let decision = try decide(url)
            #expect(decision.tracker?.domain == "ads.example", "\(url)")
            #expect(decision.action == .redirect(surrogate: "tag.js"), "\(url)")
        }
        #expect(try decide("https://ads.example./pixel", on: "https://shop.example/", type: .image).reason == .matchedRuleException)
        #expect(try decide("https://metrics.shop.example./x").cnameTarget == "edge.ads.example")
        for url in ["https://ads.example@evil.example/tag.js", "https://ads.example:pw@evil.example/tag.js",
                    "https://evil.example/?u=a@ads.example/tag.js", "https://ads.example../tag.js"] {
            #expect(try decide(url).reason == .noMatch, "\(url)")
        }
    }

    @Test("an invalid regular expression is reported with its JSON path and skipped")
    func invalidRegex() throws {
        #expect(resolver.warnings.map(\.description) == [
            #"trackers["ads.example"].rules[5].rule: unusable regular expression "ads\.example/(broken": unterminated group at offset 13; the rule is skipped"#
        ])
        let decision = try decide("https://ads.example/(broken")
        #expect(decision.action == .block)
        #expect(decision.reason == .defaultBlock)
    }

    @Test("a catastrophic regular expression matches in linear time")
    func catastrophicRegex() throws {
        let data = TrackerData(
            trackers: ["slow.example": Tracker(
                domain: "slow.example", owner: .init(name: "Slow"), defaultAction: .ignore,
                rules: [.init(rule: #"slow\.example/(a+)+$"#), .init(rule: #"slow\.example/((x*)*)*y"#)])],
            entities: ["Slow": Entity(name: "Slow", domains: ["slow.example"])],
            domains: ["slow.example": "Slow"])
        let resolver = TrackerResolver(trackerData: data)
        let path = String(repeating: "a", count: 5_000) + "!"
        let decision = try #require(resolver.decision(
            forRequestURL: "https://slow.example/" + path + String(repeating: "x", count: 5_000),
            topURL: "https://site.example/", type: .script))
        #expect(decision.reason == .defaultIgnore)
        let matching = try #require(resolver.decision(
            forRequestURL: "https://slow.example/aaaa", topURL: "https://site.example/", type: .script))
        #expect(matching.reason == .matchedRuleBlock)
    }

    @Test("not a tracker")
    func notATracker() throws {
        let decision = try decide("https://example.org/x.js")
        #expect(decision.action == nil)
        #expect(decision.reason == .noMatch)
        #expect(!decision.isTracker)
    }

    @Test("default block on a subdomain, with the tracker and entity reported")
    func defaultBlock() throws {
        let decision = try decide("https://a.b.ads.example/anything")
        #expect(decision.action == .block)
        #expect(decision.reason == .defaultBlock)
        #expect(decision.tracker?.domain == "ads.example")
        #expect(decision.entity?.displayName == "Ads")
        #expect(decision.matchedRuleIndex == nil)
    }

    @Test("default ignore")
    func defaultIgnore() throws {
        let decision = try decide("https://cdn.example/lib.js")
        #expect(decision.action == .ignore)
        #expect(decision.reason == .defaultIgnore)
    }

    @Test("rules: ignore, surrogate, exception, block; matching ignores case and port")
    func rules() throws {
        #expect(try decide("https://ads.example/ok.js").reason == .matchedRuleIgnore)
        let surrogate = try decide("https://ADS.example:8443/tag.js?v=1")
        #expect(surrogate.action == .redirect(surrogate: "tag.js"))
        #expect(surrogate.reason == .matchedRuleSurrogate)
        #expect(surrogate.matchedRuleIndex == 1)
        #expect(surrogate.matchedRule?.surrogate == "tag.js")

        let excepted = try decide("https://ads.example/pixel.gif", on: "https://www.shop.example/", type: .image)
        #expect(excepted.action == .ignore)
        #expect(excepted.reason == .matchedRuleException)
        // Both lists must match: a script on the same site is blocked by the rule.
        let blocked = try decide("https://ads.example/pixel.gif", on: "https://www.shop.example/", type: .script)
        #expect(blocked.action == .block)
        #expect(blocked.reason == .matchedRuleBlock)
        #expect(blocked.matchedRuleIndex == 2)
    }

    @Test("options that do not match fall through to the next rule")
    func optionsFallThrough() throws {
        let onNews = try decide("https://ads.example/only-news", on: "https://m.news.example/")
        #expect(onNews.action == .block)
        #expect(onNews.matchedRuleIndex == 3)
        let elsewhere = try decide("https://ads.example/only-news")
        #expect(elsewhere.action == .ignore)
        #expect(elsewhere.matchedRuleIndex == 4)
    }

    @Test("unsupported actions are skipped; Click-to-Load actions block")
    func actions() throws {
        #expect(try decide("https://ads.example/future").reason == .defaultBlock)
        #expect(try decide("https://ads.example/ctl").reason == .matchedRuleBlock)
    }

    @Test("first party: same entity, or same eTLD+1")
    func firstParty() throws {
        #expect(try decide("https://ads.example/x.js", on: "https://ads-owner.example/").reason == .firstParty)
        #expect(try decide("https://ads.example/x.js", on: "https://www.ads.example/").reason == .firstParty)
    }

    @Test("CNAME: the exact cloaked host is uncloaked and the path kept")
    func cname() throws {
        let decision = try decide("https://metrics.shop.example/tag.js", on: "https://news.example/")
        #expect(decision.action == .redirect(surrogate: "tag.js"))
        #expect(decision.cnameTarget == "edge.ads.example")
        #expect(decision.isCNAMEUncloaked)
        // The cloaked host is on the site's own eTLD+1, and still blocked.
        #expect(try decide("https://metrics.shop.example/t", on: "https://shop.example/").action == .block)
        // Subdomains of a cloaked host are not cloaked.
        #expect(try decide("https://a.metrics.shop.example/t").action == nil)
    }

    @Test("navigations are never blocked")
    func mainFrame() throws {
        let decision = try decide("https://ads.example/", on: "https://ads.example/", type: .mainFrame)
        #expect(decision.action == .ignore)
    }

    @Test("the privacy configuration and the user allowlist turn protection off")
    func protectionOff() throws {
        let configuration = PrivacyConfiguration(
            features: [
                "contentBlocking": .init(state: .enabled, exceptions: [.init(domain: "broken.example")])
            ],
            unprotectedTemporary: [.init(domain: "temporary.example")])
        let resolver = TrackerResolver(
            trackerData: Self.trackerData, privacyConfiguration: configuration,
            userAllowlist: UserAllowlist(domains: ["mine.example"]))
        func reason(_ site: String) -> BlockingDecision.Reason? {
            resolver.decision(forRequestURL: "https://ads.example/x", topURL: site, type: .script)?.reason
        }
        #expect(reason("https://www.broken.example/") == .unprotectedDomain)
        #expect(reason("https://a.temporary.example/") == .unprotectedDomain)
        #expect(reason("https://mine.example/") == .userAllowlist)
        #expect(reason("https://www.mine.example/") == .userAllowlist, "www. is the same domain, as DuckDuckGo's toggle")
        #expect(reason("https://m.mine.example/") == .defaultBlock, "no other subdomain")
        #expect(reason("https://other.example/") == .defaultBlock)
        let notTracker = resolver.decision(forRequestURL: "https://x.org/", topURL: "https://mine.example/", type: .script)
        #expect(notTracker?.action == nil)

        let disabled = TrackerResolver(
            trackerData: Self.trackerData,
            privacyConfiguration: PrivacyConfiguration(features: ["contentBlocking": .init(state: .disabled)]))
        #expect(disabled.decision(forRequestURL: "https://ads.example/x", topURL: "https://a.example/", type: .script)?
            .reason == .unprotectedDomain)
    }

    @Test("the request blocklist blocks first-party requests too, but not navigations")
    func requestBlocklist() throws {
        let rule = try #require(RequestBlocklist.Rule(rule: "shop.example/api/*/track", domains: ["<all>"]))
        let configuration = PrivacyConfiguration(
            features: [
                "contentBlocking": .init(state: .enabled),
                "requestBlocklist": .init(state: .enabled),
            ],
            requestBlocklist: RequestBlocklist(blockedRequests: ["shop.example": [rule]]))
        let resolver = TrackerResolver(trackerData: Self.trackerData, privacyConfiguration: configuration)
        let blocked = resolver.decision(
            forRequestURL: "https://shop.example/api/v2/track?x", topURL: "https://shop.example/", type: .xmlhttprequest)
        #expect(blocked?.action == .block)
        #expect(blocked?.reason == .requestBlocklist)
        #expect(blocked?.requestBlocklistRule == rule)
        let navigation = resolver.decision(
            forRequestURL: "https://shop.example/api/v2/track", topURL: "https://shop.example/", type: .mainFrame)
        #expect(navigation?.action == nil)
        let caseDiffers = resolver.decision(
            forRequestURL: "https://shop.example/API/v2/track", topURL: "https://shop.example/", type: .image)
        #expect(caseDiffers?.action == nil)
    }
}

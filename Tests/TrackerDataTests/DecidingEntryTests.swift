import Testing
import TrackerDataKit
import TrackerlessCore

/// What each step of the procedure names as its deciding entry, on the small blocklist of
/// ``TrackerResolverTests`` and a configuration a reader can check by eye.
@Suite("Deciding entries")
struct DecidingEntryTests {
    typealias Entry = BlockingDecision.DecidingEntry

    static let allowRule = TrackerAllowlist.Rule(rule: "ads.example/allowed.js", domains: ["allowing.example"])
    static let blockRule = RequestBlocklist.Rule(rule: "plain.example/bad/*", domains: ["<all>"], reason: "breaks pages")!
    static let configuration = PrivacyConfiguration(
        features: [
            "contentBlocking": .init(state: .enabled, exceptions: [.init(domain: "other.example"), .init(domain: "broken.example")]),
            "trackerAllowlist": .init(state: .enabled),
            "requestBlocklist": .init(state: .enabled),
        ],
        unprotectedTemporary: [.init(domain: "temporary.example")],
        trackerAllowlist: TrackerAllowlist(entries: [
            .init(trackerDomain: "cdn.example", rules: [.init(rule: "cdn.example/x", domains: ["<all>"])]),
            .init(trackerDomain: "ads.example", rules: [.init(rule: "ads.example/none", domains: ["<all>"]), allowRule]),
        ]),
        requestBlocklist: RequestBlocklist(blockedRequests: ["plain.example": [blockRule]]))

    let resolver = TrackerResolver(
        trackerData: TrackerResolverTests.trackerData, surrogates: TrackerResolverTests.surrogates,
        privacyConfiguration: configuration, userAllowlist: UserAllowlist(domains: ["toggled.example"]))

    func entry(_ request: String, on site: String = "https://shop.example/", type: RequestType = .script) throws -> Entry? {
        try #require(resolver.decision(forRequestURL: request, topURL: site, type: type)).decidingEntry
    }

    @Test("tds rules and defaults: the tracker, the rule's index and the rule itself")
    func trackerEntries() throws {
        let rules = TrackerResolverTests.ads.rules
        #expect(try entry("https://ads.example/ok.js") == .trackerRule(.init(trackerDomain: "ads.example", index: 0, rule: rules[0])))
        #expect(try entry("https://ads.example/tag.js") == .trackerRule(.init(trackerDomain: "ads.example", index: 1, rule: rules[1])))
        #expect(try entry("https://ads.example/pixel", type: .image) == .trackerRule(.init(trackerDomain: "ads.example", index: 2, rule: rules[2])))
        // only-news: rule 3's options do not cover shop.example, rule 4 decides.
        #expect(try entry("https://ads.example/only-news") == .trackerRule(.init(trackerDomain: "ads.example", index: 4, rule: rules[4])))
        #expect(try entry("https://ads.example/only-news", on: "https://news.example/")
            == .trackerRule(.init(trackerDomain: "ads.example", index: 3, rule: rules[3])))
        #expect(try entry("https://ads.example/other") == .trackerDefault(trackerDomain: "ads.example", defaultAction: .block))
        #expect(try entry("https://cdn.example/y") == .trackerDefault(trackerDomain: "cdn.example", defaultAction: .ignore))
        // Through a CNAME, the target's tracker.
        #expect(try entry("https://metrics.shop.example/other") == .trackerDefault(trackerDomain: "ads.example", defaultAction: .block))
    }

    @Test("configuration entries: which list, the entry's key or domain, its index and text")
    func configurationEntries() throws {
        #expect(try entry("https://ads.example/allowed.js", on: "https://www.allowing.example/")
            == .trackerAllowlist(trackerDomain: "ads.example", index: 1, rule: Self.allowRule))
        #expect(try entry("https://plain.example/bad/1.js") == .requestBlocklist(domain: "plain.example", index: 0, rule: Self.blockRule))
        #expect(try entry("https://ads.example/tag.js", on: "https://a.temporary.example/")
            == .unprotectedSite(.unprotectedTemporary(index: 0, domain: "temporary.example")))
        #expect(try entry("https://ads.example/tag.js", on: "https://broken.example/")
            == .unprotectedSite(.featureException(feature: "contentBlocking", index: 1, domain: "broken.example")))
        let off = TrackerResolver(trackerData: TrackerResolverTests.trackerData, privacyConfiguration: PrivacyConfiguration())
        #expect(off.decision(forRequestURL: "https://ads.example/tag.js", topURL: "https://shop.example/", type: .script)?.decidingEntry
            == .unprotectedSite(.featureNotEnabled(feature: "contentBlocking", state: nil)))
    }

    @Test("the user's toggle, first party, navigation, and nothing for no match")
    func otherEntries() throws {
        #expect(try entry("https://ads.example/tag.js", on: "https://toggled.example/") == .userAllowlist(domain: "toggled.example"))
        #expect(try entry("https://ads.example/tag.js", on: "https://ads-owner.example/") == .sameEntity(entity: "Ads Inc"))
        #expect(try entry("https://ads.example/tag.js", type: .mainFrame) == .mainFrame)
        #expect(try entry("https://plain.example/fine.js") == nil)
        let unowned = TrackerData(trackers: ["solo.example": Tracker(domain: "solo.example", defaultAction: .block)])
        let resolver = TrackerResolver(trackerData: unowned)
        #expect(resolver.decision(forRequestURL: "https://t.solo.example/a", topURL: "https://www.solo.example/", type: .image)?
            .decidingEntry == .sameSite(registrableDomain: "solo.example"))
    }

    @Test("the JSON names the kind, the position and the text, in the inputs' member names")
    func json() throws {
        let rule = try #require(resolver.decision(
            forRequestURL: "https://ads.example/pixel", topURL: "https://shop.example/", type: .image))
        #expect(rule.jsonValue().jsonString() == #"""
            {"action":"ignore","reason":"matched rule - exception","tracker":"ads.example","entity":"Ads Inc","decidedBy":{"kind":"trackerRule","tracker":"ads.example","index":2,"rule":"ads\\.example/pixel","exceptions":{"domains":["shop.example"],"types":["image"]}}}
            """#)
        let blocked = try #require(resolver.decision(
            forRequestURL: "https://plain.example/bad/1.js", topURL: "https://shop.example/", type: .script))
        #expect(blocked.decidingEntry?.jsonValue().jsonString() == #"""
            {"kind":"requestBlocklist","domain":"plain.example","index":0,"rule":"plain.example/bad/*","domains":["<all>"],"reason":"breaks pages"}
            """#)
        let off = Entry.unprotectedSite(.featureNotEnabled(feature: "contentBlocking", state: .disabled))
        #expect(off.jsonValue().jsonString() == #"{"kind":"featureNotEnabled","feature":"contentBlocking","state":"disabled"}"#)
    }
}

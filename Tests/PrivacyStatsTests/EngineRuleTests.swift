import PrivacyStatsKit
import Testing
import TrackerDataKit
import TrackerlessCore

/// A host in engine mode names the engine's rule with each load it observes; the snapshot, its
/// JSON and the HTML dashboard carry those rules per host, as the requests under it move.
@Suite("PageStats: the engine's deciding rule per host")
struct EngineRuleTests {
    static let pixel = "https://ads.tracker.test/p.gif"
    static let other = "https://ads.tracker.test/q.gif"
    static let source = JSONValue.object(JSONObject([
        ("kind", .string("tracker")), ("name", .string("tracker.test")), ("path", .string(#"trackers["tracker.test"].rules[4]"#)),
        ("rule", .string(#"tracker\.test/p"#)),
    ]))

    static func hostStates(_ page: PageStats) -> [PageSnapshot.HostState] {
        page.snapshot().companies.flatMap(\.hosts)
    }

    @Test("observed loads with their rules: each distinct rule once, in the order first seen, under its host and state")
    func rulesPerHost() throws {
        var page = PageStats(url: "https://site.test/", resolver: StatsFixture.resolver)
        let first = EngineRule(list: 1, rule: 7, source: Self.source)
        page.record(NativeObservation(url: Self.pixel, type: .image, outcome: .blocked, engineRule: first))
        page.record(NativeObservation(url: Self.other, type: .image, outcome: .blocked, engineRule: EngineRule(list: 0, rule: 3)))
        page.record(NativeObservation(url: Self.pixel + "?again", type: .image, outcome: .blocked, engineRule: first))
        let hosts = Self.hostStates(page)
        let blocked = try #require(hosts.first { $0.state == .blocked })
        #expect(blocked.requests == 3)
        #expect(blocked.engineRules == [first, EngineRule(list: 0, rule: 3)], "\(blocked.engineRules)")

        let json = page.snapshot().jsonValue().jsonString()
        #expect(json.contains(#""engineRules":[{"list":1,"rule":7,"source":{"kind":"tracker""#), "\(json)")
        let html = DashboardHTML.render(page.snapshot())
        #expect(html.contains("rule 7 of content rule list 1, built from <code>trackers[&quot;tracker.test&quot;].rules[4]</code>")
                || html.contains("rule 7 of content rule list 1, built from <code>trackers[&#34;tracker.test&#34;].rules[4]</code>"), "\(html)")
    }

    @Test("a rule named after the outcome joins it; a load that then went through leaves the blocked host's rules")
    func rulesFollowTheirRequests() throws {
        var page = PageStats(url: "https://site.test/", resolver: StatsFixture.resolver)
        let rule = EngineRule(list: 0, rule: 2)
        page.record(NativeObservation(url: Self.pixel, type: .image, outcome: .blocked))
        #expect(Self.hostStates(page).allSatisfy { $0.engineRules.isEmpty })
        page.record(NativeObservation(url: Self.pixel, type: .image, outcome: .blocked, engineRule: rule))
        #expect(Self.hostStates(page).first { $0.state == .blocked }?.engineRules == [rule])
        // The same load seen going to the network: no longer blocked, and no rule blocked it.
        page.record(NativeObservation(url: Self.pixel, type: .image, outcome: .allowed))
        let hosts = Self.hostStates(page)
        #expect(!hosts.contains { $0.state == .blocked }, "\(hosts)")
        #expect(hosts.allSatisfy { $0.engineRules.isEmpty }, "\(hosts.map(\.engineRules))")
        #expect(!page.snapshot().jsonValue().jsonString().contains("engineRules"))
    }
}

import Foundation
import PrivacyStatsKit
import TrackerDataKit
import Testing
import TrackerlessCore

/// The blocking script's click message: a `clickToLoad` event, decoded for the host; the embeds
/// of its action that load afterwards count as allowed by the click.
@Suite("Message decoding: the Click-to-Load click")
struct ClickToLoadMessageTests {
    static let click = ObservedEvent.clickToLoad(
        url: "https://www.youtube.com/embed/abc", action: "block-ctl-yt", token: "0123456789abcdef")

    func decode(_ text: String) -> Result<ScriptMessage, MessageRejection> {
        ScriptMessage.decode(.json(text), limits: .default) { StatsFixture.secret.value == $0 }
    }

    @Test("the click event round-trips through its JSON: url, action and token")
    func roundTrip() {
        let message = StatsFixture.message([Self.click], script: .blocking)
        #expect(decode(message.jsonValue().jsonString()) == .success(message))
    }

    @Test("an action that is no Click-to-Load action, or a token that is not 16 hex digits, is invalid schema", arguments: [
        #"{"kind": "clickToLoad", "url": "https://a.test/", "action": "block", "token": "0123456789abcdef"}"#,
        #"{"kind": "clickToLoad", "url": "https://a.test/", "action": "block-ctl-yt", "token": "0123"}"#,
        #"{"kind": "clickToLoad", "url": "https://a.test/", "action": "block-ctl-yt", "token": "0123456789ABCDEF"}"#,
        #"{"kind": "clickToLoad", "url": "https://a.test/", "action": "block-ctl-yt"}"#,
    ])
    func invalid(event: String) {
        let text = StatsFixture.message([], script: .blocking).jsonValue().jsonString()
            .replacingOccurrences(of: #""events":[]"#, with: #""events":[\#(event)]"#)
        #expect(decode(text) == .failure(.invalidSchema))
    }

    @Test("the statistics accept it and count no request for it")
    func statistics() {
        let stats = PrivacyStats(resolver: StatsFixture.resolver, secrets: [StatsFixture.secret])
        stats.didCommitNavigation(tab: "1", url: "https://site.test/")
        let message = StatsFixture.message([Self.click], script: .blocking)
        #expect(stats.receive(StatsFixture.body(message), tab: "1") == .accepted(events: 1))
        #expect(stats.snapshot(tab: "1").requests.observed == 0)
    }

    /// A blocklist with YouTube's Click-to-Load rule, as in apple-tds.json.
    static let clickToLoadResolver: TrackerResolver = {
        let json = """
            {"trackers": {"youtube.com": {"domain": "youtube.com", "owner": {"name": "Google LLC", "displayName": "Google"},
              "prevalence": 0.2, "fingerprinting": 1, "categories": ["Embedded Content"], "default": "ignore",
              "rules": [{"rule": "youtube\\\\.com/embed", "action": "block-ctl-yt"}]}},
             "entities": {"Google LLC": {"displayName": "Google", "domains": ["youtube.com"], "prevalence": 50}},
             "domains": {"youtube.com": "Google LLC"}}
            """
        // The literal is valid; a failure here is a broken fixture.
        return TrackerResolver(trackerData: try! TrackerData(parsing: Array(json.utf8), file: "ctl tds.json"))
    }()

    static func reasons(_ snapshot: PageSnapshot) -> [String] {
        snapshot.allowedReasons.filter { $0.trackers > 0 }.map { "\($0.reason.rawValue): \($0.trackers)" }
    }

    /// The dashboard's reasons after the embed's placeholder was reported blocked, the user
    /// clicked (or not) and the embed loaded.
    func reasons(clicked: Bool) -> (PageSnapshot.TrackerCounts, [String]) {
        let stats = PrivacyStats(resolver: Self.clickToLoadResolver, secrets: [StatsFixture.secret])
        stats.didCommitNavigation(tab: "1", url: "https://site.test/")
        let embed = "https://www.youtube.com/embed/abc"
        let placeholder = StatsFixture.message([StatsFixture.request(embed, .subdocument, .blocked)], script: .blocking)
        #expect(stats.receive(StatsFixture.body(placeholder), tab: "1") == .accepted(events: 1))
        #expect(stats.snapshot(tab: "1").trackers.blocked == 1)
        if clicked {
            let click = StatsFixture.message([Self.click], sequence: 1, script: .blocking)
            #expect(stats.receive(StatsFixture.body(click), tab: "1") == .accepted(events: 1))
        }
        #expect(stats.observe(NativeObservation(url: embed, outcome: .allowed), tab: "1"))
        let snapshot = stats.snapshot(tab: "1")
        return (snapshot.trackers, Self.reasons(snapshot))
    }

    @Test("an embed that loads after the user's click counts once, allowed by the click; without a click, by protections off")
    func clickedEmbedIsAllowedByTheClick() {
        let (clicked, clickedReasons) = reasons(clicked: true)
        #expect(clicked.blocked == 0 && clicked.allowed == 1)
        #expect(clickedReasons == ["click to load: 1"])
        let (unclicked, unclickedReasons) = reasons(clicked: false)
        #expect(unclicked.blocked == 0 && unclicked.allowed == 1)
        #expect(unclickedReasons == ["protections off: 1"])
    }

    @Test("a click on one action leaves another action's loaded embeds under protections off")
    func otherActionIsNotAllowedByTheClick() {
        let stats = PrivacyStats(resolver: Self.clickToLoadResolver, secrets: [StatsFixture.secret])
        stats.didCommitNavigation(tab: "1", url: "https://site.test/")
        let click = ObservedEvent.clickToLoad(url: "https://www.facebook.com/plugins/post", action: "block-ctl-fb", token: "0123456789abcdef")
        #expect(stats.receive(StatsFixture.body(StatsFixture.message([click], script: .blocking)), tab: "1") == .accepted(events: 1))
        #expect(stats.observe(NativeObservation(url: "https://www.youtube.com/embed/abc", outcome: .allowed), tab: "1"))
        #expect(Self.reasons(stats.snapshot(tab: "1")) == ["protections off: 1"])
    }
}

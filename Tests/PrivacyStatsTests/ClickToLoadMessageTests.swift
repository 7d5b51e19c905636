import Foundation
import PrivacyStatsKit
import Testing
import TrackerlessCore

/// The blocking script's click message: a `clickToLoad` event, decoded for the host, counted as
/// nothing by the statistics.
@Suite("Message decoding: the Click-to-Load click")
struct ClickToLoadMessageTests {
    static let click = ObservedEvent.clickToLoad(
        url: "https://www.youtube.com/embed/abc", action: "block-ctl-yt", token: "0123456789abcdef")

    func decode(_ text: String) -> Result<ScriptMessage, MessageRejection> {
        ScriptMessage.decode(.json(text), limits: .default) { StatsFixture.secret.hex == $0 }
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
        stats.didStartNavigation(tab: "1", url: "https://site.test/")
        let message = StatsFixture.message([Self.click], script: .blocking)
        #expect(stats.receive(StatsFixture.body(message), tab: "1") == .accepted(events: 1))
        #expect(stats.snapshot(tab: "1").requests.observed == 0)
    }
}

import ContentRuleList
import Testing
@testable import TrackerlessWebKitGTK

/// Engine mode's content filter: the WebSocket rules of a set's list, and nothing else.
@Suite("The WebSocket rules engine mode filters with")
struct WebSocketRuleListTests {
    static let source = #"""
        [
          {"trigger": {"url-filter": "^https?://tracker\\.example/"}, "action": {"type": "block"}},
          {"trigger": {"url-filter": "^wss?://socket\\.example/", "resource-type": ["websocket", "script"]}, "action": {"type": "block"}},
          {"trigger": {"url-filter": "^https?://raw\\.example/", "resource-type": ["raw"]}, "action": {"type": "block"}},
          {"trigger": {"url-filter": "^https?://image\\.example/", "resource-type": ["image"]}, "action": {"type": "block"}},
          {"trigger": {"url-filter": ".*", "if-domain": ["*site.example"]}, "action": {"type": "ignore-previous-rules"}},
          {"trigger": {"url-filter": ".*"}, "action": {"type": "css-display-none", "selector": ".ad"}},
          {"trigger": {"url-filter": "^https?://cookie\\.example/"}, "action": {"type": "block-cookies"}}
        ]
        """#

    @Test("block and ignore rules that apply to a WebSocket stay, in order, typed websocket; every other rule goes")
    func cutsTheList() throws {
        let rules = try RuleList(parsing: WebSocketRuleList.webSocketRules(of: Array(Self.source.utf8))).rules
        #expect(rules.map(\.trigger.urlFilter) == [#"^https?://tracker\.example/"#, #"^wss?://socket\.example/"#, #"^https?://raw\.example/"#, ".*"])
        #expect(rules.allSatisfy { $0.trigger.resourceTypes == [.websocket] })
        #expect(rules.map(\.action) == [.block, .block, .block, .ignorePreviousRules])
        #expect(rules[3].trigger.condition == (try RuleList(parsing: Self.source)).rules[4].trigger.condition)
    }

    @Test("a list with no rule that blocks a WebSocket, or that does not parse, is an empty list")
    func nothingToBlock() {
        let images = #"[{"trigger": {"url-filter": "x", "resource-type": ["image"]}, "action": {"type": "block"}}]"#
        #expect(WebSocketRuleList.webSocketRules(of: Array(images.utf8)) == Array("[]".utf8))
        #expect(WebSocketRuleList.webSocketRules(of: Array("[{".utf8)) == Array("[]".utf8))
    }
}

import ContentRuleList
import TrackerlessRuntime

/// The rules of one of a set's lists that apply to WebSocket handshakes, as a content-rule list
/// of their own: engine mode's only content filter.
///
/// WebKitGTK's `send-request` never sees a WebSocket handshake, so the extension cannot stop
/// one; WebKit's content filter can (it checks `websocket` rules as the socket connects). Each
/// `block` and `ignore-*-rules` rule whose `resource-type` is absent or names `websocket` (or
/// the legacy `raw`) is kept, in its order and with its other constraints, its types cut down to
/// `websocket`; no other load is filtered, so the extension still decides and reports everything
/// else. A handshake the filter stops reaches neither the extension nor the UI process: it is
/// counted from the blocking script's report of the `WebSocket` page script made, as in rules
/// mode.
struct WebSocketRuleList {
    /// Every identifier of such a list starts with it (not with the runtime's
    /// `EncodedRuleList.identifierPrefix`: these are the view's, not the set's).
    static let identifierPrefix = "trackerless.websocket-"

    /// The list it is cut from.
    let list: EncodedRuleList

    /// Only blocking and Click-to-Load lists can block a socket; a cookie list cannot.
    init?(_ list: EncodedRuleList) {
        guard list.kind == .blocking || list.kind == .clickToLoad else { return nil }
        self.list = list
    }

    /// `trackerless.websocket-<the list's identifier>`: the same rules, the same identifier.
    var identifier: String { Self.identifierPrefix + list.identifier }

    /// Whether `identifier` names a list of this kind cut from none of `lists`.
    static func isStale(_ identifier: String, lists: [EncodedRuleList]) -> Bool {
        identifier.hasPrefix(identifierPrefix) && !lists.contains { identifierPrefix + $0.identifier == identifier }
    }

    /// The list's WebSocket rules as WebKit content-blocker JSON (``webSocketRules(of:)``).
    func json() -> [UInt8] { Self.webSocketRules(of: list.json) }

    /// The WebSocket rules of the list `json`, as WebKit content-blocker JSON: `[]` when it has
    /// none, or when it does not parse (which the set's own list then could not either).
    static func webSocketRules(of json: [UInt8]) -> [UInt8] {
        guard let parsed = try? RuleList(parsing: json) else { return Array("[]".utf8) }
        var rules: [ContentRule] = []
        for var rule in parsed.rules {
            switch rule.action {
            case .block, .ignorePreviousRules, .ignoreFollowingRules: break
            default: continue
            }
            let types = rule.trigger.resourceTypes
            guard types.isEmpty || types.contains(.websocket) || types.contains(.raw) else { continue }
            rule.trigger.resourceTypes = [.websocket]
            rules.append(rule)
        }
        guard rules.contains(where: { $0.action == .block }) else { return Array("[]".utf8) }
        return RuleList(rules).encoded()
    }
}

/// What a rule does to the loads its trigger matches (the `action` object of a rule).
public enum Action: Sendable, Hashable {
    /// `block`: cancel the load.
    case block
    /// `block-cookies`: send the request without cookies.
    case blockCookies
    /// `css-display-none`: hide the elements matching the selector (or comma-separated selectors).
    case cssDisplayNone(selector: String)
    /// `ignore-previous-rules`: cancel the actions of the earlier matching rules of the list.
    case ignorePreviousRules
    /// `ignore-following-rules`: do not apply the later matching rules of the list.
    case ignoreFollowingRules
    /// `make-https`: upgrade `http:`/`ws:` to `https:`/`wss:` when the port is absent or the default.
    case makeHTTPS
    /// `notify`: deliver the notification string to the embedding application.
    case notify(String)
    // The two large payloads are boxed (`indirect`): inline, a redirect's URL transform made
    // every action, so every rule of every list, about 170 bytes larger, for rules that content
    // blockers hardly ever have.
    /// `redirect`: send the request elsewhere (Safari web extensions only).
    indirect case redirect(Redirect)
    /// `modify-headers`: change request or response headers (Safari web extensions only).
    indirect case modifyHeaders(ModifyHeaders)

    /// The action's `type` string, for example `css-display-none`.
    public var type: String {
        switch self {
        case .block: "block"
        case .blockCookies: "block-cookies"
        case .cssDisplayNone: "css-display-none"
        case .ignorePreviousRules: "ignore-previous-rules"
        case .ignoreFollowingRules: "ignore-following-rules"
        case .makeHTTPS: "make-https"
        case .notify: "notify"
        case .redirect: "redirect"
        case .modifyHeaders: "modify-headers"
        }
    }

    /// Whether this is `ignore-previous-rules` or `ignore-following-rules`.
    var isIgnoreRule: Bool {
        switch self {
        case .ignorePreviousRules, .ignoreFollowingRules: true
        default: false
        }
    }
}

/// The user clicked a Click-to-Load placeholder: the blocking script's `clickToLoad` event, from
/// a message the runtime accepted (current secret, the tab's current page).
///
/// The host removes ``action``'s list from the page's rule lists
/// (``NavigationPlan/ruleLists(unblocking:)``) until the tab's next main-frame navigation, then
/// answers the page with ``answerScript``, which puts the action's embeds back.
public struct ClickToLoadRequest: Sendable, Hashable {
    /// The embed's URL.
    public let url: String
    /// The Click-to-Load rule action (`block-ctl-yt`).
    public let action: String
    /// The one-use token the page waits for (16 lowercase hex digits).
    public let token: String

    /// A click on the placeholder of the embed at `url`, blocked by `action`, answered with `token`.
    public init(url: String, action: String, token: String) {
        self.url = url
        self.action = action
        self.token = token
    }

    /// JavaScript for the page's own world that answers the click:
    /// `window.dispatchEvent(new CustomEvent("trackerless-click-to-load", {detail: "<token>"}))`.
    /// The token was checked to be hex digits only, so it needs no escaping.
    public var answerScript: String {
        #"window.dispatchEvent(new CustomEvent("trackerless-click-to-load", {detail: "\#(token)"}));"#
    }
}

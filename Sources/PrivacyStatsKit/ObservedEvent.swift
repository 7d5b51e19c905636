public import TrackerDataKit

/// One thing a script saw on the page, as message protocol v1 reports it (the `events` array).
///
/// The page's word is taken only for what was requested and whether it loaded; whether a URL
/// is a tracker, whose it is and why it was allowed, ``PrivacyStats`` decides with the resolver.
public enum ObservedEvent: Sendable, Hashable {
    /// `{"kind": "request", "url", "type", "state"}`: a request of the page or one of its frames.
    case request(url: String, type: RequestType, state: ObservedState)
    /// `{"kind": "surrogate", "url", "surrogate"}`: the blocking script ran a surrogate in place
    /// of the script at `url`. The script counts as blocked unless a request event reports it
    /// `loaded` (and none `failed` or `blocked`), in any order.
    case surrogate(url: String, surrogate: String)
    /// `{"kind": "navigation", "url"}`: a same-document navigation in the top frame (history API,
    /// `hashchange`); the page and its statistics stay the same.
    case navigation(url: String)
    /// `{"kind": "clickToLoad", "url", "action", "token"}`: the user clicked the placeholder of
    /// an embed at `url` blocked by Click-to-Load rules with `action` (`block-ctl-yt`). The host
    /// decides whether to allow it: it removes that action's rule lists for the page
    /// (`TrackerResolver` takes it as a `userUnblockedRuleActions`), then answers the page with
    /// `token` so that the embed loads again. The statistics count nothing for the click itself;
    /// the action's embeds that load on the page afterwards count as allowed by
    /// ``AllowedReason/clickToLoad``.
    case clickToLoad(url: String, action: String, token: String)
}

public import TrackerDataKit

/// A request the host saw itself, outside the page's reach: WebKitGTK's `resource-load-started`
/// for a load it let through and its content filter's console message for a load it blocked, or
/// the request hook of a host without a content blocker (Android's `shouldInterceptRequest`,
/// WebView2's `WebResourceRequested`) for a request it let through or blocked.
///
/// A page can neither forge nor hide one, so where the scripts and the host both report a
/// request, the host's outcome is the one counted (see the article "How requests are counted").
/// Record one with ``PrivacyStats/observe(_:tab:)``.
///
/// ```swift
/// // WebKitGTK, in "resource-load-started" (no type: WebKit does not say):
/// stats.observe(NativeObservation(url: uri, outcome: .allowed), tab: "tab-1")
/// ```
public struct NativeObservation: Sendable, Hashable {
    /// What the host did with the request.
    public enum Outcome: Sendable, Hashable {
        /// It went to the network (whatever came back: a response, an error, a cancellation).
        case allowed
        /// The host stopped it: its request hook, or its content filter (on WebKitGTK, as the
        /// console message WebKit adds for each load a content filter blocked says).
        case blocked
    }

    /// The URL requested; each URL a redirect led to is an observation of its own.
    public var url: String
    /// The request's type when the host knows it; nil when it does not (WebKitGTK). A
    /// `RequestType.mainFrame` observation is the page itself and is not
    /// counted among its requests.
    public var type: RequestType?
    /// What the host did with it.
    public var outcome: Outcome
    /// The engine's rule that decided it, when the host decided with the rule engine and asked
    /// which rule (the block's for a blocked load); nil otherwise.
    public var engineRule: EngineRule?

    /// An observation of `url`, decided by `engineRule` when the host knows it.
    public init(url: String, type: RequestType? = nil, outcome: Outcome, engineRule: EngineRule? = nil) {
        self.url = url
        self.type = type
        self.outcome = outcome
        self.engineRule = engineRule
    }
}

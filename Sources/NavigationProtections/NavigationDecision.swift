/// What to do with a navigation: the URL to load instead, and the headers to send.
public struct NavigationDecision: Sendable, Hashable {
    /// Why the URL or a header changed.
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// An AMP cache link was replaced by the page it stands for.
        case ampLinkResolved = "amp link resolved"
        /// Tracking parameters were removed from the query.
        case trackingParametersRemoved = "tracking parameters removed"
        /// http became https (Smarter Encryption).
        case upgradedToHTTPS = "upgraded to https"
        /// `Sec-GPC: 1` is sent.
        case globalPrivacyControl = "global privacy control"
        /// The `Referer` was cut to its origin (or is sent as the browser had it: no reason).
        case referrerTrimmed = "referrer trimmed"
    }

    /// The URL to load: the navigation's own URL when nothing applies.
    public var url: String
    /// Whether the URL (after AMP resolution) still looks like an AMP page by the configuration's
    /// keywords, which a host may resolve further by reading the page's canonical link.
    public var ampDetected: Bool
    /// `Sec-GPC` to send, or nil for none.
    public var gpcHeader: String?
    /// `Referer` to send, or nil for none (the browser had none, or its policy removed it).
    public var referrer: String?
    /// What changed, in the order it was applied.
    public var reasons: [Reason]
}

/// A load that WebKitGTK reported to the UI process, with how it ended.
///
/// WebKitGTK reports every load it lets through (`resource-load-started`, then `finished` or
/// `failed`); a load that a content filter blocks is never reported (measured with 2.50.6, see
/// ../shared/research/webkitgtk-host.md), except a blocked main frame, which fails the page load
/// with WebKitPolicyError 104.
public struct ResourceLoad: Sendable, Equatable {
    /// How a load ended.
    public enum Outcome: Sendable, Equatable {
        /// Still loading.
        case pending
        /// The response arrived whole.
        case finished
        /// The load failed, with GLib's error domain, code and message.
        case failed(domain: String, code: Int, message: String)
    }

    /// The URL requested (the first one, before redirects).
    public var url: String
    /// The HTTP method.
    public var method: String
    /// Whether it is the page's own document.
    public var isMainResource: Bool
    /// How it ended.
    public var outcome: Outcome
}

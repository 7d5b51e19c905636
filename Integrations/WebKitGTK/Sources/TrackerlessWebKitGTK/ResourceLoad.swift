/// A load that WebKitGTK reported to the UI process, with where it was redirected, its response
/// and how it ended.
///
/// WebKitGTK reports every load it lets through (`resource-load-started`, then `finished` or
/// `failed`); a load that a content filter blocks is never reported (measured with 2.50.6, see
/// ../shared/research/webkitgtk-host.md), except a blocked main frame, which fails the page load
/// with WebKitPolicyError 104, and a media element's load, reported `finished` with no response.
/// A redirect WebKit followed is reported (`sent-request`); one a content filter stopped is not:
/// the load fails with WebKitPolicyError 104, and its target is never named.
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
    /// The URLs its redirects led to, in order (WebKitWebResource's `sent-request` with a
    /// redirected response); empty when it did not redirect.
    public var redirects: [String] = []
    /// The HTTP status of its response; nil until one arrived, 0 when it ended without one.
    public var responseStatus: Int?
    /// The HTTP method.
    public var method: String
    /// Whether it is the page's own document.
    public var isMainResource: Bool
    /// How it ended.
    public var outcome: Outcome
    /// How many of its URLs (``url``, then ``redirects``) ``ProtectedWebView`` counted.
    var countedURLs = 0

    /// A pending load of `url`, not redirected, with no response yet.
    public init(url: String, method: String, isMainResource: Bool, outcome: Outcome) {
        self.url = url
        self.method = method
        self.isMainResource = isMainResource
        self.outcome = outcome
    }

    /// Every URL it requested: ``url``, then ``redirects``.
    public var urls: [String] { [url] + redirects }

    /// How many of ``urls``, from the first, are known to have reached a server: each one a
    /// redirect answered; all of them once a response arrived or the load failed (an error, a
    /// cancellation, or a content filter stopping a redirect, whose target WebKit never names and
    /// so is not among them); only those a redirect answered when it finished without a
    /// response (a media load a content filter stopped).
    public var urlsReachingServer: Int {
        if let responseStatus, responseStatus > 0 { return urls.count }
        switch outcome {
        case .failed: return urls.count
        case .pending, .finished: return redirects.count
        }
    }
}

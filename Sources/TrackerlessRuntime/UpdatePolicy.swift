public import Foundation

/// When a ``ProtectionUpdater`` checks its sources, and what one download may cost.
///
/// The default is DuckDuckGo's apps' schedule: a check every 30 minutes, an hour after a
/// refused one, a download given 5 minutes; plus what they leave out: a cap on a body's size,
/// retries of a failure that may pass, and limits on redirects.
public struct UpdatePolicy: Sendable, Hashable {
    /// Seconds from a check that updated or found nothing new to the next one.
    public var interval: TimeInterval = 30 * 60
    /// Seconds from a refused check to the next one.
    public var retryInterval: TimeInterval = 60 * 60
    /// How many times one check tries a download that failed in a way that may pass (no
    /// connection, a timeout, a cut body, HTTP 408, 429 or 5xx); at least 1.
    public var attempts: Int = 3
    /// Seconds before the second try of a download; each later try waits twice as long.
    public var retryDelay: TimeInterval = 2
    /// Seconds one try of a download may take, redirects included, and may go without a byte.
    public var timeout: TimeInterval = 5 * 60
    /// The largest body accepted, in bytes: a larger one is refused as soon as its
    /// `Content-Length` says so, or while it is read, never after. DuckDuckGo's blocklists are
    /// under 4 MB.
    public var maxBytes: Int = 32 << 20
    /// How many redirects one download follows. A redirect from `https` to `http` is never
    /// followed.
    public var maxRedirects: Int = 5
    /// Whether a redirect may lead to another origin (scheme, host and port), as CDNs and file
    /// hosts do. An origin the host did not name can serve no more than the named one could
    /// (each body is checked the same way, and a pinned SHA-256 holds wherever the body comes
    /// from), so it is allowed by default; a host that wants its named servers only turns it off.
    public var allowsCrossOriginRedirects = true

    /// DuckDuckGo's schedule with the default limits.
    public static let `default` = UpdatePolicy()

    /// A policy with the defaults.
    public init() {}

    /// The first setting that cannot be used, and why.
    func problem() -> String? {
        let durations = [("interval", interval), ("retryInterval", retryInterval), ("retryDelay", retryDelay), ("timeout", timeout)]
        for (name, value) in durations where !(value.isFinite && value >= 0) {
            return "the policy's \(name) is \(value); give a number of seconds from 0"
        }
        if timeout == 0 { return "the policy's timeout is 0; give a number of seconds above 0" }
        if attempts < 1 { return "the policy's attempts is \(attempts); give 1 or more" }
        if maxBytes < 1 { return "the policy's maxBytes is \(maxBytes); give 1 or more" }
        if maxRedirects < 0 { return "the policy's maxRedirects is \(maxRedirects); give 0 or more" }
        return nil
    }

    /// Seconds before try `attempt` (from 2) of a download.
    func delay(beforeAttempt attempt: Int) -> TimeInterval {
        retryDelay * pow(2, Double(min(attempt - 2, 30)))
    }
}

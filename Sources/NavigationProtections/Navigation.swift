/// A navigation a host is about to start: what the navigation decision needs to know.
public struct Navigation: Sendable, Hashable {
    /// The URL the navigation goes to.
    public var url: String
    /// The page that started it (a link's page, a script's page); nil for the address bar or a
    /// bookmark.
    public var initiator: String?
    /// The `Referer` the browser would send, before trimming.
    public var referrer: String?
    /// For a frame's navigation, the top page's URL; nil for the main frame.
    public var topURL: String?

    /// A navigation to `url`.
    public init(url: String, initiator: String? = nil, referrer: String? = nil, topURL: String? = nil) {
        self.url = url
        self.initiator = initiator
        self.referrer = referrer
        self.topURL = topURL
    }
}

/// A load as WebKit checks it against content rule lists.
///
/// ```swift
/// // An image on www.example.com, requested by the page itself.
/// Request(url: "https://cdn.tracker.net/p.gif", topURL: "https://www.example.com/", resourceType: .image)
/// ```
public struct Request: Sendable, Hashable {
    /// The URL being loaded. It is canonicalized and its fragment removed before matching;
    /// invalid and `data:` URLs are never checked.
    public var url: String
    /// The main document's URL (used by domain and top-URL conditions and for the load type).
    /// For a main-frame navigation (``ResourceType/topDocument``) WebKit uses ``url`` instead.
    public var topURL: String
    /// The URL of the frame's document that issues the load, or nil when the main frame issues
    /// it; then the frame URL is the top URL (the request URL for a main-frame navigation).
    public var frameURL: String?
    /// The kind of load, as the loader assigns it: ``ResourceType/topDocument``,
    /// ``ResourceType/childDocument``, ``ResourceType/image``, … (not `document` or `raw`).
    public var resourceType: ResourceType
    /// The HTTP method of the *document's* request (WebKit's behaviour); nil means GET.
    public var method: RequestMethod?

    /// Creates a load.
    public init(
        url: String, topURL: String, frameURL: String? = nil, resourceType: ResourceType,
        method: RequestMethod? = nil
    ) {
        self.url = url
        self.topURL = topURL
        self.frameURL = frameURL
        self.resourceType = resourceType
        self.method = method
    }

    /// A main-frame navigation to `url`.
    public static func mainDocument(_ url: String, method: RequestMethod? = nil) -> Request {
        Request(url: url, topURL: url, resourceType: .topDocument, method: method)
    }
}

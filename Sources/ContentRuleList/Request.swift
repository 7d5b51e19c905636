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
    /// The URL of the document in the frame that issues the load, which `if-frame-url` and
    /// `unless-frame-url` match: nil when the main frame issues it (then the top URL).
    ///
    /// A navigation is issued by the frame it navigates, so WebKit matches the document the
    /// navigation leaves. For a ``ResourceType/childDocument`` give the iframe's current document
    /// when it navigates again; nil is a new iframe's first load, which WebKit matches against
    /// ``initialFrameDocumentURL`` (`about:blank`), whatever its parent. For a
    /// ``ResourceType/topDocument`` give the page the view leaves; nil is a new view's first load,
    /// which WebKit matches against the request URL.
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

    /// The URL of a new frame's initial document: what WebKit matches frame conditions against
    /// on a new iframe's first load.
    public static let initialFrameDocumentURL = "about:blank"

    /// A main-frame navigation to `url`.
    public static func mainDocument(_ url: String, method: RequestMethod? = nil) -> Request {
        Request(url: url, topURL: url, resourceType: .topDocument, method: method)
    }
}

public import ContentRuleList
public import TrackerDataKit

/// A request as WebKitGTK's `send-request` shows it to a web-process extension: the URL, the
/// method, a few headers and the page's URL, with the kind of load read from them.
///
/// `send-request` gives no resource type and no frame (as Android's `shouldInterceptRequest`),
/// where WebKit's content blocker knows both. ``resourceType`` reads the type from what the
/// request carries, and that can make the engine's answer differ from the content blocker's:
///
/// - `Sec-Fetch-Dest: empty` is every `fetch()`, `XMLHttpRequest`, `sendBeacon` and `<a ping>`:
///   a `Ping-To`/`Ping-From` header makes it a ``ContentRuleList/ResourceType/ping``, a
///   no-cors POST a beacon (``ContentRuleList/ResourceType/other``), anything else a
///   ``ContentRuleList/ResourceType/fetch``. A `fetch(url, {mode: "no-cors", method: "POST"})`
///   is then taken for a beacon, and a rule whose `resource-type` names one but not the other
///   answers differently.
/// - Worklets, workers and JSON modules are taken for ``ContentRuleList/ResourceType/script``;
///   `object`, `embed` and `manifest` loads for ``ContentRuleList/ResourceType/other``;
///   nothing is ever an `svg-document`.
/// - Without `Sec-Fetch-Dest`, `Accept` decides: `text/html` a document, `image/` an image,
///   `text/css` a style sheet, anything else ``ContentRuleList/ResourceType/other`` (a script
///   or a fetch cannot be told apart by `*/*`).
/// - There is no frame: every subresource is matched as the main frame's
///   (``ContentRuleList/Request/frameURL`` nil), so `if-frame-url`/`unless-frame-url` rules see
///   the top URL where the content blocker sees the iframe's document.
/// - Some loads never reach `send-request`: a WebSocket handshake, every request of a
///   SharedWorker or a service worker (they run in no web page), and the connection that
///   `<link rel=preconnect>` or `dns-prefetch` opens. Engine mode stops them another way
///   (TrackerlessWebKitGTK's `RequestBlocking`: a content filter of WebSocket rules, the rest
///   turned off).
/// - The top URL is `webkit_web_page_get_uri`: the page's current URL, which is the new page's as
///   soon as its navigation starts; a subresource of the page being left that starts after that
///   is matched against the new page.
public struct HookedRequest: Sendable, Equatable {
    /// The URL requested.
    public var url: String
    /// The HTTP method.
    public var method: String
    /// The top page's URL (`webkit_web_page_get_uri`); nil when the page has none yet.
    public var topURL: String?
    /// `Sec-Fetch-Dest`.
    public var fetchDestination: String?
    /// `Sec-Fetch-Mode`.
    public var fetchMode: String?
    /// `Accept`.
    public var accept: String?
    /// `Referer`.
    public var referrer: String?
    /// Whether it has a `Ping-To` or `Ping-From` header (an `<a ping>`).
    public var isPing: Bool
    /// Whether it is a redirect of an earlier request (`send-request`'s redirected response).
    public var isRedirect: Bool

    /// A request as `send-request` gives it.
    public init(
        url: String, method: String = "GET", topURL: String?, fetchDestination: String? = nil, fetchMode: String? = nil,
        accept: String? = nil, referrer: String? = nil, isPing: Bool = false, isRedirect: Bool = false
    ) {
        self.url = url
        self.method = method
        self.topURL = topURL
        self.fetchDestination = fetchDestination
        self.fetchMode = fetchMode
        self.accept = accept
        self.referrer = referrer
        self.isPing = isPing
        self.isRedirect = isRedirect
    }

    /// The kind of load, read from the headers (see the type's notes for where it can be wrong).
    public var resourceType: ResourceType {
        if let destination = fetchDestination?.lowercased() {
            switch destination {
            case "document": return .topDocument
            case "iframe", "frame", "fencedframe": return .childDocument
            case "image": return .image
            case "script", "worker", "sharedworker", "serviceworker", "audioworklet", "paintworklet", "json": return .script
            case "style", "xslt": return .styleSheet
            case "font": return .font
            case "audio", "video", "track": return .media
            case "report": return .cspReport
            case "empty":
                if isPing { return .ping }
                if method.uppercased() == "POST", fetchMode?.lowercased() == "no-cors" { return .other }
                return .fetch
            default: return .other
            }
        }
        if isPing { return .ping }
        let accept = (self.accept ?? "").lowercased()
        if accept.hasPrefix("text/html") || accept.hasPrefix("application/xhtml") {
            return topURL == nil || topURL == url ? .topDocument : .childDocument
        }
        if accept.hasPrefix("image/") { return .image }
        if accept.hasPrefix("text/css") { return .styleSheet }
        return .other
    }

    /// Whether it is the page's own document (a main-frame navigation).
    public var isMainDocument: Bool { resourceType == .topDocument }

    /// The load as the engine matches it: the top URL is the page's (the request's own for a
    /// main-frame navigation), no frame URL. WebKit matches `request-method` against the
    /// document's method, which a subresource's request does not carry: GET is assumed.
    public var engineRequest: Request {
        let type = resourceType
        if type == .topDocument { return .mainDocument(url, method: RequestMethod(rawValue: method.lowercased())) }
        return Request(url: url, topURL: topURL ?? url, resourceType: type)
    }

    /// The type the statistics classify it with (DuckDuckGo's names).
    public var requestType: RequestType {
        switch resourceType {
        case .topDocument: .mainFrame
        case .childDocument, .document: .subdocument
        case .image: .image
        case .styleSheet: .stylesheet
        case .script: .script
        case .font: .font
        case .media: .media
        case .fetch: .xmlhttprequest
        case .websocket: .websocket
        case .ping: .ping
        case .cspReport: .cspReport
        default: .other
        }
    }
}

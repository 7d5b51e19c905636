public import CWebKitGTK

/// A WebKitGTK web view with the user content and network session it was created with, and the
/// loads WebKit reports for its current page.
///
/// Every call must come from the thread that runs the GLib main context; callbacks run there.
public final class WebView {
    /// The GTK widget, to put in a window.
    public let widget: UnsafeMutablePointer<GtkWidget>
    /// Its filters, scripts and message handlers.
    public let userContent: UserContent
    /// Its session.
    public let session: NetworkSession?
    /// The loads reported since the current page started loading, in the order they started.
    public private(set) var loads: [ResourceLoad] = []
    /// Counts page loads, so that a late report of an earlier page's load is dropped.
    private var page = 0

    /// Called at each load event of the main frame (started, redirected, committed, finished).
    public var onLoadEvent: ((LoadEvent) -> Void)?
    /// Called when the page load fails, with GLib's error domain, code and message
    /// (WebKitPolicyError 104: the page itself was blocked by a content filter).
    public var onLoadFailure: ((_ url: String, _ domain: String, _ code: Int, _ message: String) -> Void)?
    /// Called when WebKit starts a load it let through (`resource-load-started`), pending.
    public var onResourceLoadStarted: ((ResourceLoad) -> Void)?
    /// ``ProtectedWebView``'s own hook, called before ``onResourceLoadStarted``, so that a host
    /// setting that one cannot take the loads from the statistics.
    var protectionLoadStarted: ((ResourceLoad) -> Void)?
    /// Called when a load ends (finished or failed).
    public var onResourceLoadEnded: ((ResourceLoad) -> Void)?
    /// ``ProtectedWebView``'s own hook, called with a load's index in ``loads`` when it was
    /// redirected, got its response or ended (before ``onResourceLoadEnded``).
    var protectionLoadChanged: ((Int) -> Void)?
    /// ``ProtectedWebView``'s own hook, called before ``onLoadEvent``, which a host may replace.
    var protectionLoadEvent: ((LoadEvent) -> Void)?

    /// The main frame's load events.
    public enum LoadEvent: Sendable, Equatable { case started, redirected, committed, finished }

    /// A web view with its own user content; `session` nil is WebKit's default session,
    /// `context` nil WebKit's default context.
    public init(userContent: UserContent = UserContent(), session: NetworkSession? = nil, context: WebContext? = nil) {
        self.userContent = userContent
        self.session = session
        widget = tl_web_view_new_in_context(userContent.pointer, session?.pointer, context?.pointer)
        g_object_ref_sink(UnsafeMutableRawPointer(widget))
        connectSignals()
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(widget)) }

    var view: UnsafeMutablePointer<WebKitWebView> { WEBKIT_WEB_VIEW(widget) }

    /// Starts loading `url` in the main frame.
    public func load(_ url: String) {
        webkit_web_view_load_uri(view, url)
    }

    /// Starts loading `html` as a document at `baseURL`.
    public func loadHTML(_ html: String, baseURL: String) {
        webkit_web_view_load_html(view, html, baseURL)
    }

    /// The URL of the current page.
    public var url: String? { webkit_web_view_get_uri(view).map { String(cString: $0) } }

    private func connectSignals() {
        let weakSelf = WeakWebView(self)
        let loadChanged: @convention(c) (gpointer?, WebKitLoadEvent, gpointer?) -> Void = { _, event, data in
            guard let webView = CallbackBox<WeakWebView>.peek(data).webView else { return }
            let mapped: LoadEvent
            switch event {
            case WEBKIT_LOAD_STARTED:
                webView.loads.removeAll()
                webView.page += 1
                mapped = .started
            case WEBKIT_LOAD_REDIRECTED: mapped = .redirected
            case WEBKIT_LOAD_COMMITTED: mapped = .committed
            default: mapped = .finished
            }
            webView.protectionLoadEvent?(mapped)
            webView.onLoadEvent?(mapped)
        }
        connectSignal(UnsafeMutableRawPointer(widget), "load-changed", loadChanged, data: CallbackBox(weakSelf).retained())

        let loadFailed: @convention(c) (gpointer?, WebKitLoadEvent, UnsafePointer<gchar>?, UnsafeMutablePointer<GError>?, gpointer?) -> gboolean = {
            _, _, uri, error, data in
            guard let webView = CallbackBox<WeakWebView>.peek(data).webView, let error else { return 0 }
            let domain = String(cString: g_quark_to_string(error.pointee.domain))
            webView.onLoadFailure?(uri.map { String(cString: $0) } ?? "", domain, Int(error.pointee.code), String(cString: error.pointee.message))
            return 0  // let WebKit show its error page
        }
        connectSignal(UnsafeMutableRawPointer(widget), "load-failed", loadFailed, data: CallbackBox(weakSelf).retained())

        let started: @convention(c) (gpointer?, OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { _, resource, request, data in
            guard let webView = CallbackBox<WeakWebView>.peek(data).webView, let resource, let request else { return }
            webView.resourceStarted(resource, request)
        }
        connectSignal(UnsafeMutableRawPointer(widget), "resource-load-started", started, data: CallbackBox(weakSelf).retained())
    }

    private func resourceStarted(_ resource: OpaquePointer, _ request: OpaquePointer) {
        let url = webkit_uri_request_get_uri(request).map { String(cString: $0) } ?? ""
        let method = webkit_uri_request_get_http_method(request).map { String(cString: $0) } ?? "GET"
        let isMain = webkit_web_view_get_main_resource(view) == resource
        let index = loads.count
        let load = ResourceLoad(url: url, method: method, isMainResource: isMain, outcome: .pending)
        loads.append(load)
        protectionLoadStarted?(load)
        onResourceLoadStarted?(load)
        let token = CallbackBox((WeakWebView(self), page, index))
        let finished: @convention(c) (OpaquePointer?, gpointer?) -> Void = { resource, data in
            let (weak, page, index) = CallbackBox<(WeakWebView, Int, Int)>.peek(data)
            weak.webView?.resourceEnded(page, index, .finished, status: WebView.responseStatus(of: resource))
        }
        let failed: @convention(c) (OpaquePointer?, UnsafeMutablePointer<GError>?, gpointer?) -> Void = { resource, error, data in
            let (weak, page, index) = CallbackBox<(WeakWebView, Int, Int)>.peek(data)
            guard let error else { return }
            let domain = String(cString: g_quark_to_string(error.pointee.domain))
            let outcome = ResourceLoad.Outcome.failed(domain: domain, code: Int(error.pointee.code), message: String(cString: error.pointee.message))
            weak.webView?.resourceEnded(page, index, outcome, status: WebView.responseStatus(of: resource))
        }
        let sent: @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { _, request, redirectedResponse, data in
            // The first request has no redirected response: it is the load's own URL.
            guard let request, redirectedResponse != nil, let uri = webkit_uri_request_get_uri(request) else { return }
            let (weak, page, index) = CallbackBox<(WeakWebView, Int, Int)>.peek(data)
            weak.webView?.resourceRedirected(page, index, to: String(cString: uri))
        }
        let responded: @convention(c) (OpaquePointer?, gpointer?, gpointer?) -> Void = { resource, _, data in
            let (weak, page, index) = CallbackBox<(WeakWebView, Int, Int)>.peek(data)
            weak.webView?.resourceResponded(page, index, status: WebView.responseStatus(of: resource))
        }
        connectSignal(UnsafeMutableRawPointer(resource), "sent-request", sent, data: token.retained())
        connectSignal(UnsafeMutableRawPointer(resource), "notify::response", responded, data: token.retained())
        connectSignal(UnsafeMutableRawPointer(resource), "finished", finished, data: token.retained())
        connectSignal(UnsafeMutableRawPointer(resource), "failed", failed, data: token.retained())
    }

    /// The HTTP status of a resource's response; 0 without one.
    static func responseStatus(of resource: OpaquePointer?) -> Int {
        guard let resource, let response = webkit_web_resource_get_response(resource) else { return 0 }
        return Int(webkit_uri_response_get_status_code(response))
    }

    private func resourceRedirected(_ page: Int, _ index: Int, to url: String) {
        guard page == self.page, index < loads.count, loads[index].outcome == .pending else { return }
        loads[index].redirects.append(url)
        protectionLoadChanged?(index)
    }

    private func resourceResponded(_ page: Int, _ index: Int, status: Int) {
        guard page == self.page, index < loads.count, loads[index].outcome == .pending, status > 0 else { return }
        loads[index].responseStatus = status
        protectionLoadChanged?(index)
    }

    private func resourceEnded(_ page: Int, _ index: Int, _ outcome: ResourceLoad.Outcome, status: Int) {
        guard page == self.page, index < loads.count, loads[index].outcome == .pending else { return }
        loads[index].outcome = outcome
        if loads[index].responseStatus == nil || status > 0 { loads[index].responseStatus = status }
        protectionLoadChanged?(index)
        onResourceLoadEnded?(loads[index])
    }

    /// Notes that ``ProtectedWebView`` counted the first `count` URLs of load `index`.
    func setCountedURLs(_ count: Int, ofLoad index: Int) {
        guard index < loads.count else { return }
        loads[index].countedURLs = count
    }
}

import CWebKitGTK

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
        let finished: @convention(c) (OpaquePointer?, gpointer?) -> Void = { _, data in
            let (weak, page, index) = CallbackBox<(WeakWebView, Int, Int)>.peek(data)
            weak.webView?.resourceEnded(page, index, .finished)
        }
        let failed: @convention(c) (OpaquePointer?, UnsafeMutablePointer<GError>?, gpointer?) -> Void = { _, error, data in
            let (weak, page, index) = CallbackBox<(WeakWebView, Int, Int)>.peek(data)
            guard let error else { return }
            let domain = String(cString: g_quark_to_string(error.pointee.domain))
            weak.webView?.resourceEnded(page, index, .failed(domain: domain, code: Int(error.pointee.code), message: String(cString: error.pointee.message)))
        }
        connectSignal(UnsafeMutableRawPointer(resource), "finished", finished, data: token.retained())
        connectSignal(UnsafeMutableRawPointer(resource), "failed", failed, data: token.retained())
    }

    private func resourceEnded(_ page: Int, _ index: Int, _ outcome: ResourceLoad.Outcome) {
        guard page == self.page, index < loads.count, loads[index].outcome == .pending else { return }
        loads[index].outcome = outcome
        onResourceLoadEnded?(loads[index])
    }
}

/// A weak reference handed to GLib, so that a signal handler never keeps its web view alive.
final class WeakWebView {
    weak var webView: WebView?
    init(_ webView: WebView) { self.webView = webView }
}

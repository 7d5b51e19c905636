/// A weak reference handed to GLib, so that a signal handler never keeps its web view alive.
final class WeakWebView {
    weak var webView: WebView?
    init(_ webView: WebView) { self.webView = webView }
}

/// How the scripts send their messages to the host: the channel each kind of web view offers,
/// chosen when the scripts are rendered.
///
/// The renderer puts the code of `JSTemplates/bridges/<rawValue>.js` in place of `$BRIDGE$`.
/// The bridge takes its channel at document start, before page scripts run, so a page that
/// later replaces `window.webkit` or `window.chrome` cannot redirect or drop the messages.
public enum MessageBridge: String, Sendable, Hashable, CaseIterable {
    /// WebKit script message handlers: `window.webkit.messageHandlers[handler].postMessage(object)`
    /// (WKWebView's `WKUserContentController.add(_:contentWorld:name:)`, WebKitGTK's
    /// `webkit_user_content_manager_register_script_message_handler`).
    case webkit
    /// An Android WebView JavaScript interface: `window[handler].postMessage(jsonString)`
    /// (`addJavascriptInterface` or `WebViewCompat.addWebMessageListener`).
    case android
    /// WebView2: `window.chrome.webview.postMessage(object)` (read with `WebMessageAsJson`).
    case webview2
    /// No channel: the scripts still inject surrogates (and block in script when asked), and
    /// report nothing.
    case none

    /// The file of the bridge's code in the templates directory, for example `bridges/webkit.js`.
    public var templatePath: String { "bridges/\(rawValue).js" }
}

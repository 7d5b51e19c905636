import CWebKitWebProcessExtension
import Glibc
import RequestHookKit

/// One web page's `send-request` handler: decides each request with the process's hook (each
/// redirect again), sets the headers, and tells the web view what it did with each URL (a
/// `trackerless.observation` user message) when it blocks requests. In every mode it also tells
/// the web view each load a content filter blocked, read from the page's console
/// (`trackerless.contentBlocked`, see ``RequestHookKit/ContentBlockerMessage``).
final class PageHandler {
    /// The name of the message each observation is sent as; its parameters are `(ssbxx)`: the
    /// URL, the request type the statistics use ("" when the headers cannot tell it), whether
    /// the request was blocked, and the list and rule index of the engine's rule that blocked it
    /// (-1 and -1 when allowed).
    static let observationMessage = "trackerless.observation"
    /// The name of the message each load a content filter blocked is sent as; its parameters
    /// are `(s)`: the URL.
    static let contentBlockedMessage = "trackerless.contentBlocked"

    let holder: HookHolder
    private let logs = getenv("TRACKERLESS_EXTENSION_LOG") != nil

    init(holder: HookHolder) { self.holder = holder }

    /// Connects to `page`'s "send-request"; the page's handler lives as long as the connection.
    func connect(to page: OpaquePointer) {
        let sendRequest: @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?, gpointer?) -> gboolean = {
            page, request, redirectedResponse, data in
            guard let page, let request else { return 0 }
            let handler = Unmanaged<PageHandler>.fromOpaque(data!).takeUnretainedValue()
            return handler.sendRequest(page: page, request: request, isRedirect: redirectedResponse != nil) ? 1 : 0
        }
        let release: GClosureNotify = { data, _ in
            guard let data else { return }
            Unmanaged<PageHandler>.fromOpaque(data).release()
        }
        g_signal_connect_data(
            gpointer(page), "send-request", unsafeBitCast(sendRequest, to: GCallback.self),
            Unmanaged.passRetained(self).toOpaque(), release, GConnectFlags(rawValue: 0))
        let consoleMessageSent: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { page, message, data in
            guard let page, let message else { return }
            Unmanaged<PageHandler>.fromOpaque(data!).takeUnretainedValue().consoleMessageSent(page: page, message: message)
        }
        g_signal_connect_data(
            gpointer(page), "console-message-sent", unsafeBitCast(consoleMessageSent, to: GCallback.self),
            Unmanaged.passRetained(self).toOpaque(), release, GConnectFlags(rawValue: 0))
    }

    /// Reports the load a content filter blocked when `message` is WebKit's word of it. A page
    /// can print the same text (`console.info`, a thrown string), but not with this source and
    /// level: its messages come as the console API's or JavaScript's.
    private func consoleMessageSent(page: OpaquePointer, message: OpaquePointer) {
        guard webkit_console_message_get_source(message) == WEBKIT_CONSOLE_MESSAGE_SOURCE_OTHER,
            webkit_console_message_get_level(message) == WEBKIT_CONSOLE_MESSAGE_LEVEL_INFO,
            let text = webkit_console_message_get_text(message)
        else { return }
        let pageURL = webkit_web_page_get_uri(page).map { String(cString: $0) }
        guard let blocked = ContentBlockerMessage(text: String(cString: text), pageURL: pageURL) else { return }
        if logs { report("content blocker: \(blocked.url) on \(blocked.mainDocumentURL)") }
        var children: [OpaquePointer?] = [g_variant_new_string(blocked.url)]
        let parameters = g_variant_new_tuple(&children, gsize(children.count))
        webkit_web_page_send_message_to_view(page, webkit_user_message_new(Self.contentBlockedMessage, parameters), nil, nil, nil)
    }

    /// Whether to cancel the load.
    private func sendRequest(page: OpaquePointer, request: OpaquePointer, isRedirect: Bool) -> Bool {
        guard let uri = webkit_uri_request_get_uri(request) else { return false }
        let headers = webkit_uri_request_get_http_headers(request)
        func header(_ name: String) -> String? {
            guard let headers, let value = soup_message_headers_get_one(headers, name) else { return nil }
            return String(cString: value)
        }
        let hooked = HookedRequest(
            url: String(cString: uri),
            method: webkit_uri_request_get_http_method(request).map { String(cString: $0) } ?? "GET",
            topURL: webkit_web_page_get_uri(page).map { String(cString: $0) },
            fetchDestination: header("Sec-Fetch-Dest"), fetchMode: header("Sec-Fetch-Mode"), accept: header("Accept"),
            referrer: header("Referer"), isPing: header("Ping-To") != nil || header("Ping-From") != nil, isRedirect: isRedirect)
        let hook = holder.hook
        let verdict = hook.verdict(for: hooked)
        if logs {
            report("\(hooked) -> \(hooked.resourceType.rawValue) \(verdict)")
        }
        if !verdict.isBlocked, let headers {
            if let value = verdict.globalPrivacyControl { soup_message_headers_replace(headers, "Sec-GPC", value) }
            if let referrer = verdict.trimmedReferrer { soup_message_headers_replace(headers, "Referer", referrer) }
        }
        // Every URL of a request is counted, its redirects' too: `send-request` decides each
        // (a redirect to a tracker is blocked there), and the dashboard counts where it led.
        if hook.configuration.blocksRequests {
            // `Sec-Fetch-Dest: iframe` is also what WebKit sends for an <object> or <embed> that
            // loads a document: such a request goes without a type (""), so that the inference
            // script's report of the element (`object`) is the same request, not a second one.
            let type = hooked.resourceType == .childDocument ? "" : hooked.requestType.rawValue
            observe(page: page, url: hooked.url, type: type, blocked: verdict.isBlocked, rule: verdict.blockingRule)
        }
        return verdict.isBlocked
    }

    private func observe(page: OpaquePointer, url: String, type: String, blocked: Bool, rule: BlockingRule?) {
        var children: [OpaquePointer?] = [
            g_variant_new_string(url), g_variant_new_string(type), g_variant_new_boolean(blocked ? 1 : 0),
            g_variant_new_int64(gint64(rule?.list ?? -1)), g_variant_new_int64(gint64(rule?.rule ?? -1)),
        ]
        let parameters = g_variant_new_tuple(&children, gsize(children.count))
        let message = webkit_user_message_new(Self.observationMessage, parameters)
        webkit_web_page_send_message_to_view(page, message, nil, nil, nil)
    }
}

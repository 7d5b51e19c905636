import CWebKitGTK

/// Where a web view's loads go (`WebKitNetworkSession`): cookies, cache, proxy and TLS policy.
public final class NetworkSession {
    let pointer: OpaquePointer

    /// A session that keeps nothing on disk.
    ///
    /// WebKit gives the pages of an ephemeral session's web views no console messages to the
    /// web-process extension (WebCore's `PageConsoleClient` skips the chrome client when the
    /// page `usesEphemeralSession()`), so rules mode's count of what the content filters
    /// blocked (``ProtectedWebView``) sees nothing there: use ``persistent(dataDirectory:cacheDirectory:)``.
    public static func ephemeral() -> NetworkSession { NetworkSession(taking: webkit_network_session_new_ephemeral()) }

    /// A session that keeps its website data (cookies, local storage, HSTS) in `dataDirectory`
    /// and its HTTP cache in `cacheDirectory`.
    public static func persistent(dataDirectory: String, cacheDirectory: String) -> NetworkSession {
        NetworkSession(taking: webkit_network_session_new(dataDirectory, cacheDirectory))
    }

    init(taking pointer: OpaquePointer) { self.pointer = pointer }

    deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }

    /// Sends every load, http and https (through CONNECT) alike, to the HTTP proxy at
    /// `host:port`, loopback included.
    public func useProxy(host: String, port: Int) {
        let settings = webkit_network_proxy_settings_new("http://\(host):\(port)", nil)
        webkit_network_session_set_proxy_settings(pointer, WEBKIT_NETWORK_PROXY_MODE_CUSTOM, settings)
        webkit_network_proxy_settings_free(settings)
    }

    /// Loads https pages whatever their certificate: for tests against a loopback proxy only.
    public func ignoreCertificateErrors() {
        webkit_network_session_set_tls_errors_policy(pointer, WEBKIT_TLS_ERRORS_POLICY_IGNORE)
    }
}

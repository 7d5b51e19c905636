/// Where a ``ProtectedWebView``'s requests are blocked (`trackerless-browser --mode`).
public enum RequestBlocking: String, Sendable, CaseIterable {
    /// WebKit's content filters (the rule lists); the loads they let through are observed in
    /// `resource-load-started`. The default.
    case contentFilters = "rules"
    /// The web-process extension, with the compiled engine, in `send-request`; the one content
    /// filter holds the lists' WebSocket rules (``WebSocketRuleList``: `send-request` never sees
    /// a handshake), and what neither sees is turned off (``disabledFeatures``). The extension
    /// reports every request it sees, blocked or not, and `resource-load-started` is not counted
    /// (it would count each allowed request a second time and each blocked one, which it
    /// reports as a cancelled load, as allowed).
    case webProcessExtension = "engine"
    /// The blocking script alone (`blockInScript`): no content filter, no extension blocking; the
    /// loads WebKit lets through are observed in `resource-load-started`.
    case blockingScript = "script"

    /// Whether the view installs the set's rule lists.
    public var usesContentFilters: Bool { self == .contentFilters }

    /// The WebKit features (`WebKitFeature` identifiers) a view turns off in this mode on a
    /// protected page (a site the user turned off keeps them): what would reach the network past
    /// the mode's blocking, unseen.
    ///
    /// In engine mode `send-request` never sees the requests of a SharedWorker or a service
    /// worker (they run in no web page of the extension's), nor the connection (DNS, TCP, TLS
    /// with the host in its SNI) that `<link rel=preconnect>`, `dns-prefetch` or a preconnect
    /// early hint opens without a request: a page then has no `SharedWorker`, no
    /// `navigator.serviceWorker` and no connection hints, as in a browser without them (pages
    /// test for both workers; a hint only saves time). Dedicated workers, module workers and
    /// worklets stay: their requests pass `send-request`.
    public var disabledFeatures: [String] {
        switch self {
        // dns-prefetch is `LinkDNSPrefetch` in WebKitGTK 2.50 and `DNSPrefetching` in 2.44; 2.54
        // has neither (measured in the Debian roots of .ci/install-webkit-roots.sh).
        case .webProcessExtension:
            ["SharedWorker", "ServiceWorkers", "LinkPreconnect", "LinkPreconnectEarlyHints", "LinkDNSPrefetch", "DNSPrefetching"]
        case .contentFilters, .blockingScript: []
        }
    }
}

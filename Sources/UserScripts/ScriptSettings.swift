public import TrackerlessCore

/// The choices fixed when the scripts are rendered, written into them as `$SETTINGS$`.
///
/// ```swift
/// var settings = ScriptSettings()
/// settings.bridge = .android
/// settings.handler = "TrackerlessBridge"
/// let renderer = try ScriptRenderer(settings: settings)
/// ```
public struct ScriptSettings: Sendable, Hashable {
    /// The message channel to the host.
    public var bridge: MessageBridge
    /// The name of the host's message handler (WebKit) or injected object (Android); WebView2
    /// has a single channel and ignores it. Default `trackerless`.
    public var handler: String
    /// Milliseconds between two messages of one script in one document (at least 10; default 100).
    public var batchInterval: Int
    /// Whether the blocking script blocks the tracker requests page script starts (elements it
    /// makes, `new Image()`, `fetch`, XHR, `sendBeacon`; not the loads of the HTML parser), for
    /// hosts without content rule lists: default false.
    public var blockInScript: Bool
    /// Whether the blocking script blocks the tracker requests that outlive their document
    /// (`navigator.sendBeacon`, `fetch(…, {keepalive: true})`), for hosts that block in a request
    /// hook that never sees them (WebKitGTK's `send-request`): default false. Implied by
    /// ``blockInScript``; either puts every tracker in the scripts' tracker data.
    public var blockKeepalive: Bool
    /// The most events one message carries (1 … 500, the host's limit; default 200).
    public var maxEventsPerMessage: Int
    /// Whether the scripts report their own problems (a surrogate that threw) to the console.
    public var debug: Bool
    /// The user's Global Privacy Control setting: `navigator.globalPrivacyControl` says it on the
    /// sites where the privacy configuration's `gpc` feature applies (default on).
    public var globalPrivacyControl: Bool

    /// Settings with the defaults: WebKit handler `trackerless`, 100 ms, 200 events a message,
    /// native blocking, no debug output, Global Privacy Control on.
    public init(
        bridge: MessageBridge = .webkit, handler: String = "trackerless", batchInterval: Int = 100,
        blockInScript: Bool = false, maxEventsPerMessage: Int = 200, debug: Bool = false,
        globalPrivacyControl: Bool = true, blockKeepalive: Bool = false
    ) {
        self.blockKeepalive = blockKeepalive
        self.bridge = bridge
        self.handler = handler
        self.batchInterval = batchInterval
        self.blockInScript = blockInScript
        self.maxEventsPerMessage = maxEventsPerMessage
        self.debug = debug
        self.globalPrivacyControl = globalPrivacyControl
    }

    /// Checks the values the scripts cannot work with: an empty or non-ASCII handler name, an
    /// interval outside 10 … 60000 ms, a message size outside 1 … 500 events.
    ///
    /// - Throws: ``ScriptRenderError/invalidSetting(_:)`` naming the setting.
    public func validate() throws(ScriptRenderError) {
        guard !handler.isEmpty, handler.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .invalidSetting("handler must be a non-empty name of printable ASCII characters, not \"\(handler)\"")
        }
        guard batchInterval >= 10 && batchInterval <= 60_000 else {
            throw .invalidSetting("batchInterval must be 10 … 60000 ms, not \(batchInterval)")
        }
        guard maxEventsPerMessage >= 1 && maxEventsPerMessage <= 500 else {
            throw .invalidSetting("maxEventsPerMessage must be 1 … 500, not \(maxEventsPerMessage)")
        }
    }

    /// The `$SETTINGS$` object, keys in a fixed order.
    /// Every setting as the scripts carry them (`SETTINGS` in the templates), in a fixed order:
    /// two settings are equal exactly when their JSON is.
    public var json: JSONValue {
        .object(JSONObject([
            ("handler", .string(handler)),
            ("bridge", .string(bridge.rawValue)),
            ("batchInterval", .number(Double(batchInterval))),
            ("blockInScript", .bool(blockInScript)),
            ("blockKeepalive", .bool(blockKeepalive)),
            ("maxEventsPerMessage", .number(Double(maxEventsPerMessage))),
            ("debug", .bool(debug)),
            ("gpc", .bool(globalPrivacyControl)),
        ]))
    }
}

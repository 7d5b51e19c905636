import CWebKitGTK
import PrivacyStatsKit
import TrackerDataKit

/// The requests the web-process extension reports to a web view (`trackerless.observation` user
/// messages: URL, request type or "" when it cannot tell, blocked, and the list and rule index of
/// the engine's rule that blocked it), handed to `observe` as native observations, the rule as
/// ``PrivacyStatsKit/NativeObservation/engineRule`` (its source the runtime's set adds,
/// `ProtectionRuntime.didObserve(_:tab:)`).
///
/// In engine mode the extension sees every request in `send-request` but a WebSocket handshake
/// (which a content filter decides, and the blocking script reports), the blocked ones too, and
/// is the one source of native observations: ``ProtectedWebView`` then leaves
/// `resource-load-started` out (see ``RequestBlocking/webProcessExtension``).
///
/// In every mode the extension also reports each load a content filter blocked
/// (`trackerless.contentBlocked`: the URL), read from the console message WebKit adds to the
/// document for it (``RequestHookKit/ContentBlockerMessage``): handed to `observeContentBlocked`
/// as a blocked native observation without a type.
final class WebProcessObservations {
    /// The message name the extension sends (its `PageHandler.observationMessage`).
    static let messageName = "trackerless.observation"
    /// The message name of a load a content filter blocked (its `PageHandler.contentBlockedMessage`).
    static let contentBlockedMessageName = "trackerless.contentBlocked"

    private let observe: (NativeObservation) -> Void
    private let observeContentBlocked: (NativeObservation) -> Void

    /// Connects to `webView`'s "user-message-received".
    init(
        webView: WebView, observe: @escaping (NativeObservation) -> Void,
        observeContentBlocked: @escaping (NativeObservation) -> Void
    ) {
        self.observe = observe
        self.observeContentBlocked = observeContentBlocked
        let received: @convention(c) (gpointer?, OpaquePointer?, gpointer?) -> gboolean = { _, message, data in
            guard let message, let observations = CallbackBox<WeakObservations>.peek(data).observations,
                let name = webkit_user_message_get_name(message)
            else { return 0 }
            let parameters = webkit_user_message_get_parameters(message)
            switch String(cString: name) {
            case WebProcessObservations.messageName:
                if let observation = WebProcessObservations.observation(in: parameters) { observations.observe(observation) }
            case WebProcessObservations.contentBlockedMessageName:
                if let observation = WebProcessObservations.contentBlocked(in: parameters) { observations.observeContentBlocked(observation) }
            default:
                return 0
            }
            return 1
        }
        connectSignal(UnsafeMutableRawPointer(webView.widget), "user-message-received", received, data: CallbackBox(WeakObservations(self)).retained())
    }

    /// The observation in a message's `(ssbxx)` parameters, or nil when they are of another type.
    static func observation(in parameters: OpaquePointer?) -> NativeObservation? {
        guard let parameters, String(cString: g_variant_get_type_string(parameters)) == "(ssbxx)" else { return nil }
        func child(_ index: Int) -> OpaquePointer { g_variant_get_child_value(parameters, gsize(index)) }
        let url = child(0), type = child(1), blocked = child(2), list = child(3), rule = child(4)
        defer { for value in [url, type, blocked, list, rule] { g_variant_unref(value) } }
        // "": the extension could not tell the type (a document in a frame, an object or an embed).
        let typeName = String(cString: g_variant_get_string(type, nil))
        let isBlocked = g_variant_get_boolean(blocked) != 0
        let listIndex = Int64(g_variant_get_int64(list)), ruleIndex = Int64(g_variant_get_int64(rule))
        let engineRule = isBlocked && listIndex >= 0 && ruleIndex >= 0 && listIndex <= Int64(Int32.max) && ruleIndex <= Int64(Int32.max)
            ? EngineRule(list: Int(listIndex), rule: Int(ruleIndex)) : nil
        return NativeObservation(
            url: String(cString: g_variant_get_string(url, nil)), type: typeName.isEmpty ? nil : RequestType(rawValue: typeName),
            outcome: isBlocked ? .blocked : .allowed, engineRule: engineRule)
    }

    /// The blocked load in a `trackerless.contentBlocked` message's `(s)` parameters, or nil when
    /// they are of another type.
    static func contentBlocked(in parameters: OpaquePointer?) -> NativeObservation? {
        guard let parameters, String(cString: g_variant_get_type_string(parameters)) == "(s)" else { return nil }
        let url = g_variant_get_child_value(parameters, 0)
        defer { g_variant_unref(url) }
        return NativeObservation(url: String(cString: g_variant_get_string(url, nil)), outcome: .blocked)
    }
}

/// A weak reference handed to GLib.
private final class WeakObservations {
    weak var observations: WebProcessObservations?
    init(_ observations: WebProcessObservations) { self.observations = observations }
}

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
final class WebProcessObservations {
    /// The message name the extension sends (its `PageHandler.observationMessage`).
    static let messageName = "trackerless.observation"

    private let observe: (NativeObservation) -> Void

    /// Connects to `webView`'s "user-message-received".
    init(webView: WebView, observe: @escaping (NativeObservation) -> Void) {
        self.observe = observe
        let received: @convention(c) (gpointer?, OpaquePointer?, gpointer?) -> gboolean = { _, message, data in
            guard let message, let observations = CallbackBox<WeakObservations>.peek(data).observations,
                let name = webkit_user_message_get_name(message), String(cString: name) == WebProcessObservations.messageName
            else { return 0 }
            if let observation = WebProcessObservations.observation(in: webkit_user_message_get_parameters(message)) {
                observations.observe(observation)
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
}

/// A weak reference handed to GLib.
final class WeakObservations {
    weak var observations: WebProcessObservations?
    init(_ observations: WebProcessObservations) { self.observations = observations }
}

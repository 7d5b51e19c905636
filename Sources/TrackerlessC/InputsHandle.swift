import ContentRuleList
import TrackerlessRuntime
import UserScripts

/// What a `tl_inputs *` points to: the documents and script settings a host sets one by one.
final class InputsHandle {
    /// The blocklist, the privacy configuration, the user allowlist and the surrogates, in the
    /// order of `tl_input_kind`.
    var documents: [InputDocument?] = [nil, nil, nil, nil]
    var settings = ScriptSettings()
    var webKit = WebKitTarget.oldest

    /// The C names of the documents, in the order of `tl_input_kind`.
    static let kindNames = ["tds", "privacy configuration", "user allowlist", "surrogates"]

    static func borrow(_ pointer: OpaquePointer) -> InputsHandle {
        Unmanaged<InputsHandle>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
    }

    /// The runtime's inputs; nil when the blocklist is missing.
    var protectionInputs: ProtectionInputs? {
        guard let trackerData = documents[0] else { return nil }
        var inputs = ProtectionInputs(
            trackerData: trackerData, privacyConfiguration: documents[1], userAllowlist: documents[2], surrogates: documents[3],
            scriptSettings: settings)
        inputs.webKit = webKit
        return inputs
    }

    /// Why `inputs` gives no runtime inputs, for TL_ERROR_INVALID_ARGUMENT.
    static let missingMessage = "inputs is NULL or has no tds (tl_inputs_set_file or tl_inputs_set_bytes with TL_INPUT_TDS)"

    /// The runtime's inputs behind `pointer`; nil when it is NULL or has no blocklist.
    static func inputs(_ pointer: OpaquePointer?) -> ProtectionInputs? {
        pointer.flatMap { borrow($0).protectionInputs }
    }
}

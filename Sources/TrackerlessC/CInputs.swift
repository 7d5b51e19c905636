import ContentRuleList
import TrackerlessRuntime
import UserScripts

// The inputs of a protection set through the C API (include/trackerless.h): an opaque builder,
// so that no C struct layout has to match a Swift one.

@_cdecl("tl_inputs_new")
public func tl_inputs_new() -> OpaquePointer? {
    OpaquePointer(Unmanaged.passRetained(InputsHandle()).toOpaque())
}

@_cdecl("tl_inputs_set_file")
public func tl_inputs_set_file(_ inputs: OpaquePointer?, _ kind: Int32, _ path: UnsafePointer<CChar>?) -> Int32 {
    guard let inputs, kind >= 0, kind < 4 else { return CStatus.invalidArgument("inputs is NULL or kind is unknown", nil) }
    InputsHandle.borrow(inputs).documents[Int(kind)] = path.map { .file(String(cString: $0)) }
    return CStatus.ok
}

@_cdecl("tl_inputs_set_bytes")
public func tl_inputs_set_bytes(
    _ inputs: OpaquePointer?, _ kind: Int32, _ bytes: UnsafePointer<CChar>?, _ length: UInt, _ name: UnsafePointer<CChar>?
) -> Int32 {
    guard let inputs, kind >= 0, kind < 4 else { return CStatus.invalidArgument("inputs is NULL or kind is unknown", nil) }
    guard let copy = CInput.bytes(bytes, length) else {
        InputsHandle.borrow(inputs).documents[Int(kind)] = nil
        return bytes == nil ? CStatus.ok : CStatus.invalidArgument("length is out of range", nil)
    }
    let documentName = name.map { String(cString: $0) } ?? InputsHandle.kindNames[Int(kind)]
    InputsHandle.borrow(inputs).documents[Int(kind)] = .bytes(copy, name: documentName)
    return CStatus.ok
}

@_cdecl("tl_inputs_set_scripts")
public func tl_inputs_set_scripts(
    _ inputs: OpaquePointer?, _ bridge: UnsafePointer<CChar>?, _ handler: UnsafePointer<CChar>?, _ blockInScript: Int32,
    _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    guard let inputs else { return CStatus.invalidArgument("inputs is NULL", error) }
    // These three only: the other settings (Global Privacy Control) keep their values.
    var settings = InputsHandle.borrow(inputs).settings
    let defaults = ScriptSettings()
    settings.bridge = defaults.bridge
    settings.handler = defaults.handler
    if let bridge {
        guard let known = MessageBridge(rawValue: String(cString: bridge)) else {
            return CStatus.unknownBridge(String(cString: bridge), error)
        }
        settings.bridge = known
    }
    if let handler { settings.handler = String(cString: handler) }
    settings.blockInScript = blockInScript != 0
    do throws(ScriptRenderError) {
        try settings.validate()
    } catch let failure {
        return CStatus.invalidArgument("\(failure)", error)
    }
    InputsHandle.borrow(inputs).settings = settings
    return CStatus.ok
}

@_cdecl("tl_inputs_set_global_privacy_control")
public func tl_inputs_set_global_privacy_control(_ inputs: OpaquePointer?, _ enabled: Int32) -> Int32 {
    guard let inputs else { return CStatus.invalidArgument("inputs is NULL", nil) }
    InputsHandle.borrow(inputs).settings.globalPrivacyControl = enabled != 0
    return CStatus.ok
}

@_cdecl("tl_inputs_set_block_keepalive")
public func tl_inputs_set_block_keepalive(_ inputs: OpaquePointer?, _ enabled: Int32) -> Int32 {
    guard let inputs else { return CStatus.invalidArgument("inputs is NULL", nil) }
    InputsHandle.borrow(inputs).settings.blockKeepalive = enabled != 0
    return CStatus.ok
}

@_cdecl("tl_inputs_set_webkit")
public func tl_inputs_set_webkit(
    _ inputs: OpaquePointer?, _ target: UnsafePointer<CChar>?, _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    guard let inputs else { return CStatus.invalidArgument("inputs is NULL", error) }
    guard let target else {
        InputsHandle.borrow(inputs).webKit = .oldest
        return CStatus.ok
    }
    let name = String(cString: target)
    guard let known = WebKitTarget(name: name) else {
        let names = WebKitTarget.all.map(\.name).joined(separator: ", ")
        return CStatus.invalidArgument("unknown WebKit target \"\(name)\" (known: \(names), webkitgtk-2.N or wpe-2.N from 2.44)", error)
    }
    InputsHandle.borrow(inputs).webKit = known
    return CStatus.ok
}

@_cdecl("tl_inputs_free")
public func tl_inputs_free(_ inputs: OpaquePointer?) {
    guard let inputs else { return }
    Unmanaged<InputsHandle>.fromOpaque(UnsafeRawPointer(inputs)).release()
}

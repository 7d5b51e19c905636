import TrackerDataKit
import TrackerlessCore
import TrackerlessRuntime
import UserScripts

// The scripts through the C API (include/trackerless.h): both rendered with a fresh secret.

@_cdecl("tl_scripts_render")
public func tl_scripts_render(
    _ trackerData: UnsafePointer<CChar>?, _ trackerDataLength: UInt,
    _ privacyConfiguration: UnsafePointer<CChar>?, _ privacyConfigurationLength: UInt,
    _ bridge: UnsafePointer<CChar>?, _ blockInScript: Int32,
    _ json: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    guard let json, let tds = CInput.bytes(trackerData, trackerDataLength), let bridge else {
        return CStatus.invalidArgument("tds, bridge or json is NULL, or a length is out of range", error)
    }
    guard let messageBridge = MessageBridge(rawValue: String(cString: bridge)) else {
        return CStatus.unknownBridge(String(cString: bridge), error)
    }
    // The one build's script stage (ProtectionBuild renders them the same way), the inputs read
    // and named as tl_resolver_new names them.
    var settings = ScriptSettings(bridge: messageBridge)
    settings.blockInScript = blockInScript != 0
    let inputs = ProtectionInputs(
        trackerData: .bytes(tds, name: "tds.json"),
        privacyConfiguration: CInput.bytes(privacyConfiguration, privacyConfigurationLength).map {
            .bytes($0, name: "privacy configuration")
        },
        scriptSettings: settings)
    do throws(ProtectionError) {
        let scripts = try inputs.parse().renderedScripts(secret: .random())
        let object = JSONValue.object(JSONObject([
            ("blocking", .string(scripts.blocking.source)), ("inference", .string(scripts.inference.source)),
            ("secret", .string(scripts.secret.value)), ("handler", .string(settings.handler)),
            ("warnings", .array(scripts.warnings.map { .string($0.description) })),
        ]))
        json.pointee = CStatus.duplicate(object.jsonString())
        return CStatus.ok
    } catch let failure {
        guard case .invalidInput(_, let detail) = failure else { return CStatus.invalidInput(failure.description, error: error) }
        return CStatus.invalidInput(detail, error: error)
    }
}

import TrackerDataKit
import TrackerlessCore
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
    do throws(TrackerDataError) {
        let (parsedTDS, configuration) = try CInput.blocklist(tds, privacyConfiguration, privacyConfigurationLength)
        var settings = ScriptSettings(bridge: messageBridge)
        settings.blockInScript = blockInScript != 0
        let renderer: ScriptRenderer
        do throws(ScriptRenderError) {
            renderer = try ScriptRenderer(settings: settings)
        } catch let failure {
            return CStatus.invalidInput("\(failure)", error: error)
        }
        let scripts = renderer.render(trackerData: parsedTDS, privacyConfiguration: configuration)
        let object = JSONValue.object(JSONObject([
            ("blocking", .string(scripts.blocking.source)), ("inference", .string(scripts.inference.source)),
            ("secret", .string(scripts.secret.value)), ("handler", .string(settings.handler)),
            ("warnings", .array(scripts.warnings.map { .string($0.description) })),
        ]))
        json.pointee = CStatus.duplicate(object.jsonString())
        return CStatus.ok
    } catch let failure {
        return CStatus.invalidInput("\(failure)", error: error)
    }
}

import PrivacyStatsKit
import TrackerDataKit
import TrackerlessCore

// The privacy statistics through the C API (include/trackerless.h): script messages as JSON
// bytes, loads the host observed natively, a tab's dashboard snapshot as JSON.

@_cdecl("tl_stats_new")
public func tl_stats_new(
    _ resolver: OpaquePointer?, _ secret: UnsafePointer<CChar>?, _ stats: UnsafeMutablePointer<OpaquePointer?>?,
    _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    guard let resolver, let secret, let stats else { return CStatus.invalidArgument("resolver, secret or stats is NULL", error) }
    guard let scriptSecret = ScriptSecret(hex: String(cString: secret)) else {
        return CStatus.invalidArgument("secret is not the hex secret tl_scripts_render gave", error)
    }
    let classifier = Unmanaged<ResolverHandle>.fromOpaque(UnsafeRawPointer(resolver)).takeUnretainedValue().resolver
    stats.pointee = OpaquePointer(Unmanaged.passRetained(StatsHandle(PrivacyStats(resolver: classifier, secrets: [scriptSecret]))).toOpaque())
    return CStatus.ok
}

@_cdecl("tl_stats_commit_navigation")
public func tl_stats_commit_navigation(_ stats: OpaquePointer?, _ tab: UnsafePointer<CChar>?, _ url: UnsafePointer<CChar>?) -> Int32 {
    guard let stats, let tab, let url else { return CStatus.invalidArgument("stats, tab or url is NULL", nil) }
    StatsHandle.borrow(stats).didCommitNavigation(tab: TabID(String(cString: tab)), url: String(cString: url))
    return CStatus.ok
}

@_cdecl("tl_stats_receive")
public func tl_stats_receive(
    _ stats: OpaquePointer?, _ tab: UnsafePointer<CChar>?, _ message: UnsafePointer<CChar>?, _ length: UInt,
    _ rejection: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    guard let stats, let tab, let bytes = CInput.bytes(message, length) else {
        return CStatus.invalidArgument("stats, tab or message is NULL, or length is out of range", nil)
    }
    switch StatsHandle.borrow(stats).receive(.bytes(bytes), tab: TabID(String(cString: tab))) {
    case .accepted: return CStatus.ok
    case .rejected(let reason): return CStatus.invalidInput(reason.description, error: rejection)
    }
}

@_cdecl("tl_stats_observe")
public func tl_stats_observe(
    _ stats: OpaquePointer?, _ tab: UnsafePointer<CChar>?, _ url: UnsafePointer<CChar>?, _ type: UnsafePointer<CChar>?,
    _ blocked: Int32
) -> Int32 {
    guard let stats, let tab, let url else { return CStatus.invalidArgument("stats, tab or url is NULL", nil) }
    let observation = NativeObservation(
        url: String(cString: url), type: type.map { RequestType(rawValue: String(cString: $0)) },
        outcome: blocked != 0 ? .blocked : .allowed)
    // false: the tab has no page yet (no tl_stats_commit_navigation).
    return StatsHandle.borrow(stats).observe(observation, tab: TabID(String(cString: tab)))
        ? CStatus.ok : CStatus.invalidInput("the tab has no page", error: nil)
}

@_cdecl("tl_stats_observe_rule")
public func tl_stats_observe_rule(
    _ stats: OpaquePointer?, _ tab: UnsafePointer<CChar>?, _ url: UnsafePointer<CChar>?, _ type: UnsafePointer<CChar>?,
    _ blocked: Int32, _ list: Int64, _ rule: Int64, _ source: UnsafePointer<CChar>?
) -> Int32 {
    guard let stats, let tab, let url else { return CStatus.invalidArgument("stats, tab or url is NULL", nil) }
    var sourceValue: JSONValue?
    if let source {
        let bytes = Array(String(cString: source).utf8)
        do throws(JSONReadError) {
            sourceValue = try JSONReader.read(bytes) { (reader) throws(JSONReadError) -> JSONValue in try reader.readValue() }
        } catch {
            return CStatus.invalidInput("source: \(error)", error: nil)
        }
    }
    let engineRule = list >= 0 && rule >= 0 && list <= Int64(Int32.max) && rule <= Int64(Int32.max)
        ? EngineRule(list: Int(list), rule: Int(rule), source: sourceValue) : nil
    let observation = NativeObservation(
        url: String(cString: url), type: type.map { RequestType(rawValue: String(cString: $0)) },
        outcome: blocked != 0 ? .blocked : .allowed, engineRule: engineRule)
    return StatsHandle.borrow(stats).observe(observation, tab: TabID(String(cString: tab)))
        ? CStatus.ok : CStatus.invalidInput("the tab has no page", error: nil)
}

@_cdecl("tl_stats_snapshot")
public func tl_stats_snapshot(
    _ stats: OpaquePointer?, _ tab: UnsafePointer<CChar>?, _ json: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    guard let stats, let tab, let json else { return CStatus.invalidArgument("stats, tab or json is NULL", nil) }
    json.pointee = CStatus.duplicate(StatsHandle.borrow(stats).snapshot(tab: TabID(String(cString: tab))).jsonString())
    return CStatus.ok
}

@_cdecl("tl_stats_totals")
public func tl_stats_totals(_ stats: OpaquePointer?, _ json: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    guard let stats, let json else { return CStatus.invalidArgument("stats or json is NULL", nil) }
    json.pointee = CStatus.duplicate(bytes: StatsHandle.borrow(stats).totals().jsonValue().jsonBytes())
    return CStatus.ok
}

@_cdecl("tl_stats_free")
public func tl_stats_free(_ stats: OpaquePointer?) {
    guard let stats else { return }
    Unmanaged<StatsHandle>.fromOpaque(UnsafeRawPointer(stats)).release()
}

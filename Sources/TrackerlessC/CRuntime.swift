import TrackerlessCore
import TrackerlessRuntime

// The protection runtime through the C API (include/trackerless.h): a protection set loaded from
// the cache directory or built, updated atomically, site toggles, and the statistics of the
// host's tabs. `tl_runtime *` points to the `ProtectionRuntime` itself.

/// The runtime behind a `tl_runtime *`.
func borrowRuntime(_ pointer: OpaquePointer) -> ProtectionRuntime {
    Unmanaged<ProtectionRuntime>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
}

@_cdecl("tl_runtime_new")
public func tl_runtime_new(
    _ inputs: OpaquePointer?, _ cacheDirectory: UnsafePointer<CChar>?, _ runtime: UnsafeMutablePointer<OpaquePointer?>?,
    _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    guard let runtime, let cacheDirectory else { return CStatus.invalidArgument("cache_directory or runtime is NULL", error) }
    guard let documents = InputsHandle.inputs(inputs) else { return CStatus.invalidArgument(InputsHandle.missingMessage, error) }
    do throws(ProtectionError) {
        let made = try ProtectionRuntime(inputs: documents, cacheDirectory: String(cString: cacheDirectory))
        runtime.pointee = OpaquePointer(Unmanaged.passRetained(made).toOpaque())
        return CStatus.ok
    } catch let failure {
        return CStatus.failure(failure, error)
    }
}

@_cdecl("tl_runtime_current_set")
public func tl_runtime_current_set(_ runtime: OpaquePointer?, _ set: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    guard let runtime, let set else { return CStatus.invalidArgument("runtime or set is NULL", nil) }
    set.pointee = retainedSet(borrowRuntime(runtime).currentSet)
    return CStatus.ok
}

@_cdecl("tl_runtime_update")
public func tl_runtime_update(
    _ runtime: OpaquePointer?, _ inputs: OpaquePointer?, _ set: UnsafeMutablePointer<OpaquePointer?>?,
    _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    guard let runtime else { return CStatus.invalidArgument("runtime is NULL", error) }
    guard let documents = InputsHandle.inputs(inputs) else { return CStatus.invalidArgument(InputsHandle.missingMessage, error) }
    do throws(ProtectionError) {
        let made = try borrowRuntime(runtime).updateOnCurrentThread(documents)
        set?.pointee = retainedSet(made)
        return CStatus.ok
    } catch let failure {
        return CStatus.failure(failure, error)
    }
}

@_cdecl("tl_runtime_set_site_protection")
public func tl_runtime_set_site_protection(
    _ runtime: OpaquePointer?, _ host: UnsafePointer<CChar>?, _ enabled: Int32,
    _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    guard let runtime, let host else { return CStatus.invalidArgument("runtime or host is NULL", error) }
    do throws(ProtectionError) {
        try borrowRuntime(runtime).setProtection(enabled != 0, forSite: String(cString: host))
        return CStatus.ok
    } catch let failure {
        return CStatus.failure(failure, error)
    }
}

@_cdecl("tl_runtime_site_protection")
public func tl_runtime_site_protection(
    _ runtime: OpaquePointer?, _ host: UnsafePointer<CChar>?, _ enabled: UnsafeMutablePointer<Int32>?
) -> Int32 {
    guard let runtime, let host, let enabled else { return CStatus.invalidArgument("runtime, host or enabled is NULL", nil) }
    enabled.pointee = borrowRuntime(runtime).isProtectionEnabled(forSite: String(cString: host)) ? 1 : 0
    return CStatus.ok
}

@_cdecl("tl_runtime_navigation_json")
public func tl_runtime_navigation_json(
    _ runtime: OpaquePointer?, _ url: UnsafePointer<CChar>?, _ json: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    guard let runtime, let url, let json else { return CStatus.invalidArgument("runtime, url or json is NULL", nil) }
    let plan = borrowRuntime(runtime).navigationPlan(for: String(cString: url))
    let object = JSONValue.object(JSONObject([
        ("protected", .bool(plan.isProtected)), ("setIdentity", .string(plan.protectionSet.identity)),
        ("ruleLists", .array(plan.ruleLists.map { .string($0.identifier) })),
        ("scripts", .array(plan.scripts.map { .string($0.name) })),
    ]))
    json.pointee = CStatus.duplicate(object.jsonString())
    return CStatus.ok
}

@_cdecl("tl_runtime_stats")
public func tl_runtime_stats(_ runtime: OpaquePointer?, _ stats: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    guard let runtime, let stats else { return CStatus.invalidArgument("runtime or stats is NULL", nil) }
    stats.pointee = OpaquePointer(Unmanaged.passRetained(StatsHandle(borrowRuntime(runtime).stats)).toOpaque())
    return CStatus.ok
}

@_cdecl("tl_runtime_save_stats")
public func tl_runtime_save_stats(_ runtime: OpaquePointer?, _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    guard let runtime else { return CStatus.invalidArgument("runtime is NULL", error) }
    do throws(ProtectionError) {
        try borrowRuntime(runtime).saveStatistics()
        return CStatus.ok
    } catch let failure {
        return CStatus.failure(failure, error)
    }
}

@_cdecl("tl_runtime_storage_error")
public func tl_runtime_storage_error(_ runtime: OpaquePointer?, _ message: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    guard let runtime, let message else { return CStatus.invalidArgument("runtime or message is NULL", nil) }
    message.pointee = borrowRuntime(runtime).lastStorageError.map { CStatus.duplicate($0.description) } ?? nil
    return CStatus.ok
}

@_cdecl("tl_runtime_free")
public func tl_runtime_free(_ runtime: OpaquePointer?) {
    guard let runtime else { return }
    Unmanaged<ProtectionRuntime>.fromOpaque(UnsafeRawPointer(runtime)).release()
}

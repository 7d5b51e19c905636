import TrackerDataKit
import TrackerlessCore
import TrackerlessRuntime

// The tracker resolver through the C API (include/trackerless.h): the classification of a
// request with its reason, tracker and entity, as DuckDuckGo's reference tests state it.

@_cdecl("tl_resolver_new")
public func tl_resolver_new(
    _ trackerData: UnsafePointer<CChar>?, _ trackerDataLength: UInt,
    _ privacyConfiguration: UnsafePointer<CChar>?, _ privacyConfigurationLength: UInt,
    _ userAllowlist: UnsafePointer<CChar>?, _ userAllowlistLength: UInt,
    _ surrogates: UnsafePointer<CChar>?, _ surrogatesLength: UInt,
    _ resolver: UnsafeMutablePointer<OpaquePointer?>?, _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    guard let resolver, let tds = CInput.bytes(trackerData, trackerDataLength) else {
        return CStatus.invalidArgument("tds or resolver is NULL, or a length is out of range", error)
    }
    // The inputs read and parsed as the one build reads them (ProtectionInputs), named as
    // tl_scripts_render names them.
    let inputs = ProtectionInputs(
        trackerData: .bytes(tds, name: "tds.json"),
        privacyConfiguration: CInput.bytes(privacyConfiguration, privacyConfigurationLength).map { .bytes($0, name: "privacy configuration") },
        userAllowlist: CInput.bytes(userAllowlist, userAllowlistLength).map { .bytes($0, name: "user allowlist") },
        surrogates: CInput.bytes(surrogates, surrogatesLength).map { .bytes($0, name: "surrogates.txt") })
    do throws(ProtectionError) {
        let made = try inputs.parse().resolver()
        resolver.pointee = OpaquePointer(Unmanaged.passRetained(ResolverHandle(made)).toOpaque())
        return CStatus.ok
    } catch let failure {
        guard case .invalidInput(_, let detail) = failure else { return CStatus.invalidInput(failure.description, error: error) }
        return CStatus.invalidInput(detail, error: error)
    }
}

@_cdecl("tl_resolver_classify")
public func tl_resolver_classify(
    _ resolver: OpaquePointer?, _ requestURL: UnsafePointer<CChar>?, _ topURL: UnsafePointer<CChar>?,
    _ type: UnsafePointer<CChar>?, _ json: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    guard let resolver, let requestURL, let topURL, let type, let json else {
        return CStatus.invalidArgument("resolver, request_url, top_url, type or json is NULL", error)
    }
    let handle = Unmanaged<ResolverHandle>.fromOpaque(UnsafeRawPointer(resolver)).takeUnretainedValue()
    let request = String(cString: requestURL)
    let site = String(cString: topURL)
    guard let decision = handle.resolver.decision(
        forRequestURL: request, topURL: site, type: RequestType(rawValue: String(cString: type)))
    else {
        let which = CanonicalURL(request) == nil ? "request_url" : "site_url"
        return CStatus.invalidInput("\(which) is not a valid URL", error: error)
    }
    json.pointee = CStatus.duplicate(decision.jsonValue().jsonString())
    return CStatus.ok
}

@_cdecl("tl_resolver_free")
public func tl_resolver_free(_ resolver: OpaquePointer?) {
    guard let resolver else { return }
    Unmanaged<ResolverHandle>.fromOpaque(UnsafeRawPointer(resolver)).release()
}

import Foundation
import TrackerlessCore
import TrackerlessRuntime

// Updates from URLs through the C API (include/trackerless.h): a `tl_updater *` points to a
// `ProtectionUpdater` of a runtime; a check blocks its caller and answers with the report as JSON.

extension CStatus {
    /// TL_ERROR_NETWORK: an input could not be downloaded.
    static let networkCode: Int32 = 4

    /// The status of a refused update: TL_ERROR_NETWORK when an input could not be downloaded,
    /// TL_ERROR_INVALID_INPUT when a body was refused, TL_ERROR_IO when the downloads could not be kept.
    static func status(of error: UpdateError) -> Int32 {
        switch error.reason {
        case .unreachable, .timedOut, .httpStatus, .truncated, .redirectRefused, .cancelled: networkCode
        case .unwritable: ioCode
        case .invalidSource: invalidArgumentCode
        case .tooLarge, .checksumMismatch, .invalidBody, .rejected: invalidInputCode
        }
    }
}

/// The sources of the C arguments; a message for TL_ERROR_INVALID_ARGUMENT when one is not a URL.
private func updateSources(
    _ trackerData: UnsafePointer<CChar>?, _ trackerDataSHA256: UnsafePointer<CChar>?, _ configuration: UnsafePointer<CChar>?,
    _ configurationSHA256: UnsafePointer<CChar>?
) -> Result<UpdateSources, UpdateError> {
    func document(_ url: UnsafePointer<CChar>?, _ sha256: UnsafePointer<CChar>?, _ input: ProtectionInput) -> Result<RemoteDocument?, UpdateError> {
        guard let url else { return .success(nil) }
        let text = String(cString: url)
        guard let parsed = URL(string: text) else {
            return .failure(UpdateError(input: input, url: nil, reason: .invalidSource("\"\(text.excerpt())\" is not a URL")))
        }
        return .success(RemoteDocument(url: parsed, sha256: sha256.map { String(cString: $0) }))
    }
    return document(trackerData, trackerDataSHA256, .trackerData).flatMap { tds in
        document(configuration, configurationSHA256, .privacyConfiguration).flatMap { config in
            guard let tds else {
                return .failure(UpdateError(input: .trackerData, url: nil, reason: .invalidSource("tds_url is NULL")))
            }
            return .success(UpdateSources(trackerData: tds, privacyConfiguration: config))
        }
    }
}

/// The policy of `json` (NULL: the default): an object of UpdatePolicy's settings.
private func updatePolicy(_ json: UnsafePointer<CChar>?) -> Result<UpdatePolicy, UpdateError> {
    func refused(_ message: String) -> Result<UpdatePolicy, UpdateError> {
        .failure(UpdateError(input: nil, url: nil, reason: .invalidSource("policy_json: " + message)))
    }
    var policy = UpdatePolicy()
    guard let json else { return .success(policy) }
    let members: JSONObject
    do throws(JSONReadError) {
        let bytes = Array(String(cString: json).utf8)
        guard case .object(let object) = try JSONReader.read(bytes, { (reader) throws(JSONReadError) in try reader.readValue() })
        else { return refused("not a JSON object") }
        members = object
    } catch {
        return refused("\(error)")
    }
    for key in members.keys {
        let value = members[key]
        let number: Double? = if case .number(let number)? = value { number } else { nil }
        let whole = number.flatMap { Int(exactly: $0) }
        switch (key, number, whole, value) {
        case ("interval", let seconds?, _, _): policy.interval = seconds
        case ("retryInterval", let seconds?, _, _): policy.retryInterval = seconds
        case ("retryDelay", let seconds?, _, _): policy.retryDelay = seconds
        case ("timeout", let seconds?, _, _): policy.timeout = seconds
        case ("attempts", _, let count?, _): policy.attempts = count
        case ("maxBytes", _, let count?, _): policy.maxBytes = count
        case ("maxRedirects", _, let count?, _): policy.maxRedirects = count
        case ("allowsCrossOriginRedirects", _, _, .bool(let allowed)?): policy.allowsCrossOriginRedirects = allowed
        case ("interval", _, _, _), ("retryInterval", _, _, _), ("retryDelay", _, _, _), ("timeout", _, _, _):
            return refused("\(key) must be a number of seconds")
        case ("attempts", _, _, _), ("maxBytes", _, _, _), ("maxRedirects", _, _, _):
            return refused("\(key) must be a whole number")
        case ("allowsCrossOriginRedirects", _, _, _):
            return refused("allowsCrossOriginRedirects must be true or false")
        default:
            return refused(
                "unknown setting \"\(key.excerpt())\" (interval, retryInterval, attempts, retryDelay, timeout, maxBytes, maxRedirects, allowsCrossOriginRedirects)")
        }
    }
    return .success(policy)
}

private func borrowUpdater(_ pointer: OpaquePointer) -> ProtectionUpdater {
    Unmanaged<ProtectionUpdater>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
}

@_cdecl("tl_updater_new")
public func tl_updater_new(
    _ runtime: OpaquePointer?, _ trackerDataURL: UnsafePointer<CChar>?, _ trackerDataSHA256: UnsafePointer<CChar>?,
    _ configurationURL: UnsafePointer<CChar>?, _ configurationSHA256: UnsafePointer<CChar>?, _ policyJSON: UnsafePointer<CChar>?,
    _ updater: UnsafeMutablePointer<OpaquePointer?>?, _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    guard let runtime, let updater else { return CStatus.invalidArgument("runtime or updater is NULL", error) }
    do throws(UpdateError) {
        let policy = try updatePolicy(policyJSON).get()
        let sources = try updateSources(trackerDataURL, trackerDataSHA256, configurationURL, configurationSHA256).get()
        let made = try ProtectionUpdater(runtime: borrowRuntime(runtime), sources: sources, policy: policy)
        updater.pointee = OpaquePointer(Unmanaged.passRetained(made).toOpaque())
        return CStatus.ok
    } catch let failure {
        return CStatus.invalidArgument(failure.description, error)
    }
}

@_cdecl("tl_updater_check")
public func tl_updater_check(
    _ updater: OpaquePointer?, _ reportJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    guard let updater else { return CStatus.invalidArgument("updater is NULL", error) }
    let report = borrowUpdater(updater).checkBlocking()
    reportJSON?.pointee = CStatus.duplicate(report.jsonValue.jsonString())
    guard let failure = report.error else { return CStatus.ok }
    error?.pointee = CStatus.duplicate(failure.description)
    return CStatus.status(of: failure)
}

/// A C callback and its context, called from the schedule's thread.
private struct ReportCallback: @unchecked Sendable {
    let function: @convention(c) (UnsafePointer<CChar>?, UnsafeMutableRawPointer?) -> Void
    let context: UnsafeMutableRawPointer?
}

@_cdecl("tl_updater_start")
public func tl_updater_start(
    _ updater: OpaquePointer?, _ onReport: (@convention(c) (UnsafePointer<CChar>?, UnsafeMutableRawPointer?) -> Void)?,
    _ context: UnsafeMutableRawPointer?
) -> Int32 {
    guard let updater else { return CStatus.invalidArgument("updater is NULL", nil) }
    let callback = onReport.map { ReportCallback(function: $0, context: context) }
    borrowUpdater(updater).start { report in
        guard let callback else { return }
        report.jsonValue.jsonString().withCString { callback.function($0, callback.context) }
    }
    return CStatus.ok
}

@_cdecl("tl_updater_stop")
public func tl_updater_stop(_ updater: OpaquePointer?) -> Int32 {
    guard let updater else { return CStatus.invalidArgument("updater is NULL", nil) }
    borrowUpdater(updater).stop()
    return CStatus.ok
}

@_cdecl("tl_updater_free")
public func tl_updater_free(_ updater: OpaquePointer?) {
    guard let updater else { return }
    borrowUpdater(updater).stop()
    Unmanaged<ProtectionUpdater>.fromOpaque(UnsafeRawPointer(updater)).release()
}

@_cdecl("tl_runtime_new_from_downloads")
public func tl_runtime_new_from_downloads(
    _ inputs: OpaquePointer?, _ cacheDirectory: UnsafePointer<CChar>?, _ trackerDataURL: UnsafePointer<CChar>?,
    _ trackerDataSHA256: UnsafePointer<CChar>?, _ configurationURL: UnsafePointer<CChar>?, _ configurationSHA256: UnsafePointer<CChar>?,
    _ runtime: UnsafeMutablePointer<OpaquePointer?>?, _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    guard let runtime, let cacheDirectory else { return CStatus.invalidArgument("cache_directory or runtime is NULL", error) }
    guard let documents = InputsHandle.inputs(inputs) else { return CStatus.invalidArgument(InputsHandle.missingMessage, error) }
    let sources: UpdateSources
    switch updateSources(trackerDataURL, trackerDataSHA256, configurationURL, configurationSHA256) {
    case .success(let parsed): sources = parsed
    case .failure(let failure): return CStatus.invalidArgument(failure.description, error)
    }
    do throws(ProtectionError) {
        let made = try ProtectionRuntime(inputs: documents, cacheDirectory: String(cString: cacheDirectory), downloadedFrom: sources)
        runtime.pointee = OpaquePointer(Unmanaged.passRetained(made).toOpaque())
        return CStatus.ok
    } catch let failure {
        return CStatus.failure(failure, error)
    }
}

import TrackerDataKit

/// Byte inputs of the C API.
enum CInput {
    /// The bytes of an optional input; nil for a NULL pointer or a length out of range, an empty
    /// array for length 0.
    static func bytes(_ pointer: UnsafePointer<CChar>?, _ length: UInt) -> [UInt8]? {
        guard let pointer, let count = Int(exactly: length) else { return nil }
        return Array(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: count))
    }

    /// The tds and, when given, the privacy configuration, parsed.
    static func blocklist(
        _ trackerData: [UInt8], _ privacyConfiguration: UnsafePointer<CChar>?, _ privacyConfigurationLength: UInt
    ) throws(TrackerDataError) -> (TrackerData, PrivacyConfiguration?) {
        let parsed = try TrackerData(parsing: trackerData, file: "tds.json")
        guard let config = bytes(privacyConfiguration, privacyConfigurationLength) else { return (parsed, nil) }
        return (parsed, try PrivacyConfiguration(parsing: config, file: "privacy configuration"))
    }
}

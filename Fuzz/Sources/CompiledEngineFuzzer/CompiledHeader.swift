import TrackerlessCore

/// The header of a compiled engine file, written here from its documented layout (the format's
/// own writer is internal to RuleEngine): signature, format version, payload length, checksum.
enum CompiledHeader {
    static let signature: [UInt8] = Array("TRKLSRE\0".utf8)
    static let version: UInt32 = 4

    /// `payload` behind a header that the loader accepts.
    static func wrap(_ payload: [UInt8]) -> [UInt8] {
        var bytes = signature
        append(UInt64(version), byteCount: 4, to: &bytes)
        append(UInt64(payload.count), byteCount: 8, to: &bytes)
        append(checksum(payload), byteCount: 8, to: &bytes)
        return bytes + payload
    }

    private static func append(_ value: UInt64, byteCount: Int, to bytes: inout [UInt8]) {
        for index in 0..<byteCount { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
    }

    /// The payload's checksum: XXH64, seed 0.
    private static func checksum(_ bytes: [UInt8]) -> UInt64 {
        XXH64.digest(bytes)
    }
}

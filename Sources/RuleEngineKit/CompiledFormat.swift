import TrackerlessCore

/// The container: signature, format version, payload length, payload checksum, payload.
enum CompiledFormat {
    static let signature: [UInt8] = Array("TRKLSRE\0".utf8)
    /// Bumped whenever the layout of the payload changes.
    /// 2: host table values carry the pattern's prefix and final dot (``HostPattern/tableValue(_:)``).
    /// 3: each rule's index in its list, and the first universal rule of each universal
    /// location, so that a decision names its rules.
    /// 4: the payload's checksum is XXH64 (TrackerlessCore's one integrity checksum), was FNV-1a
    /// over 64-bit words; the payload is unchanged.
    /// 5: a host table value's fourth bit says its host's letters match only in lowercase
    /// (``HostPattern/isHostCaseSensitive``); the index moved up one bit.
    static let version: UInt32 = 5
    static let headerSize = 8 + 4 + 8 + 8

    static func wrap(_ payload: [UInt8]) -> [UInt8] {
        var header = CompiledWriter()
        header.bytes = signature
        header.write(version)
        header.write(UInt64(payload.count))
        header.write(payload.withUnsafeBufferPointer(checksum))
        return header.bytes + payload
    }

    /// Where the payload is, after checking the header and the checksum.
    static func payloadRange(_ bytes: [UInt8]) throws(CompiledEngineError) -> Range<Int> {
        guard bytes.count >= signature.count, bytes[0..<signature.count].elementsEqual(signature) else {
            throw CompiledEngineError(.notACompiledEngine)
        }
        guard bytes.count >= headerSize else { throw CompiledEngineError(.truncated, detail: "header") }
        return try bytes.withUnsafeBufferPointer { buffer throws(CompiledEngineError) -> Range<Int> in
            var header = CompiledReader(UnsafeBufferPointer(rebasing: buffer[signature.count..<headerSize]))
            let found: UInt32 = try header.read("version")
            guard found == version else { throw CompiledEngineError(.unsupportedVersion(found: found, supported: version)) }
            let length: UInt64 = try header.read("length")
            let stored: UInt64 = try header.read("checksum")
            let available = UInt64(bytes.count - headerSize)
            guard length <= available else {
                throw CompiledEngineError(.truncated, detail: "\(available) of \(length) payload bytes")
            }
            guard length == available else {
                throw CompiledEngineError(.corrupt, detail: "\(available - length) bytes after the payload")
            }
            guard checksum(UnsafeBufferPointer(rebasing: buffer[headerSize...])) == stored else {
                throw CompiledEngineError(.checksumMismatch)
            }
            return headerSize..<bytes.count
        }
    }

    /// XXH64 of the payload (seed 0).
    static func checksum(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        XXH64.digest(UnsafeRawBufferPointer(bytes))
    }
}

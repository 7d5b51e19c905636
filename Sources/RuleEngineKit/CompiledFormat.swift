/// The container: signature, format version, payload length, payload checksum, payload.
enum CompiledFormat {
    static let signature: [UInt8] = Array("TRKLSRE\0".utf8)
    /// Bumped whenever the layout of the payload changes.
    /// 2: host table values carry the pattern's prefix and final dot (``HostPattern/tableValue(_:)``).
    /// 3: each rule's index in its list, and the first universal rule of each universal
    /// location, so that a decision names its rules.
    static let version: UInt32 = 3
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

    /// FNV-1a over 64-bit words, then over the tail bytes.
    static func checksum(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let raw = UnsafeRawBufferPointer(bytes)
        var index = 0
        while index + 8 <= raw.count {
            hash = (hash ^ raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0x100_0000_01b3
            index += 8
        }
        while index < raw.count {
            hash = (hash ^ UInt64(raw[index])) &* 0x100_0000_01b3
            index += 1
        }
        return hash
    }
}

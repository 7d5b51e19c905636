import ContentRuleList
import TrackerlessCore

extension RuleEngine {
    /// The engine in Trackerless's compiled format: versioned, checksummed, loadable by
    /// ``init(compiled:publicSuffixList:)`` without parsing the rule lists' JSON.
    public func compiled() -> [UInt8] {
        // Skeleton payload: the lists' encoded JSON; replaced by the matcher tables.
        var payload: [UInt8] = []
        for list in lists {
            let bytes = list.encoded()
            CompiledFormat.append(UInt32(bytes.count), to: &payload)
            payload += bytes
        }
        return CompiledFormat.wrap(payload)
    }

    /// Loads an engine from ``compiled()`` output.
    ///
    /// - Throws: ``CompiledEngineError`` for data that is not a compiled engine, from another
    ///   format version, truncated or corrupt; the caller can compile the rule lists again.
    public init(compiled bytes: [UInt8], publicSuffixList: PublicSuffixList = .bundled) throws(CompiledEngineError) {
        let payload = Array(try CompiledFormat.unwrap(bytes))
        var lists: [RuleList] = []
        var offset = 0
        while offset < payload.count {
            guard offset + 4 <= payload.count else { throw CompiledEngineError(.corrupt, detail: "list length at \(offset)") }
            let length = Int(CompiledFormat.uint32(payload, at: offset))
            offset += 4
            guard length <= payload.count - offset else { throw CompiledEngineError(.corrupt, detail: "list at \(offset)") }
            do {
                lists.append(try RuleList(parsing: Array(payload[offset..<(offset + length)])))
            } catch {
                throw CompiledEngineError(.corrupt, detail: "\(error)")
            }
            offset += length
        }
        do {
            try self.init(ruleLists: lists, publicSuffixList: publicSuffixList)
        } catch {
            throw CompiledEngineError(.corrupt, detail: "\(error)")
        }
    }
}

/// The container: signature, format version, payload length, payload checksum, payload.
enum CompiledFormat {
    static let signature: [UInt8] = Array("TRKLSRE\0".utf8)
    static let version: UInt32 = 1
    static let headerSize = 8 + 4 + 8 + 8

    static func wrap(_ payload: [UInt8]) -> [UInt8] {
        var bytes = signature
        append(version, to: &bytes)
        append(UInt64(payload.count), to: &bytes)
        append(checksum(payload[...]), to: &bytes)
        return bytes + payload
    }

    static func unwrap(_ bytes: [UInt8]) throws(CompiledEngineError) -> ArraySlice<UInt8> {
        guard bytes.count >= signature.count, Array(bytes[0..<signature.count]) == signature else {
            throw CompiledEngineError(.notACompiledEngine)
        }
        guard bytes.count >= headerSize else { throw CompiledEngineError(.truncated, detail: "header") }
        let found = uint32(bytes, at: 8)
        guard found == version else { throw CompiledEngineError(.unsupportedVersion(found: found, supported: version)) }
        let length = uint64(bytes, at: 12)
        guard length <= UInt64(bytes.count - headerSize) else {
            throw CompiledEngineError(.truncated, detail: "\(bytes.count - headerSize) of \(length) payload bytes")
        }
        guard length == UInt64(bytes.count - headerSize) else {
            throw CompiledEngineError(.corrupt, detail: "\(UInt64(bytes.count - headerSize) - length) bytes after the payload")
        }
        let payload = bytes[headerSize...]
        guard checksum(payload) == uint64(bytes, at: 20) else { throw CompiledEngineError(.checksumMismatch) }
        return payload
    }

    /// FNV-1a over 64-bit words, then the tail bytes.
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        bytes.withUnsafeBytes { raw in
            var index = 0
            let count = raw.count
            while index + 8 <= count {
                hash = (hash ^ raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0x100_0000_01b3
                index += 8
            }
            while index < count {
                hash = (hash ^ UInt64(raw[index])) &* 0x100_0000_01b3
                index += 1
            }
        }
        return hash
    }

    static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    static func uint32<C: Collection<UInt8>>(_ bytes: C, at offset: Int) -> UInt32 where C.Index == Int {
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(bytes[bytes.startIndex + offset + index]) << (8 * index) }
        return value
    }

    static func uint64<C: Collection<UInt8>>(_ bytes: C, at offset: Int) -> UInt64 where C.Index == Int {
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(bytes[bytes.startIndex + offset + index]) << (8 * index) }
        return value
    }
}

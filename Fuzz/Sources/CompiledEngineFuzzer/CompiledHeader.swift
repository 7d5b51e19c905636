/// The header of a compiled engine file, written here from its documented layout (the format's
/// own writer is internal to RuleEngine): signature, format version, payload length, checksum.
enum CompiledHeader {
    static let signature: [UInt8] = Array("TRKLSRE\0".utf8)
    static let version: UInt32 = 1

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

    /// FNV-1a over little-endian 64-bit words, then over the tail bytes.
    private static func checksum(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var index = 0
        while index + 8 <= bytes.count {
            var word: UInt64 = 0
            for offset in 0..<8 { word |= UInt64(bytes[index + offset]) << (8 * UInt64(offset)) }
            hash = (hash ^ word) &* 0x100_0000_01b3
            index += 8
        }
        while index < bytes.count {
            hash = (hash ^ UInt64(bytes[index])) &* 0x100_0000_01b3
            index += 1
        }
        return hash
    }
}

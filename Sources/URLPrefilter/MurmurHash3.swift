/// MurmurHash3 x86_32 (Austin Appleby's reference), the second hash of the Bloom filter that
/// `NEURLFilterPrefilter` expects, seeded with its `murmurSeed`.
///
/// ```swift
/// MurmurHash3.x86_32(Array("test".utf8), seed: 0)   // 0xBA6BD213
/// ```
public enum MurmurHash3: Sendable {
    /// The 32-bit MurmurHash3 of `bytes` with `seed`, reading 4-byte blocks little-endian.
    public static func x86_32(_ bytes: some Sequence<UInt8>, seed: UInt32) -> UInt32 {
        let array = Array(bytes)
        return array.withUnsafeBufferPointer { x86_32($0, seed: seed) }
    }

    /// The hash of a contiguous buffer, the hot path of Bloom filter inserts and lookups.
    @inline(__always)
    static func x86_32(_ bytes: UnsafeBufferPointer<UInt8>, seed: UInt32) -> UInt32 {
        let c1: UInt32 = 0xCC9E_2D51
        let c2: UInt32 = 0x1B87_3593
        var hash = seed
        let blockCount = bytes.count / 4
        var offset = 0
        for _ in 0..<blockCount {
            var block = UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8
                | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
            block = (block &* c1).rotatedLeft(by: 15) &* c2
            hash ^= block
            hash = hash.rotatedLeft(by: 13) &* 5 &+ 0xE654_6B64
            offset += 4
        }
        var tail: UInt32 = 0
        switch bytes.count & 3 {
        case 3:
            tail = UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset])
        case 2:
            tail = UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset])
        case 1:
            tail = UInt32(bytes[offset])
        default:
            break
        }
        if bytes.count & 3 != 0 {
            hash ^= (tail &* c1).rotatedLeft(by: 15) &* c2
        }
        // The reference mixes in the length as a 32-bit int; longer inputs wrap the same way.
        hash ^= UInt32(truncatingIfNeeded: bytes.count)
        hash ^= hash >> 16
        hash = hash &* 0x85EB_CA6B
        hash ^= hash >> 13
        hash = hash &* 0xC2B2_AE35
        hash ^= hash >> 16
        return hash
    }
}

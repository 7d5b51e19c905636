/// The 32-bit FNV-1a hash (Fowler–Noll–Vo, XOR then multiply), the first hash of the Bloom
/// filter that `NEURLFilterPrefilter` expects.
///
/// ```swift
/// FNV1a.hash32(Array("a".utf8))   // 0xE40C292C
/// ```
public enum FNV1a: Sendable {
    /// The FNV-1a offset basis for 32 bits.
    static let offsetBasis: UInt32 = 0x811C_9DC5
    /// The FNV prime for 32 bits.
    static let prime: UInt32 = 0x0100_0193

    /// The 32-bit FNV-1a hash of `bytes`.
    public static func hash32(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var hash = offsetBasis
        for byte in bytes {
            hash = (hash ^ UInt32(byte)) &* prime
        }
        return hash
    }

    /// The hash of a contiguous buffer, the hot path of Bloom filter inserts and lookups.
    @inline(__always)
    static func hash32(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var hash = offsetBasis
        for byte in bytes {
            hash = (hash ^ UInt32(byte)) &* prime
        }
        return hash
    }
}

/// XXH64, the 64-bit hash of the xxHash family (its published specification): the SDK's one
/// integrity checksum, for every file it writes and checks again (the cache's generations and
/// manifest, the compiled engine's header, the statistics store's snapshot and journal records,
/// the downloads' records). It tells damaged or cut files from whole ones at memory speed, where
/// SHA-256 costs about 13 ms of CPU for each 2.7 MB.
///
/// It is not a cryptographic hash: use it against damage and accidental change (a cut write, a
/// flipped bit, a file from another generation, the runtime's names of its inputs and rule
/// lists, where whoever chooses the content chooses the protection anyway), never where a
/// collision an adversary makes would gain them something: the prefilter's tag, the checksums
/// of downloaded filter files and the scripts' content hashes stay `SHA256`.
///
/// ```swift
/// XXH64.digest(Array("abc".utf8))      // 0x44BC2CF5AD770999
/// XXH64.hexDigest(Array("abc".utf8))   // "44bc2cf5ad770999"
/// ```
public enum XXH64: Sendable {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    /// The hash of `bytes` with `seed`.
    public static func digest(_ bytes: [UInt8], seed: UInt64 = 0) -> UInt64 {
        bytes.withUnsafeBytes { digest($0, seed: seed) }
    }

    /// The hash as 16 lowercase hexadecimal digits.
    public static func hexDigest(_ bytes: [UInt8], seed: UInt64 = 0) -> String {
        let text = String(digest(bytes, seed: seed), radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }

    /// The hash of the bytes in `buffer` with `seed`.
    public static func digest(_ buffer: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        let count = buffer.count
        var offset = 0
        var hash: UInt64
        if count >= 32 {
            // Four independent lanes, so that the multiplications overlap.
            var lane1 = seed &+ prime1 &+ prime2
            var lane2 = seed &+ prime2
            var lane3 = seed
            var lane4 = seed &- prime1
            while offset + 32 <= count {
                lane1 = round(lane1, word(buffer, offset))
                lane2 = round(lane2, word(buffer, offset + 8))
                lane3 = round(lane3, word(buffer, offset + 16))
                lane4 = round(lane4, word(buffer, offset + 24))
                offset += 32
            }
            hash = rotatedLeft(lane1, by: 1) &+ rotatedLeft(lane2, by: 7) &+ rotatedLeft(lane3, by: 12)
                &+ rotatedLeft(lane4, by: 18)
            hash = merged(hash, lane1)
            hash = merged(hash, lane2)
            hash = merged(hash, lane3)
            hash = merged(hash, lane4)
        } else {
            hash = seed &+ prime5
        }
        hash &+= UInt64(count)
        while offset + 8 <= count {
            hash ^= round(0, word(buffer, offset))
            hash = rotatedLeft(hash, by: 27) &* prime1 &+ prime4
            offset += 8
        }
        if offset + 4 <= count {
            hash ^= UInt64(UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self))) &* prime1
            hash = rotatedLeft(hash, by: 23) &* prime2 &+ prime3
            offset += 4
        }
        while offset < count {
            hash ^= UInt64(buffer[offset]) &* prime5
            hash = rotatedLeft(hash, by: 11) &* prime1
            offset += 1
        }
        hash ^= hash >> 33
        hash &*= prime2
        hash ^= hash >> 29
        hash &*= prime3
        hash ^= hash >> 32
        return hash
    }

    @inline(__always)
    private static func word(_ buffer: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    @inline(__always)
    private static func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
        rotatedLeft(accumulator &+ input &* prime2, by: 31) &* prime1
    }

    @inline(__always)
    private static func merged(_ hash: UInt64, _ lane: UInt64) -> UInt64 {
        (hash ^ round(0, lane)) &* prime1 &+ prime4
    }

    @inline(__always)
    private static func rotatedLeft(_ value: UInt64, by count: UInt64) -> UInt64 {
        (value << count) | (value >> (64 - count))
    }
}

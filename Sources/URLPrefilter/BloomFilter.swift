import Foundation

/// The Bloom filter Apple's URL filter (`NEURLFilterPrefilter`) reads: FNV-1a and MurmurHash3
/// x86_32 with double hashing, as in Apple's SimpleURLFilter sample and its golden vector.
///
/// Probe `k` of an entry (k = 0 ..< ``hashCount``) is the bit
/// `(fnv1a(entry) &+ k &* murmur3(entry, murmurSeed)) % bitCount`, computed in 32-bit wrapping
/// arithmetic over the entry's UTF-8 bytes. Bit `n` is bit `n % 8` (least significant first) of
/// byte `n / 8` of ``data``.
///
/// ```swift
/// var filter = try BloomFilter(entryCount: 2, falsePositiveRate: 0.001, murmurSeed: 1267652889)
/// filter.insert("example.com")
/// filter.insert("example.org/ads/")
/// filter.contains("example.com")   // true
/// filter.contains("example.net")   // false, or true with probability about 0.001
/// ```
public struct BloomFilter: Sendable, Hashable {
    /// The number of bits (m); the filter's bit array has `(bitCount + 7) / 8` bytes.
    public let bitCount: UInt32
    /// How many bits each entry sets (k).
    public let hashCount: UInt32
    /// The seed of the MurmurHash3 hash.
    public let murmurSeed: UInt32
    /// The bit array, least significant bit first; the spare high bits of the last byte are 0.
    public private(set) var data: [UInt8]
    /// `bitCount` as a 64-bit reciprocal, for reducing probes without a division.
    private let modulus: FastModulus

    /// An empty filter with explicit parameters.
    ///
    /// - Throws: ``BloomFilterError/invalidParameter(name:value:reason:)`` when `bitCount` or
    ///   `hashCount` is 0, or `hashCount` is above ``maximumHashCount``.
    public init(bitCount: UInt32, hashCount: UInt32, murmurSeed: UInt32) throws(BloomFilterError) {
        guard bitCount > 0 else {
            throw .invalidParameter(name: "bit count", value: "0", reason: "a filter needs at least one bit")
        }
        guard hashCount > 0 else {
            throw .invalidParameter(name: "hash count", value: "0", reason: "an entry must set at least one bit")
        }
        // Even a rate of 1e-300 needs under 1,000; more would only make every probe slow.
        guard hashCount <= Self.maximumHashCount else {
            throw .invalidParameter(
                name: "hash count", value: "\(hashCount)", reason: "at most \(Self.maximumHashCount) hashes are supported")
        }
        self.bitCount = bitCount
        self.hashCount = hashCount
        self.murmurSeed = murmurSeed
        self.data = [UInt8](repeating: 0, count: Self.byteCount(forBitCount: bitCount))
        self.modulus = FastModulus(bitCount)
    }

    /// An empty filter sized for `entryCount` entries at `falsePositiveRate`, as Apple's sample
    /// sizes it (see ``parameters(entryCount:falsePositiveRate:)``).
    ///
    /// - Throws: ``BloomFilterError`` for no entries, a rate outside (0, 1), or more bits than
    ///   fit in 32 bits.
    public init(entryCount: Int, falsePositiveRate: Double, murmurSeed: UInt32) throws(BloomFilterError) {
        let (bitCount, hashCount) = try Self.parameters(entryCount: entryCount, falsePositiveRate: falsePositiveRate)
        try self.init(bitCount: bitCount, hashCount: hashCount, murmurSeed: murmurSeed)
    }

    /// A filter from its parts, for example to check a prefilter read back from disk.
    ///
    /// - Throws: ``BloomFilterError/dataSizeMismatch(expectedBytes:foundBytes:)`` when `data`
    ///   is not `(bitCount + 7) / 8` bytes long, and the errors of
    ///   ``init(bitCount:hashCount:murmurSeed:)``.
    public init(data: [UInt8], bitCount: UInt32, hashCount: UInt32, murmurSeed: UInt32) throws(BloomFilterError) {
        // Checked first, so that a wrong bit count allocates nothing.
        let expectedBytes = Self.byteCount(forBitCount: bitCount)
        guard data.count == expectedBytes else {
            throw .dataSizeMismatch(expectedBytes: expectedBytes, foundBytes: data.count)
        }
        try self.init(bitCount: bitCount, hashCount: hashCount, murmurSeed: murmurSeed)
        self.data = data
    }

    /// Apple's sizing: `bitCount = ceil(-n·ln p / (ln 2)²)` and
    /// `hashCount = ceil(bitCount / n · ln 2)`.
    ///
    /// For 10 entries at 0.001 this is 144 bits and 10 hashes; for a million at 0.001,
    /// 14,377,588 bits (about 1.7 MiB) and 10 hashes.
    ///
    /// - Throws: ``BloomFilterError`` for `entryCount < 1`, a rate that is not in (0, 1), or a
    ///   bit count above `UInt32.max`.
    public static func parameters(
        entryCount: Int, falsePositiveRate: Double
    ) throws(BloomFilterError) -> (bitCount: UInt32, hashCount: UInt32) {
        guard entryCount > 0 else { throw .noEntries }
        guard falsePositiveRate > 0, falsePositiveRate < 1 else {
            throw .invalidFalsePositiveRate(falsePositiveRate)
        }
        let ln2 = 0.693_147_180_559_945_3
        let bits = (-(Double(entryCount) * log(falsePositiveRate)) / (ln2 * ln2)).rounded(.up)
        guard bits <= Double(UInt32.max) else { throw .tooManyBits(needed: bits, limit: UInt64(UInt32.max)) }
        let bitCount = UInt32(max(bits, 1))
        let hashes = (Double(bitCount) / Double(entryCount) * ln2).rounded(.up)
        return (bitCount, UInt32(min(max(hashes, 1), Double(UInt32.max))))
    }

    /// Adds `entry` (hashed as its UTF-8 bytes, exactly as written).
    public mutating func insert(_ entry: String) {
        if entry.utf8.withContiguousStorageIfAvailable({ insert(bytes: $0) }) == nil {
            insert(bytes: Array(entry.utf8))
        }
    }

    /// Whether `entry` may be in the filter: false means it certainly is not.
    public func contains(_ entry: String) -> Bool {
        entry.utf8.withContiguousStorageIfAvailable { contains(bytes: $0) } ?? contains(bytes: Array(entry.utf8))
    }

    /// Adds the entry whose UTF-8 bytes are `bytes`.
    public mutating func insert(bytes: some Sequence<UInt8>) {
        let array = Array(bytes)
        array.withUnsafeBufferPointer { insert(bytes: $0) }
    }

    /// Whether the entry whose UTF-8 bytes are `bytes` may be in the filter.
    public func contains(bytes: some Sequence<UInt8>) -> Bool {
        let array = Array(bytes)
        return array.withUnsafeBufferPointer { contains(bytes: $0) }
    }

    /// The number of bits that are set, for estimating how full the filter is.
    public var setBitCount: Int {
        data.reduce(0) { $0 + $1.nonzeroBitCount }
    }

    // MARK: Probes

    /// Both hashes of an entry, which place its probes.
    private struct Hashes {
        let first: UInt32
        let second: UInt32

        @inline(__always)
        init(_ bytes: UnsafeBufferPointer<UInt8>, murmurSeed: UInt32) {
            first = FNV1a.hash32(bytes)
            second = MurmurHash3.x86_32(bytes, seed: murmurSeed)
        }

        /// Probe `probe`'s bit: `(first &+ probe &* second) % bitCount`, in 32-bit wrapping arithmetic.
        @inline(__always)
        func bit(_ probe: Int, modulus: FastModulus) -> UInt32 {
            modulus.remainder(of: first &+ UInt32(truncatingIfNeeded: probe) &* second)
        }
    }

    private mutating func insert(bytes: UnsafeBufferPointer<UInt8>) {
        let hashes = Hashes(bytes, murmurSeed: murmurSeed)
        let modulus = modulus
        let hashCount = Int(hashCount)
        data.withUnsafeMutableBufferPointer { bits in
            for probe in 0..<hashCount {
                let bit = hashes.bit(probe, modulus: modulus)
                bits[Int(bit >> 3)] |= 1 << UInt8(bit & 7)
            }
        }
    }

    private func contains(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // Both hashes first, with no branch between them (see ProbeGroups).
        let hashes = Hashes(bytes, murmurSeed: murmurSeed)
        let modulus = modulus
        return data.withUnsafeBufferPointer { bits in
            ProbeGroups.allSet(count: Int(hashCount), in: bits) { hashes.bit($0, modulus: modulus) }
        }
    }

    /// The most hashes a filter may use.
    public static let maximumHashCount: UInt32 = 1_024

    static func byteCount(forBitCount bitCount: UInt32) -> Int {
        (Int(bitCount) + 7) / 8
    }
}

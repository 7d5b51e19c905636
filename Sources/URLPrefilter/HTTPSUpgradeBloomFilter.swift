import Foundation
import TrackerlessCore

/// DuckDuckGo's Smarter Encryption Bloom filter, the `.bin` format its iOS and macOS browsers
/// read (`https_bloomfilter.bin`, built by DuckDuckGo's bloom_cpp), for hosts known to serve
/// HTTPS.
///
/// Probe `i` of a host (i = 0 ..< ``hashCount``) is `djb2` for i = 0, `sdbm` for i = 1, and
/// `djb2 &+ i &* sdbm &+ (i ^ 2)` after that (the C `^` is XOR), in 32-bit wrapping arithmetic
/// and then modulo ``bitCount``. Both hashes read the host's bytes as C's signed `char`. Bit `n`
/// is bit `n % 8` (least significant first) of byte `n / 8`.
///
/// ```swift
/// var filter = try HTTPSUpgradeBloomFilter(entryCount: 1, falsePositiveRate: 0.000001)
/// filter.insert("example.com")
/// filter.contains("example.com")       // true
/// filter.contains("www.example.com")   // false: hosts match exactly
/// ```
public struct HTTPSUpgradeBloomFilter: Sendable, Hashable {
    /// The number of bits; the `.bin` file has `(bitCount + 7) / 8` bytes.
    public let bitCount: UInt32
    /// The number of entries the filter was sized for (`totalEntries` in the specification).
    public let entryCount: Int
    /// How many bits each host sets: `round(ln 2 · bitCount / entryCount)`.
    public let hashCount: UInt32
    /// The bit array: the contents of the `.bin` file.
    public private(set) var data: [UInt8]
    /// `bitCount` as a 64-bit reciprocal, for reducing probes without a division.
    private let modulus: FastModulus

    /// An empty filter sized as DuckDuckGo sizes it: `bitCount = ceil(n · ln p / ln(1 / 2^ln 2))`.
    ///
    /// - Throws: ``BloomFilterError`` for no entries, a rate outside (0, 1), or more bits than
    ///   fit in 32 bits.
    public init(entryCount: Int, falsePositiveRate: Double) throws(BloomFilterError) {
        guard entryCount > 0 else { throw .noEntries }
        guard falsePositiveRate > 0, falsePositiveRate < 1 else {
            throw .invalidFalsePositiveRate(falsePositiveRate)
        }
        let ln2 = 0.693_147_180_559_945_3
        let bits = (Double(entryCount) * log(falsePositiveRate) / log(1 / pow(2, ln2))).rounded(.up)
        guard bits <= Double(UInt32.max) else { throw .tooManyBits(needed: bits, limit: UInt64(UInt32.max)) }
        try self.init(bitCount: UInt32(max(bits, 1)), entryCount: entryCount)
    }

    /// A filter read from a `.bin` file whose bit count and entry count come from its
    /// specification.
    ///
    /// - Throws: ``BloomFilterError/dataSizeMismatch(expectedBytes:foundBytes:)`` when `data`
    ///   is not `(bitCount + 7) / 8` bytes, or invalid parameters.
    public init(data: [UInt8], bitCount: UInt32, entryCount: Int) throws(BloomFilterError) {
        // Checked first, so that a wrong bit count allocates nothing.
        let expectedBytes = (Int(bitCount) + 7) / 8
        guard data.count == expectedBytes else {
            throw .dataSizeMismatch(expectedBytes: expectedBytes, foundBytes: data.count)
        }
        try self.init(bitCount: bitCount, entryCount: entryCount)
        self.data = data
    }

    /// A filter read from a `.bin` file and checked against its specification: the size, and
    /// the SHA-256 when the specification has one.
    ///
    /// - Throws: ``BloomFilterError/checksumMismatch(expected:found:)`` or the errors of
    ///   ``init(data:bitCount:entryCount:)``.
    public init(data: [UInt8], specification: HTTPSBloomFilterSpecification) throws(BloomFilterError) {
        if let expected = specification.sha256 {
            let found = SHA256.hexDigest(data)
            guard found == expected.lowercased() else { throw .checksumMismatch(expected: expected, found: found) }
        }
        try self.init(data: data, bitCount: specification.bitCount, entryCount: specification.totalEntries)
    }

    private init(bitCount: UInt32, entryCount: Int) throws(BloomFilterError) {
        guard bitCount > 0 else {
            throw .invalidParameter(name: "bit count", value: "0", reason: "a filter needs at least one bit")
        }
        guard entryCount > 0 else {
            throw .invalidParameter(
                name: "entry count", value: "\(entryCount)", reason: "the hash count is derived from it, so it must be positive")
        }
        self.bitCount = bitCount
        self.entryCount = entryCount
        let rounds = (0.693_147_180_559_945_3 * Double(bitCount) / Double(entryCount)).rounded()
        self.hashCount = UInt32(min(max(rounds, 1), 65_536))
        self.data = [UInt8](repeating: 0, count: (Int(bitCount) + 7) / 8)
        self.modulus = FastModulus(bitCount)
    }

    /// Adds `host`, exactly as given (DuckDuckGo's lists are lowercase hosts).
    public mutating func insert(_ host: String) {
        let modulus = modulus
        let hashCount = hashCount
        let (djb2, sdbm) = Self.hashes(of: host)
        data.withUnsafeMutableBufferPointer { bits in
            for round in 0..<hashCount {
                let bit = modulus.remainder(of: Self.position(round: round, djb2: djb2, sdbm: sdbm))
                bits[Int(bit >> 3)] |= 1 << UInt8(bit & 7)
            }
        }
    }

    /// Whether `host` may be in the filter: false means it certainly is not.
    public func contains(_ host: String) -> Bool {
        let modulus = modulus
        let hashCount = hashCount
        let (djb2, sdbm) = Self.hashes(of: host)
        return data.withUnsafeBufferPointer { bits in
            ProbeGroups.allSet(count: Int(hashCount), in: bits) { round in
                modulus.remainder(of: Self.position(round: UInt32(truncatingIfNeeded: round), djb2: djb2, sdbm: sdbm))
            }
        }
    }

    /// The specification file that goes beside the `.bin` file.
    public func specification(falsePositiveRate: Double) -> HTTPSBloomFilterSpecification {
        HTTPSBloomFilterSpecification(
            totalEntries: entryCount, bitCount: bitCount, errorRate: falsePositiveRate, sha256: SHA256.hexDigest(data))
    }

    /// djb2 and sdbm of the host's bytes.
    private static func hashes(of host: String) -> (djb2: UInt32, sdbm: UInt32) {
        host.utf8.withContiguousStorageIfAvailable(hashes(of:)) ?? hashes(of: Array(host.utf8))
    }

    private static func hashes(of bytes: some Sequence<UInt8>) -> (djb2: UInt32, sdbm: UInt32) {
        var djb2: UInt32 = 5381
        var sdbm: UInt32 = 0
        for byte in bytes {
            // bloom_cpp hashes `char`, which is signed on the platforms it ships on.
            let character = UInt32(bitPattern: Int32(Int8(bitPattern: byte)))
            djb2 = djb2 &* 33 &+ character
            sdbm = character &+ (sdbm << 6) &+ (sdbm << 16) &- sdbm
        }
        return (djb2, sdbm)
    }

    /// Probe `round` before the modulo.
    @inline(__always)
    private static func position(round: UInt32, djb2: UInt32, sdbm: UInt32) -> UInt32 {
        switch round {
        case 0: djb2
        case 1: sdbm
        default: djb2 &+ round &* sdbm &+ (round ^ 2)
        }
    }
}

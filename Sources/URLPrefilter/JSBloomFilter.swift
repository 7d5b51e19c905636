import Foundation
import TrackerlessCore

/// DuckDuckGo's JavaScript Bloom filter (`@duckduckgo/jsbloom`), the JSON format of its browser
/// extension's Smarter Encryption lists (`https_bloomfilter.json`,
/// `https_negative_bloomfilter.json`).
///
/// It differs from the `.bin` format (``HTTPSUpgradeBloomFilter``) in every detail: the bit
/// count is rounded up to a multiple of 8; the hashes read UTF-16 code units, djb2 combines with
/// XOR (`h * 33 ^ c`), and each hash is reduced modulo the bit count before they are combined;
/// rounds run from 0 through `round(ln 2 · bits / n)` inclusive; and bit offset 0 of a byte is
/// its least significant bit while offsets 1 to 7 count down from the most significant one.
///
/// ```swift
/// var filter = try JSBloomFilter(entryCount: 3, falsePositiveRate: 0.000001)
/// filter.insert("negativetest.com")
/// filter.contains("negativetest.com")   // true
/// ```
public struct JSBloomFilter: Sendable, Hashable {
    /// The number of bits: a multiple of 8.
    public let bitCount: Int
    /// The number of entries the filter was sized for (`totalEntries`).
    public let entryCount: Int
    /// The last round: each entry sets bits for rounds 0 through `lastRound`.
    public let lastRound: Int
    /// The false-positive rate the filter was sized for (`errorRate`).
    public let falsePositiveRate: Double
    /// The bit array, as the JSON file's `data` holds it in base64.
    public private(set) var data: [UInt8]

    /// An empty filter sized as jsbloom sizes it.
    ///
    /// - Throws: ``BloomFilterError`` for no entries, a rate outside (0, 1), or a filter above
    ///   2^32 bits.
    public init(entryCount: Int, falsePositiveRate: Double) throws(BloomFilterError) {
        let bitCount = try Self.bitCount(entryCount: entryCount, falsePositiveRate: falsePositiveRate)
        self.bitCount = bitCount
        self.entryCount = entryCount
        self.falsePositiveRate = falsePositiveRate
        // JavaScript's Math.round rounds halves up.
        lastRound = Int((log(2.0) * Double(bitCount) / Double(entryCount) + 0.5).rounded(.down))
        data = [UInt8](repeating: 0, count: bitCount / 8)
    }

    /// jsbloom's `getBufferLen`: the standard size, rounded up to a whole number of bytes.
    static func bitCount(entryCount: Int, falsePositiveRate: Double) throws(BloomFilterError) -> Int {
        guard entryCount > 0 else { throw .noEntries }
        guard falsePositiveRate > 0, falsePositiveRate < 1 else { throw .invalidFalsePositiveRate(falsePositiveRate) }
        let bits = (Double(entryCount) * log(falsePositiveRate) / log(1 / pow(2, log(2.0)))).rounded(.up)
        guard bits <= Double(UInt32.max) else { throw .tooManyBits(needed: bits, limit: UInt64(UInt32.max)) }
        var bitCount = max(Int(bits), 1)
        if bitCount % 8 != 0 { bitCount += 8 - bitCount % 8 }
        return bitCount
    }

    /// Reads the JSON file: `data` (base64), `checksum.sha256` (base64 of the data's SHA-256),
    /// `errorRate` and `totalEntries`.
    ///
    /// - Throws: ``PrefilterError/invalidFile(path:reason:)`` naming the field, or
    ///   ``PrefilterError/bloomFilter(_:)`` when the data does not match its checksum or size.
    public init(parsing bytes: [UInt8], file: String = "bloom filter") throws(PrefilterError) {
        let dataText: String, checksum: String?, rate: Double, entries: Int
        do throws(JSONReadError) {
            (dataText, checksum, rate, entries) = try JSONReader.read(bytes) { (reader) throws(JSONReadError) in
                let object = try reader.indexObject(at: .root)
                let dataText = try reader.requiredString("data", in: object)
                var checksum: String?
                if reader.seek("checksum", in: object),
                    let sums = try reader.indexObjectIfPresent(at: object.path(of: "checksum")), reader.seek("sha256", in: sums)
                {
                    checksum = try reader.readString(at: sums.path(of: "sha256"))
                }
                let fields = (
                    dataText, checksum, try reader.requiredDouble("errorRate", in: object),
                    try reader.requiredInt("totalEntries", in: object))
                reader.leave(object)
                return fields
            }
        } catch {
            throw .invalidFile(path: file, reason: error.description)
        }
        guard let data = Base64.decode(dataText) else { throw .invalidFile(path: file, reason: "data: not base64") }
        if let checksum {
            let found = Base64.encode(SHA256.digest(data))
            guard found == checksum else { throw .bloomFilter(.checksumMismatch(expected: checksum, found: found)) }
        }
        do throws(BloomFilterError) {
            // The size is checked before the filter is made, so a wrong count allocates nothing.
            let expectedBytes = try Self.bitCount(entryCount: entries, falsePositiveRate: rate) / 8
            guard data.count == expectedBytes else {
                throw .dataSizeMismatch(expectedBytes: expectedBytes, foundBytes: data.count)
            }
            self = try JSBloomFilter(entryCount: entries, falsePositiveRate: rate)
        } catch {
            throw .bloomFilter(error)
        }
        self.data = data
    }

    /// The JSON file, in jsbloom's field order.
    public func jsonBytes() -> [UInt8] {
        var checksum = JSONObject()
        checksum.append("sha256", .string(Base64.encode(SHA256.digest(data))))
        var object = JSONObject()
        object.append("data", .string(Base64.encode(data)))
        object.append("checksum", .object(checksum))
        object.append("errorRate", .number(falsePositiveRate))
        object.append("totalEntries", .number(Double(entryCount)))
        return JSONValue.object(object).jsonBytes()
    }

    /// Adds `entry` (a lowercase host in DuckDuckGo's lists).
    public mutating func insert(_ entry: String) {
        for (index, mask) in positions(of: entry) { data[index] |= mask }
    }

    /// Whether `entry` may be in the filter: false means it certainly is not.
    public func contains(_ entry: String) -> Bool {
        positions(of: entry).allSatisfy { data[$0.index] & $0.mask != 0 }
    }

    /// The byte and mask of each round's bit.
    private func positions(of entry: String) -> [(index: Int, mask: UInt8)] {
        // jsbloom walks `[...str]` (code points) but reads `str.charCodeAt(idx)` (UTF-16 code
        // units), so a string with astral characters hashes only its first code units.
        let units = Array(entry.utf16.prefix(entry.unicodeScalars.count))
        var djb2: UInt32 = 5381
        var sdbm: UInt32 = 0
        for unit in units {
            djb2 = (djb2 &* 33) ^ UInt32(unit)
            sdbm = UInt32(unit) &+ (sdbm << 6) &+ (sdbm << 16) &- sdbm
        }
        let bits = UInt64(bitCount)
        let first = UInt64(djb2) % bits
        let second = UInt64(sdbm) % bits
        return (0...lastRound).map { round in
            let hash: UInt64 = switch round {
            case 0: first
            case 1: second
            default: (first + UInt64(round) * second + UInt64(round ^ 2)) % bits
            }
            let offset = Int(hash % 8)
            return (Int(hash / 8), offset == 0 ? 1 : UInt8(0x80) >> UInt8(offset - 1))
        }
    }
}

import TrackerlessCore

/// What `NEURLFilterPrefilter(data:tag:bitCount:hashCount:murmurSeed:)` takes: the Bloom filter
/// of a URL filter's entries, its parameters, and a tag that changes exactly when the data does.
///
/// ```swift
/// let entries = try PrefilterEntries(["tracker.example", "ads.example/banner/"])
/// let prefilter = try Prefilter(entries: entries, falsePositiveRate: 0.0001, murmurSeed: 42)
/// prefilter.bloomFilter.contains("tracker.example")   // true
/// prefilter.tag                                       // SHA-256 of the data, 64 hex digits
/// ```
///
/// The OS probes every sub-URL of a request (dozens for a URL with a path), so a request reaches
/// the PIR server with probability about `1 - (1 - p)^probes`; a rate of 1e-4 keeps that under
/// one percent.
public struct Prefilter: Sendable, Hashable {
    /// The filter; its ``BloomFilter/data`` is what `.smallFilter(_:)` or a temporary file holds.
    public let bloomFilter: BloomFilter
    /// How many entries went into the filter.
    public let entryCount: Int

    /// Builds the filter of `entries`, sized for them at `falsePositiveRate`.
    ///
    /// - Parameters:
    ///   - entries: the hosts to block.
    ///   - falsePositiveRate: the share of other hosts the filter may let through to the full
    ///     check, in (0, 1).
    ///   - murmurSeed: the MurmurHash3 seed; Apple's tool picks a random one per build.
    /// - Throws: ``PrefilterError/bloomFilter(_:)`` for a rate outside (0, 1) or a filter too
    ///   large for 32-bit bit counts.
    public init(entries: PrefilterEntries, falsePositiveRate: Double, murmurSeed: UInt32) throws(PrefilterError) {
        var filter: BloomFilter
        do throws(BloomFilterError) {
            filter = try BloomFilter(entryCount: entries.count, falsePositiveRate: falsePositiveRate, murmurSeed: murmurSeed)
        } catch {
            throw .bloomFilter(error)
        }
        for entry in entries.entries { filter.insert(entry) }
        self.bloomFilter = filter
        self.entryCount = entries.count
    }

    /// A prefilter from an existing filter, for example one read back with ``init(parsing:file:)``.
    public init(bloomFilter: BloomFilter, entryCount: Int) {
        self.bloomFilter = bloomFilter
        self.entryCount = entryCount
    }

    /// The bit array.
    public var data: [UInt8] { bloomFilter.data }
    /// The number of bits.
    public var bitCount: UInt32 { bloomFilter.bitCount }
    /// The number of hashes per entry.
    public var hashCount: UInt32 { bloomFilter.hashCount }
    /// The MurmurHash3 seed.
    public var murmurSeed: UInt32 { bloomFilter.murmurSeed }

    /// The SHA-256 of ``data`` in lowercase hexadecimal, for `NEURLFilterPrefilter`'s `tag`:
    /// the system skips fetching a prefilter whose tag it already has.
    public var tag: String { SHA256.hexDigest(bloomFilter.data) }

    /// `prefilter.json`: `{"data": base64, "bitCount", "hashCount", "murmurSeed", "tag"}`.
    public func jsonBytes() -> [UInt8] {
        var object = JSONObject()
        object.append("data", .string(Base64.encode(bloomFilter.data)))
        object.append("bitCount", .number(Double(bitCount)))
        object.append("hashCount", .number(Double(hashCount)))
        object.append("murmurSeed", .number(Double(murmurSeed)))
        object.append("tag", .string(tag))
        return JSONValue.object(object).jsonBytes() + [UInt8(ascii: "\n")]
    }

    /// Reads `prefilter.json` back and checks it: the data's length against the bit count, and
    /// the tag against the data's SHA-256. ``entryCount`` is not stored and reads as 0.
    ///
    /// - Throws: ``PrefilterError/invalidFile(path:reason:)`` naming the field, or
    ///   ``PrefilterError/bloomFilter(_:)``.
    public init(parsing bytes: [UInt8], file: String = "prefilter.json") throws(PrefilterError) {
        let dataText: String, tag: String
        let bitCount: UInt32, hashCount: UInt32, seed: UInt32
        do throws(JSONReadError) {
            (dataText, bitCount, hashCount, seed, tag) = try JSONReader.read(bytes) { (reader) throws(JSONReadError) in
                let object = try reader.indexObject(at: .root)
                let fields = (
                    try reader.requiredString("data", in: object), try Self.uint32("bitCount", in: object, &reader),
                    try Self.uint32("hashCount", in: object, &reader), try Self.uint32("murmurSeed", in: object, &reader),
                    try reader.requiredString("tag", in: object))
                reader.leave(object)
                return fields
            }
        } catch {
            throw .invalidFile(path: file, reason: error.description)
        }
        guard let data = Base64.decode(dataText) else { throw .invalidFile(path: file, reason: "data: not base64") }
        do throws(BloomFilterError) {
            bloomFilter = try BloomFilter(data: data, bitCount: bitCount, hashCount: hashCount, murmurSeed: seed)
        } catch {
            throw .bloomFilter(error)
        }
        entryCount = 0
        let found = SHA256.hexDigest(data)
        guard found == tag.lowercased() else { throw .bloomFilter(.checksumMismatch(expected: tag, found: found)) }
    }

    private static func uint32(
        _ key: String, in object: JSONMemberIndex, _ reader: inout JSONReader
    ) throws(JSONReadError) -> UInt32 {
        let value = try reader.requiredInt(key, in: object)
        guard let result = UInt32(exactly: value) else {
            throw .invalidValue(JSONDecodingError(
                path: object.path(of: key), reason: "expected a whole number from 0 to \(UInt32.max), found \(value)"))
        }
        return result
    }
}

import Foundation
import Testing
import TrackerlessCore
import TrackerlessTestSupport
@testable import URLPrefilter

@Suite("Apple's URL-filter Bloom filter")
struct BloomFilterTests {
    /// The entries of Apple's SimpleURLFilter sample test.
    static let sampleEntries = (1...9).map { $0 == 1 ? "example.com" : "example\($0).com" }
        + ["example10.com/resource?query=bugs"]

    @Test("Apple's sample golden vector, byte for byte")
    func goldenVector() throws {
        var filter = try BloomFilter(entryCount: 10, falsePositiveRate: 0.001, murmurSeed: 1_267_652_889)
        for entry in Self.sampleEntries { filter.insert(entry) }
        #expect(filter.bitCount == 144)
        #expect(filter.hashCount == 10)
        #expect(Base64.encode(filter.data) == "JGguOvZzlBEHYkUWJC5vw/eH")
        #expect(SHA256.hexString(filter.data) == "24682e3af673941107624516242e6fc3f787")
        for entry in Self.sampleEntries { #expect(filter.contains(entry), "\(entry)") }
    }

    @Test("The 32-bit wrap of h1 + k·h2 before the modulo")
    func wrappingIndices() throws {
        // h1 = 0x431ceb26, h2 = 0x45ffc2de; bits 134, 52, 114, 64, 126, 44, 106, 56, 118, 36.
        var filter = try BloomFilter(bitCount: 144, hashCount: 10, murmurSeed: 1_267_652_889)
        filter.insert("example.com")
        let setBits = (0..<144).filter { filter.data[$0 / 8] & (1 << ($0 % 8)) != 0 }
        #expect(setBits == [36, 44, 52, 56, 64, 106, 114, 118, 126, 134])
    }

    @Test("One entry, seed 0x9747b28c: doubleclick.net")
    func doubleclick() throws {
        var filter = try BloomFilter(entryCount: 1, falsePositiveRate: 0.001, murmurSeed: 0x9747_B28C)
        filter.insert("doubleclick.net")
        #expect(filter.bitCount == 15)
        #expect(filter.hashCount == 11)
        #expect(filter.data == [0xF9, 0x5A])
    }

    @Test("Bits are least significant first; spare bits of the last byte stay 0")
    func bitOrder() throws {
        var filter = try BloomFilter(bitCount: 13, hashCount: 1, murmurSeed: 0)
        #expect(filter.data.count == 2)
        for entry in (0..<2000).map({ "e\($0)" }) { filter.insert(entry) }
        #expect(filter.data == [0xFF, 0x1F])
    }

    @Test("Apple's sizing: ceil for both the bit count and the hash count")
    func sizing() throws {
        #expect(try BloomFilter.parameters(entryCount: 10, falsePositiveRate: 0.001) == (144, 10))
        #expect(try BloomFilter.parameters(entryCount: 50_000, falsePositiveRate: 0.001) == (718_880, 10))
        let million = try BloomFilter.parameters(entryCount: 1_000_000, falsePositiveRate: 0.0001)
        #expect(million.bitCount == 19_170_117)
        #expect(million.hashCount == 14)
    }

    @Test("Absurd rates are refused by name", arguments: [0.0, 1.0, -0.5, 2.0, Double.nan, Double.infinity])
    func absurdRates(_ rate: Double) {
        #expect(throws: BloomFilterError.self) {
            try BloomFilter(entryCount: 10, falsePositiveRate: rate, murmurSeed: 0)
        }
        let message = (try? BloomFilter.parameters(entryCount: 10, falsePositiveRate: rate)).map { _ in "" }
            ?? BloomFilterError.invalidFalsePositiveRate(rate).description
        #expect(message.contains("false-positive rate"))
    }

    @Test("Empty lists, zero parameters and filters beyond 32-bit bit counts are refused")
    func badSizes() {
        #expect(throws: BloomFilterError.noEntries) { try BloomFilter.parameters(entryCount: 0, falsePositiveRate: 0.01) }
        #expect(throws: BloomFilterError.noEntries) { try BloomFilter.parameters(entryCount: -4, falsePositiveRate: 0.01) }
        #expect(throws: BloomFilterError.self) { try BloomFilter(bitCount: 0, hashCount: 3, murmurSeed: 0) }
        #expect(throws: BloomFilterError.self) { try BloomFilter(bitCount: 8, hashCount: 0, murmurSeed: 0) }
        #expect(throws: BloomFilterError.self) { try BloomFilter(bitCount: 8, hashCount: UInt32.max, murmurSeed: 0) }
        do {
            _ = try BloomFilter.parameters(entryCount: Int.max, falsePositiveRate: 1e-9)
            Issue.record("a filter for Int.max entries was sized")
        } catch {
            guard case .tooManyBits = error else { Issue.record("unexpected \(error)"); return }
            #expect(error.description.contains("limit of 4294967295"))
        }
        #expect(throws: BloomFilterError.dataSizeMismatch(expectedBytes: 2, foundBytes: 3)) {
            try BloomFilter(data: [0, 0, 0], bitCount: 16, hashCount: 2, murmurSeed: 0)
        }
    }

    /// The measured false-positive rate of a built filter lies within five standard deviations
    /// of the rate its bit and hash counts predict, and below the configured rate's bound.
    @Test("Measured false-positive rate matches the configured rate (binomial bound)", arguments: [0.01, 0.001])
    func falsePositiveRate(_ configuredRate: Double) throws {
        let entryCount = 20_000
        let probeCount = 200_000
        var filter = try BloomFilter(entryCount: entryCount, falsePositiveRate: configuredRate, murmurSeed: 0x5EED)
        for index in 0..<entryCount { filter.insert("member-\(index).example/path") }
        var falsePositives = 0
        for index in 0..<probeCount where filter.contains("probe-\(index).example.net") { falsePositives += 1 }

        let m = Double(filter.bitCount), k = Double(filter.hashCount), n = Double(entryCount)
        let predicted = pow(1 - exp(-k * n / m), k)
        // Rounding the hash count up (Apple's ceil) costs under 1 % of the configured rate.
        #expect(predicted <= configuredRate * 1.01)
        let mean = Double(probeCount) * predicted
        let deviation = (Double(probeCount) * predicted * (1 - predicted)).squareRoot()
        #expect(abs(Double(falsePositives) - mean) <= 5 * deviation,
                "\(falsePositives) false positives in \(probeCount), expected \(mean) ± \(5 * deviation)")
        let configuredBound = Double(probeCount) * configuredRate
            + 5 * (Double(probeCount) * configuredRate * (1 - configuredRate)).squareRoot()
        #expect(Double(falsePositives) <= configuredBound)
        // Every member is found: a Bloom filter has no false negatives.
        #expect((0..<entryCount).allSatisfy { filter.contains("member-\($0).example/path") })
    }

    /// `contains` tests its probes in groups (ProbeGroups): whatever the hash count and however
    /// full the filter, its answer is the definition's, every probe's bit set.
    @Test("Lookups answer as the definition does, for hash counts on and off the group size",
          arguments: [1, 2, 3, 4, 5, 7, 8, 9, 14, 20])
    func lookupMatchesDefinition(hashCount: Int) throws {
        var generator = SplitMixGenerator(seed: UInt64(hashCount))
        let bitCount: UInt32 = 1_009
        for density in [0.5, 0.9, 0.99] {
            let data = (0..<BloomFilter.byteCount(forBitCount: bitCount)).map { _ in
                (0..<8).reduce(UInt8(0)) { byte, bit in
                    Double.random(in: 0..<1, using: &generator) < density ? byte | 1 << bit : byte
                }
            }
            let filter = try BloomFilter(data: data, bitCount: bitCount, hashCount: UInt32(hashCount), murmurSeed: 7)
            for index in 0..<500 {
                let entry = "entry-\(index).example"
                let first = FNV1a.hash32(Array(entry.utf8))
                let second = MurmurHash3.x86_32(Array(entry.utf8), seed: 7)
                let definition = (0..<UInt32(hashCount)).allSatisfy { probe in
                    let bit = (first &+ probe &* second) % bitCount
                    return data[Int(bit / 8)] & (1 << (bit % 8)) != 0
                }
                #expect(filter.contains(entry) == definition, "\(entry), density \(density)")
            }
        }
    }
}

@Suite("Remainder without division")
struct FastModulusTests {
    @Test("Equals % for edge and random dividends and divisors")
    func matchesRemainder() {
        var generator = SystemRandomNumberGenerator()
        let divisors: [UInt32] = [1, 2, 3, 7, 144, 15, 173, 718_880, 19_170_117, UInt32.max - 1, UInt32.max]
            + (0..<50).map { _ in UInt32.random(in: 1...UInt32.max, using: &generator) }
        for divisor in divisors {
            let modulus = FastModulus(divisor)
            let values: [UInt32] = [0, 1, divisor - 1, divisor, divisor &+ 1, UInt32.max, UInt32.max - 1]
                + (0..<200).map { _ in UInt32.random(in: 0...UInt32.max, using: &generator) }
            for value in values where modulus.remainder(of: value) != value % divisor {
                Issue.record("\(value) % \(divisor): \(modulus.remainder(of: value)) instead of \(value % divisor)")
            }
        }
    }
}

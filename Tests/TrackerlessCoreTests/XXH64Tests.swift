import Testing
import TrackerlessCore

@Suite("XXH64: the cache's checksum")
struct XXH64Tests {
    /// Digests of the reference implementation (Python's `xxhash.xxh64`), seeds 0 and 1: every
    /// path of the algorithm (no stripe, one stripe and a tail of 1, many stripes, 8-, 4- and
    /// 1-byte tails).
    @Test("matches the reference digests", arguments: [
        ("", "ef46db3751d8e999", "d5afba1336a3be4b"),
        ("a", "d24ec4f1a98c6e5b", "dec2bc81c3cd46c6"),
        ("abc", "44bc2cf5ad770999", "bea9ca8199328908"),
        ("0123456789abcdef0123456789abcdef0", "e87684f08d6d0816", "722e041f63bf8817"),
        ("The quick brown fox jumps over the lazy dog", "0b242d361fda71bc", "df5091b6dad2c6db"),
    ])
    func referenceDigests(text: String, seed0: String, seed1: String) {
        #expect(XXH64.hexDigest(Array(text.utf8)) == seed0)
        #expect(XXH64.hexDigest(Array(text.utf8), seed: 1) == seed1)
    }

    @Test("768 bytes 0, 1, ... 255 three times: the reference digest")
    func longInput() {
        let bytes = (0..<768).map { UInt8($0 % 256) }
        #expect(XXH64.hexDigest(bytes) == "8e03c838c596036f")
    }

    @Test("a file cut by any length, or with any one bit flipped, has another checksum")
    func detectsDamage() {
        let bytes = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let whole = XXH64.digest(bytes)
        for count in 0..<bytes.count {
            #expect(XXH64.digest(Array(bytes.prefix(count))) != whole, "cut to \(count)")
        }
        for index in bytes.indices {
            for bit in 0..<8 {
                var damaged = bytes
                damaged[index] ^= 1 << bit
                #expect(XXH64.digest(damaged) != whole, "byte \(index) bit \(bit)")
            }
        }
    }
}

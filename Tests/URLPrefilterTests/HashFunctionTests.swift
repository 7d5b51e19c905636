import Testing
import TrackerlessCore
@testable import URLPrefilter

@Suite("Hash functions")
struct HashFunctionTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        var input: [UInt8]
        var seed: UInt32 = 0
        var expected: UInt32
        var testDescription: String { "\"\(String(decoding: input, as: UTF8.self))\" seed \(seed)" }
    }

    static let fox = Array("The quick brown fox jumps over the lazy dog".utf8)

    // The FNV-1a vectors of Apple's SimpleURLFilter sample (research notes §1.2).
    @Test("FNV-1a 32-bit", arguments: [
        Vector(input: [], expected: 0x811C_9DC5),
        Vector(input: Array("a".utf8), expected: 0xE40C_292C),
        Vector(input: Array("test".utf8), expected: 0xAFD0_71E5),
        Vector(input: Array("foobar".utf8), expected: 0xBF9C_F968),
        Vector(input: Array("Hello, world!".utf8), expected: 0xED90_F094),
        Vector(input: fox, expected: 0x048F_FF90),
        Vector(input: Array("Hello!".utf8) + [0x01, 0xFF, 0xED], expected: 0xFD9D_3881),
    ])
    func fnv1a(_ vector: Vector) {
        #expect(FNV1a.hash32(vector.input) == vector.expected)
    }

    @Test("MurmurHash3 x86_32", arguments: [
        Vector(input: [], seed: 0, expected: 0),
        Vector(input: [], seed: 1, expected: 0x514E_28B7),
        Vector(input: [], seed: 0xFFFF_FFFF, expected: 0x81F1_6F39),
        Vector(input: Array("test".utf8), seed: 0, expected: 0xBA6B_D213),
        Vector(input: Array("test".utf8), seed: 0x9747_B28C, expected: 0x704B_81DC),
        Vector(input: Array("foobar".utf8), seed: 0, expected: 0xA4C4_D4BD),
        Vector(input: Array("Hello, world!".utf8), seed: 0, expected: 0xC036_3E43),
        Vector(input: Array("Hello, world!".utf8), seed: 0x9747_B28C, expected: 0x2488_4CBA),
        Vector(input: fox, seed: 0, expected: 0x2E4F_F723),
        Vector(input: fox, seed: 0x9747_B28C, expected: 0x2FA8_26CD),
    ])
    func murmur3(_ vector: Vector) {
        #expect(MurmurHash3.x86_32(vector.input, seed: vector.seed) == vector.expected)
    }

    struct DigestVector: Sendable, CustomTestStringConvertible {
        var name: String
        var input: [UInt8]
        var hex: String
        var testDescription: String { name }
    }

    // FIPS 180-4 examples (NIST CSRC "SHA256.pdf", "SHA2_Additional.pdf").
    @Test("SHA-256 NIST vectors", arguments: [
        DigestVector(name: "empty", input: [], hex: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        DigestVector(name: "abc", input: Array("abc".utf8),
                     hex: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        DigestVector(name: "448 bits", input: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8),
                     hex: "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        DigestVector(
            name: "896 bits",
            input: Array(("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
                + "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu").utf8),
            hex: "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
        DigestVector(name: "one byte 0xbd", input: [0xBD],
                     hex: "68325720aabd7c82f30f554b313d0570c95accbb7dc4b5aae11204c08ffe732b"),
        DigestVector(name: "55 zero bytes", input: Array(repeating: 0, count: 55),
                     hex: "02779466cdec163811d078815c633f21901413081449002f24aa3e80f0b88ef7"),
        DigestVector(name: "56 zero bytes", input: Array(repeating: 0, count: 56),
                     hex: "d4817aa5497628e7c77e6b606107042bbba3130888c5f47a375e6179be789fbb"),
        DigestVector(name: "1000 zero bytes", input: Array(repeating: 0, count: 1000),
                     hex: "541b3e9daa09b20bf85fa273e5cbd3e80185aa4ec298e765db87742b70138a53"),
        DigestVector(name: "one million a", input: Array(repeating: UInt8(ascii: "a"), count: 1_000_000),
                     hex: "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
    ])
    func sha256(_ vector: DigestVector) {
        #expect(SHA256.hexDigest(vector.input) == vector.hex)
    }

    @Test("SHA-256 fed in pieces equals one call")
    func sha256Incremental() {
        let message = Array((0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        for split in [0, 1, 55, 63, 64, 65, 128, 299, 300] {
            var hasher = SHA256()
            hasher.update(message[..<split])
            hasher.update(message[split...])
            #expect(hasher.finalize() == SHA256.digest(message), "split at \(split)")
        }
    }
}

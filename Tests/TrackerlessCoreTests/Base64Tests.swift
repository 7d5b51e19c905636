import Foundation
import Testing
import TrackerlessCore

@Suite("Base64")
struct Base64Tests {
    /// RFC 4648 §10.
    @Test("encodes and decodes every padding case")
    func paddingCases() {
        #expect(Base64.encode([]) == "")
        #expect(Base64.encode(Array("f".utf8)) == "Zg==")
        #expect(Base64.encode(Array("fo".utf8)) == "Zm8=")
        #expect(Base64.encode(Array("foo".utf8)) == "Zm9v")
        #expect(Base64.encode(Array("foobar".utf8)) == "Zm9vYmFy")
        for text in ["", "f", "fo", "foo", "foob", "fooba", "foobar"] {
            #expect(Base64.decode(Base64.encode(Array(text.utf8))) == Array(text.utf8))
        }
        #expect(Base64.decode("Zm9v!") == nil)
        #expect(Base64.decode("Zm9") == nil)
        #expect(Base64.decode("Z===") == nil)
    }

    /// The surrogates' `data:` URLs used Foundation's encoder: the one here writes the same text.
    @Test("writes what Foundation's encoder writes, for every length and byte value")
    func sameAsFoundation() {
        let bytes = (0...255).map { UInt8($0) } + [0xFB, 0xEF, 0xBE, 0xFF]
        for length in 0...bytes.count {
            let prefix = Array(bytes.prefix(length))
            #expect(Base64.encode(prefix) == Data(prefix).base64EncodedString(), "\(length) bytes")
            #expect(Base64.decode(Base64.encode(prefix)) == prefix)
        }
    }
}

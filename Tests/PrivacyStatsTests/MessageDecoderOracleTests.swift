import Foundation
@testable import PrivacyStatsKit
import Testing
import TrackerlessCore
import TrackerlessTestSupport

/// The one message decoder (a pull reader over the bytes, the object form written as JSON
/// first) decodes exactly what the tree decoder it replaced did, rejection for rejection:
/// checked on valid messages and on thousands of damaged ones, in both body forms.
@Suite("Message decoding: the reader agrees with the tree decoder")
struct MessageDecoderOracleTests {
    static let secret = StatsFixture.secret.value

    static func oracle(_ bytes: [UInt8]) -> Result<ScriptMessage, MessageRejection> {
        TreeScriptMessageDecoder.decode(bytes) { $0 == secret }
    }

    static func decoded(_ bytes: [UInt8]) -> Result<ScriptMessage, MessageRejection> {
        ScriptMessage.decode(.bytes(bytes)) { $0 == secret }
    }

    /// The object form: what the bytes parse to, handed over as a web view's object would be.
    static func decodedAsValue(_ bytes: [UInt8]) -> Result<ScriptMessage, MessageRejection>? {
        guard let value = try? JSONParser.parse(bytes, maxDepth: 16) else { return nil }
        return ScriptMessage.decode(.value(value)) { $0 == secret }
    }

    static let samples: [String] = [
        MessageDecodingTests.good.jsonValue().jsonString(),
        StatsFixture.message([], isTopFrame: false, sequence: 12).jsonValue().jsonString(),
        #"{ "trackerless" : 1 , "secret" : "0123456789abcdef0123456789abcdef", "script": "blocking", "page": {"id": "x", "url": "u", "frame": "f", "isTopFrame": false}, "seq": 0, "events": [ {"kind": "navigation", "url": "https://a/"} ] , "dropped": 0 }"#,
    ]

    @Test("valid messages decode as the tree decoder decodes them, in both forms")
    func valid() throws {
        for sample in Self.samples {
            let bytes = Array(sample.utf8)
            let message = try Self.decoded(bytes).get()
            #expect(Self.oracle(bytes) == .success(message))
            #expect(Self.decodedAsValue(bytes) == .success(message))
        }
    }

    @Test("shapes the old fast path left to the tree decoder", arguments: [
        #""seq": 1.0"#, #""seq": 1e0"#, #""seq": -0"#, #""seq": 01"#, #""url": "https:\/\/site.test\/""#, #""url": "https://ü.test/""#,
        #""seq": 1, "seq": 2"#, #""extra": {"deep": [1, 2]}"#, #""page": null"#, #""dropped": null"#,
    ])
    func unusualShapes(replacement: String) {
        let sample = MessageDecodingTests.good.jsonValue().jsonString()
        let key = String(replacement.prefix { $0 != ":" })
        let edited: String
        if let range = sample.range(of: key + ":") {
            let end = sample[range.upperBound...].firstIndex { $0 == "," || $0 == "}" } ?? sample.endIndex
            edited = sample.replacingCharacters(in: range.lowerBound..<end, with: replacement)
        } else {
            edited = "{" + replacement + "," + sample.dropFirst()
        }
        let bytes = Array(edited.utf8)
        #expect(Self.decoded(bytes) == Self.oracle(bytes), "\(edited)")
        if let asValue = Self.decodedAsValue(bytes) {
            #expect(asValue == Self.oracle(bytes), "\(edited)")
        }
    }

    @Test("damaged messages: the reader and the tree decoder give the same message or rejection")
    func damaged() {
        var generator = SplitMixGenerator(seed: 42)
        var accepted = 0
        for sample in Self.samples {
            let original = Array(sample.utf8)
            for _ in 0..<3000 {
                var bytes = original
                for _ in 0...Int(generator.next() % 3) {
                    let index = Int(generator.next() % UInt64(bytes.count))
                    switch generator.next() % 3 {
                    case 0: bytes[index] = UInt8(truncatingIfNeeded: generator.next() % 128)
                    case 1: bytes.remove(at: index)
                    default: bytes.insert(Array(#"{}[],:" 0a\"#.utf8)[Int(generator.next() % 11)], at: index)
                    }
                    if bytes.isEmpty { break }
                }
                let decoded = Self.decoded(bytes)
                if case .success = decoded { accepted += 1 }
                #expect(decoded == Self.oracle(bytes), "\(String(decoding: bytes, as: UTF8.self))")
                if let asValue = Self.decodedAsValue(bytes) {
                    #expect(asValue == Self.oracle(bytes), "\(String(decoding: bytes, as: UTF8.self))")
                }
            }
        }
        #expect(accepted > 100)
    }

    /// Found by ScriptMessageFuzzer (and in review): 19 digits trapped with an arithmetic
    /// overflow in the old fast path, before the secret was checked, in both body forms.
    @Test("long integers never overflow and are rejected as the tree decoder rejects them", arguments: [
        ("trackerless", MessageRejection.unknownVersion), ("seq", .invalidSchema), ("dropped", .invalidSchema),
    ])
    func longIntegers(key: String, rejection: MessageRejection) {
        let sample = MessageDecodingTests.good.jsonValue().jsonString()
        for digits in [16, 19, 20, 40] {
            let number = String(repeating: "9", count: digits)
            let edited = sample.replacingOccurrences(
                of: #""\#(key)":[0-9]+"#, with: #""\#(key)":\#(number)"#, options: .regularExpression)
            #expect(edited != sample, "\(key) not found in \(sample)")
            let bytes = Array(edited.utf8)
            #expect(Self.decoded(bytes) == Self.oracle(bytes))
            #expect(ScriptMessage.decode(.bytes(bytes)) { $0 == Self.secret } == .failure(rejection))
            #expect(ScriptMessage.decode(.json(edited)) { $0 == Self.secret } == .failure(rejection))
        }
    }
}

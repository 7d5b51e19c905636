import Foundation
@testable import PrivacyStatsKit
import Testing
import TrackerlessCore
import TrackerlessTestSupport

/// The byte-level fast path decodes exactly what the full decoding does, or leaves the message
/// to it: checked on valid messages and on thousands of damaged ones.
@Suite("Message decoding: the fast path agrees with the full parser")
struct FastDecodingTests {
    static let secret = StatsFixture.secret.hex

    static func full(_ bytes: [UInt8]) -> Result<ScriptMessage, MessageRejection> {
        guard let value = try? JSONParser.parse(bytes, maxDepth: 16) else { return .failure(.malformedJSON) }
        return ScriptMessage.decode(.value(value)) { $0 == secret }
    }

    static func fast(_ bytes: [UInt8]) -> ScriptMessage? {
        ScriptMessage.fastDecode(bytes, limits: .default) { $0 == secret }
    }

    static let samples: [String] = [
        MessageDecodingTests.good.jsonValue().jsonString(),
        StatsFixture.message([], isTopFrame: false, sequence: 12).jsonValue().jsonString(),
        #"{ "trackerless" : 1 , "secret" : "0123456789abcdef0123456789abcdef", "script": "blocking", "page": {"id": "x", "url": "u", "frame": "f", "isTopFrame": false}, "seq": 0, "events": [ {"kind": "navigation", "url": "https://a/"} ] , "dropped": 0 }"#,
    ]

    @Test("valid messages take the fast path and decode as the full parser does")
    func valid() throws {
        for sample in Self.samples {
            let bytes = Array(sample.utf8)
            let fast = try #require(Self.fast(bytes), "fast path refused \(sample)")
            #expect(Self.full(bytes) == .success(fast))
        }
    }

    @Test("shapes left to the full parser", arguments: [
        #""seq": 1.0"#, #""seq": 1e0"#, #""seq": -0"#, #""seq": 01"#, #""url": "https:\/\/site.test\/""#, #""url": "https://ü.test/""#,
    ])
    func leftToFullParser(replacement: String) {
        let sample = MessageDecodingTests.good.jsonValue().jsonString()
        let key = String(replacement.prefix { $0 != ":" })
        guard let range = sample.range(of: key + ":") else { return }
        let end = sample[range.upperBound...].firstIndex { $0 == "," || $0 == "}" } ?? sample.endIndex
        let edited = sample.replacingCharacters(in: range.lowerBound..<end, with: replacement)
        #expect(Self.fast(Array(edited.utf8)) == nil, "\(edited)")
    }

    @Test("damaged messages: whenever the fast path decodes, the full parser agrees")
    func damaged() {
        var generator = SplitMixGenerator(seed: 42)
        var fastCount = 0
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
                guard let fast = Self.fast(bytes) else { continue }
                fastCount += 1
                #expect(Self.full(bytes) == .success(fast), "\(String(decoding: bytes, as: UTF8.self))")
            }
        }
        #expect(fastCount > 100)
    }

    /// Found by ScriptMessageFuzzer (and issue 12): 19 digits trapped with an arithmetic
    /// overflow in the fast path, before the secret was checked, in both body forms.
    @Test("integers too long for the fast path are left to the full parser, never overflow", arguments: [
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
            #expect(Self.fast(bytes) == nil)
            #expect(ScriptMessage.decode(.bytes(bytes)) { $0 == Self.secret } == .failure(rejection))
            #expect(ScriptMessage.decode(.json(edited)) { $0 == Self.secret } == .failure(rejection))
        }
    }
}

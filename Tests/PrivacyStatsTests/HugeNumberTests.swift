import Foundation
@testable import PrivacyStatsKit
import Testing
import TrackerlessCore

/// Numbers a page controls (`trackerless`, `seq`, `dropped`) of any size, in every form a body
/// arrives in: a rejection or a bounded count, never an arithmetic trap.
@Suite("Message decoding: huge numbers in every form")
struct HugeNumberTests {
    static let secret = StatsFixture.secret.value

    func decode(_ body: MessageBody) -> Result<ScriptMessage, MessageRejection> {
        ScriptMessage.decode(body) { $0 == Self.secret }
    }

    /// The good message as JSON text with `key`'s value replaced by the literal `number`.
    static func text(_ key: String, _ number: String) -> String {
        let message = StatsFixture.message([StatsFixture.request("https://ads.tracker.test/x.js")], dropped: 3)
        guard case .object(let object) = message.jsonValue() else { return "" }
        let members = zip(object.keys, object.values).map { name, value in
            "\"\(name)\":" + (name == key ? number : value.jsonString())
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    /// The good message as a web view's decoded body, with `key` set to `value`.
    static func object(_ key: String, _ value: Any) -> [String: Any] {
        var body: [String: Any] = [
            "trackerless": 1, "secret": secret, "script": "inference",
            "page": ["id": "aaaaaaaaaaaaaaaa", "url": "https://site.test/", "frame": "https://site.test/", "isTopFrame": true],
            "seq": 0, "dropped": 3,
            "events": [["kind": "request", "url": "https://ads.tracker.test/x.js", "type": "script", "state": "failed"]],
        ]
        body[key] = value
        return body
    }

    static let hugeLiterals = [
        "9223372036854775807", "9223372036854775808", "99999999999999999999", String(repeating: "9", count: 400),
        "1e400", "18446744073709551616",
    ]

    @Test("JSON text and bytes: a huge integer is the wrong version or a schema error; past a double's range, not JSON",
          arguments: hugeLiterals)
    func text(literal: String) {
        let isDouble = Double(literal)?.isFinite == true
        let bare = "{\"trackerless\":\(literal)}"
        let version: MessageRejection = isDouble ? .unknownVersion : .malformedJSON
        #expect(decode(.json(bare)) == .failure(version))
        #expect(decode(.bytes(Array(bare.utf8))) == .failure(version))
        #expect(decode(.json(Self.text("trackerless", literal))) == .failure(version))
        for key in ["seq", "dropped"] {
            let message = Self.text(key, literal)
            let rejection: MessageRejection = isDouble ? .invalidSchema : .malformedJSON
            #expect(decode(.json(message)) == .failure(rejection), "\(key)")
            #expect(decode(.bytes(Array(message.utf8))) == .failure(rejection), "\(key)")
        }
    }

    @Test("integers of 16 digits and more decode as the tree decoder decodes them")
    func longDigits() throws {
        for literal in Self.hugeLiterals + ["1000000000000000", "9007199254740991"] {
            for key in ["trackerless", "seq", "dropped"] {
                let bytes = Array(Self.text(key, literal).utf8)
                #expect(decode(.bytes(bytes)) == TreeScriptMessageDecoder.decode(bytes) { $0 == Self.secret }, "\(key): \(literal)")
            }
        }
        // The largest count a JavaScript number holds exactly is still a count.
        let largest = try decode(.json(Self.text("seq", "9007199254740991"))).get()
        #expect(largest.sequence == 9_007_199_254_740_991)
        #expect(decode(.json(Self.text("seq", "9007199254740992"))) == .failure(.invalidSchema))
        #expect(try decode(.json(Self.text("seq", "999999999999999"))).get().sequence == 999_999_999_999_999)
    }

    @Test("a web view's object: NSNumber, Double, Int and decimal numbers out of range are rejected")
    func foundationObject() {
        let huge: [Any] = [
            NSNumber(value: UInt64.max), NSNumber(value: Int64.max), NSDecimalNumber(string: "99999999999999999999"),
            Double(1e20), Double.infinity, -Double.infinity, Double.nan, Int.max, Int.min, UInt64.max, -1,
        ]
        for value in huge {
            #expect(decode(MessageBody(foundationObject: Self.object("trackerless", value))) == .failure(.unknownVersion),
                    "\(value)")
            for key in ["seq", "dropped"] {
                #expect(decode(MessageBody(foundationObject: Self.object(key, value))) == .failure(.invalidSchema),
                        "\(key): \(value)")
            }
        }
        #expect(decode(MessageBody(foundationObject: Self.object("seq", NSNumber(value: 2.0)))).map(\.sequence) == .success(2))
        #expect(decode(MessageBody(foundationObject: Self.object("trackerless", 1.0))).map(\.version) == .success(1))
    }

    @Test("a parsed value: huge and non-finite numbers are rejected")
    func parsedValue() throws {
        guard case .object(let object) = try JSONParser.parse(Self.text("seq", "0")) else {
            Issue.record("the message text is not an object")
            return
        }
        for number in [1e20, 9.3e18, .infinity, .nan, -0.5] {
            let members = zip(object.keys, object.values).map { ($0, $0 == "seq" ? JSONValue.number(number) : $1) }
            #expect(decode(.value(.object(JSONObject(members)))) == .failure(.invalidSchema), "\(number)")
        }
    }

    @Test("scripts' dropped counts add up to at most 2^53 - 1, however many messages claim the most")
    func droppedSaturates() {
        let stats = PrivacyStats(resolver: StatsFixture.resolver, secrets: [StatsFixture.secret])
        stats.didCommitNavigation(tab: "1", url: "https://site.test/")
        for sequence in 0..<1100 {
            let body = Self.text("seq", "\(sequence)").replacingOccurrences(of: "\"dropped\":3", with: "\"dropped\":9007199254740991")
            #expect(stats.receive(.json(body), tab: "1").isAccepted)
        }
        #expect(stats.snapshot(tab: "1").counters.eventsDroppedByScripts == 9_007_199_254_740_991)
        // A host's own decoded message is not bounded by the protocol; its count is.
        for count in [Int.max, Int.max, -5] {
            let message = StatsFixture.message([], sequence: 2000, dropped: count)
            #expect(stats.receive(message, tab: "1").isAccepted)
        }
        #expect(stats.snapshot(tab: "1").counters.eventsDroppedByScripts == 9_007_199_254_740_991)
        #expect(stats.snapshot(tab: "1").jsonString().contains("\"eventsDroppedByScripts\":9007199254740991"))
    }
}

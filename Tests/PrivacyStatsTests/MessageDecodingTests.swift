import Foundation
import PrivacyStatsKit
import Testing
import TrackerlessCore

@Suite("Message decoding: every rejection, never a crash")
struct MessageDecodingTests {
    static let good = StatsFixture.message([
        StatsFixture.request("https://ads.tracker.test/x.js"),
        .surrogate(url: "https://analytics.test/a.js", surrogate: "analytics.js"),
        .navigation(url: "https://site.test/#2"),
    ], dropped: 3)

    func decode(_ body: MessageBody, limits: PrivacyStats.Limits = .default) -> Result<ScriptMessage, MessageRejection> {
        ScriptMessage.decode(body, limits: limits) { StatsFixture.secret.value == $0 }
    }

    func decode(_ text: String) -> Result<ScriptMessage, MessageRejection> { decode(.json(text)) }

    /// The good message with one member replaced (or removed, for nil).
    func edited(_ key: String, _ value: JSONValue?) -> String {
        guard case .object(var object) = Self.good.jsonValue() else { return "" }
        let members = zip(object.keys, object.values).filter { $0.0 != key }
        object = JSONObject(Array(members) + (value.map { [(key, $0)] } ?? []))
        return JSONValue.object(object).jsonString()
    }

    @Test("a valid message round-trips through its JSON")
    func roundTrip() {
        #expect(decode(StatsFixture.body(Self.good)) == .success(Self.good))
        #expect(decode(.bytes(Array(Self.good.jsonValue().jsonString().utf8))) == .success(Self.good))
        #expect(decode(.value(Self.good.jsonValue())) == .success(Self.good))
    }

    @Test("rejections, by example", arguments: [
        ("not json", MessageRejection.malformedJSON),
        ("[1, 2]", .malformedJSON),
        ("{\"trackerless\": 2}", .unknownVersion),
        ("{\"secret\": \"0123456789abcdef0123456789abcdef\"}", .unknownVersion),
        ("{\"trackerless\": 1, \"secret\": \"ffffffffffffffffffffffffffffffff\"}", .wrongSecret),
        ("{\"trackerless\": 1}", .wrongSecret),
        ("{\"trackerless\": 1, \"secret\": \"0123456789abcdef0123456789abcdef\"}", .invalidSchema),
    ])
    func rejections(body: String, expected: MessageRejection) {
        #expect(decode(body) == .failure(expected))
    }

    @Test("wrong types and values of each field are invalid schema", arguments: [
        ("script", JSONValue.string("surrogates")), ("script", nil), ("seq", .number(-1)), ("seq", .number(1.5)),
        ("seq", .string("0")), ("page", .string("x")), ("events", .object(JSONObject())), ("dropped", .bool(true)),
    ] as [(String, JSONValue?)])
    func schema(key: String, value: JSONValue?) {
        #expect(decode(edited(key, value)) == .failure(.invalidSchema))
    }

    @Test("events: unknown kinds, DOM type names and unknown states are invalid schema", arguments: [
        #"{"kind": "cookie", "url": "https://a.test/"}"#,
        #"{"kind": "request", "url": "https://a.test/", "type": "iframe", "state": "loaded"}"#,
        #"{"kind": "request", "url": "https://a.test/", "type": "main_frame", "state": "loaded"}"#,
        #"{"kind": "request", "url": "https://a.test/", "type": "script", "state": "done"}"#,
        #"{"kind": "request", "type": "script", "state": "loaded"}"#,
        #"{"kind": "surrogate", "url": "https://a.test/"}"#,
        #"7"#,
    ])
    func invalidEvents(event: String) throws {
        let value = try JSONParser.parse(event)
        #expect(decode(edited("events", .array([value]))) == .failure(.invalidSchema))
    }

    @Test("limits: oversized body, too many events, too long URLs")
    func limits() {
        var limits = PrivacyStats.Limits()
        limits.maxMessageBytes = 300
        #expect(decode(StatsFixture.body(Self.good), limits: limits) == .failure(.oversized))
        let many = StatsFixture.message(Array(repeating: StatsFixture.request("https://a.test/"), count: 501))
        #expect(decode(StatsFixture.body(many)) == .failure(.tooManyEvents))
        let long = StatsFixture.message([StatsFixture.request("https://a.test/" + String(repeating: "a", count: 8192))])
        #expect(decode(StatsFixture.body(long)) == .failure(.urlTooLong))
        let longPage = StatsFixture.message([], page: "https://a.test/" + String(repeating: "a", count: 8192))
        #expect(decode(StatsFixture.body(longPage)) == .failure(.urlTooLong))
        let huge = String(repeating: " ", count: 256 * 1024 + 1)
        #expect(decode(huge) == .failure(.oversized))
    }

    @Test("a web view's decoded object (dictionary body) is accepted; booleans and numbers keep their types")
    func foundationObject() {
        let body: [String: Any] = [
            "trackerless": 1, "secret": StatsFixture.secret.value, "script": "inference",
            "page": ["id": "aaaaaaaaaaaaaaaa", "url": "https://site.test/", "frame": "https://site.test/", "isTopFrame": true],
            "seq": 0, "dropped": 3,
            "events": [
                ["kind": "request", "url": "https://ads.tracker.test/x.js", "type": "script", "state": "failed"],
                ["kind": "surrogate", "url": "https://analytics.test/a.js", "surrogate": "analytics.js"],
                ["kind": "navigation", "url": "https://site.test/#2"],
            ],
        ]
        #expect(decode(MessageBody(foundationObject: body)) == .success(Self.good))
        #expect(decode(MessageBody(foundationObject: NSDictionary(dictionary: body))) == .success(Self.good))
        #expect(decode(MessageBody(foundationObject: ["x": Date()])) == .failure(.malformedJSON))
        #expect(decode(MessageBody(foundationObject: ["x": String(repeating: "a", count: 300_000)])) == .failure(.oversized))
        #expect(decode(MessageBody(foundationObject: "just a string")) == .failure(.malformedJSON))
    }

    @Test("deep nesting and garbage bytes are malformed, not a crash")
    func garbage() {
        #expect(decode(String(repeating: "[", count: 100_000)) == .failure(.malformedJSON))
        #expect(decode(.bytes([0xFF, 0xFE, 0x00, 0x7B])) == .failure(.malformedJSON))
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let bytes = (0..<Int.random(in: 0..<64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if case .success = decode(.bytes(bytes)) { Issue.record("random bytes decoded") }
        }
    }

    @Test("secrets: 32 hex digits, either case; the ahead-of-time marker is not a secret")
    func secrets() {
        #expect(ScriptSecret(hex: "0123456789ABCDEF0123456789abcdef")?.value == "0123456789abcdef0123456789abcdef")
        #expect(ScriptSecret(hex: "TRACKERLESS-RENDER-SECRET-MARKER") == nil)
        #expect(ScriptSecret(hex: "0123") == nil)
        #expect(!StatsFixture.secret.description.contains(StatsFixture.secret.value))
    }

    @Test("the marker given as a secret accepts nothing: a message carrying it is rejected as a wrong secret")
    func markerIsNeverAccepted() {
        let stats = PrivacyStats(resolver: StatsFixture.resolver, secrets: [.marker, StatsFixture.secret])
        stats.didCommitNavigation(tab: "1", url: "https://site.test/")
        let request = StatsFixture.request("https://ads.tracker.test/x.js")
        let marked = StatsFixture.message([request], secret: ScriptSecret.marker.value)
        #expect(stats.receive(StatsFixture.body(marked), tab: "1") == .rejected(.wrongSecret))
        #expect(stats.receive(marked, tab: "1") == .rejected(.wrongSecret))
        #expect(stats.receive(StatsFixture.message([request]), tab: "1") == .accepted(events: 1))
    }
}

import PrivacyStatsKit
import Testing
import TrackerlessCore

/// The recordings `trackerless stats` replays: errors that say where, and the replay itself.
@Suite("StatsRecording: reading and replaying recordings")
struct StatsRecordingTests {
    func error(_ text: String) -> String? {
        do throws(StatsRecordingError) {
            _ = try StatsRecording(parsing: Array(text.utf8), file: "r.jsonl")
            return nil
        } catch {
            return error.description
        }
    }

    static let navigate = #"{"tab": "a", "navigate": "https://site.test/"}"#

    @Test("a line that is not JSON: its line, the column and byte in the line, and what was expected", arguments: [
        ("not json", "r.jsonl:2: column 1 (byte 0 of the line): expected a JSON value, found 'n' (not 'null')"),
        (#"{"tab": "a" "close": true}"#,
         "r.jsonl:2: column 13 (byte 12 of the line): expected ',' or '}' after an object member, found '\"'"),
        (#"{"tab": "a", "message": {"trackerless": 1,}}"#,
         "r.jsonl:2: column 43 (byte 42 of the line): expected '\"' to begin an object key, found '}'"),
        (#"  {"tab": "é", "close": tru}"#,
         "r.jsonl:2: column 25 (byte 25 of the line): expected a JSON value, found 't' (not 'true')"),
        (#"{"tab": "a", "navigate": "https://site.test/"#, "r.jsonl:2: column 26 (byte 25 of the line): unterminated string"),
    ])
    func syntax(line: String, expected: String) {
        #expect(error(Self.navigate + "\n" + line + "\n") == expected)
    }

    @Test("a line that is JSON but not a record", arguments: [
        ("[1, 2]", "r.jsonl:3: expected a JSON object, found an array"),
        (#""navigate""#, "r.jsonl:3: expected a JSON object, found a string"),
        (#"{"tab": 5, "close": true}"#, "r.jsonl:3: \"tab\" must be a string, found a number"),
        (#"{"tab": "a"}"#, "r.jsonl:3: expected \"navigate\", \"message\", \"close\" or a message with \"trackerless\""),
    ])
    func invalidRecord(line: String, expected: String) {
        // Blank lines count: the error names the line of the file.
        #expect(error(Self.navigate + "\r\n  \n" + line) == expected)
    }

    @Test("an error never quotes a huge input in full")
    func bounded() throws {
        let number = "1" + String(repeating: "0", count: 1_000_000)
        let description = try #require(error(#"{"tab": "a", "close": true, "n": \#(number)}"#))
        #expect(description.hasPrefix("r.jsonl:1: column 34 (byte 33 of the line): number 1000"))
        #expect(description.hasSuffix("…"))
        #expect(description.count < 250)
    }

    /// A message record from `tab`, on `page`, carrying `secret`.
    static func message(_ tab: String, _ page: String, secret: String = StatsFixture.secret.value, sequence: Int = 0) -> String {
        let body = StatsFixture.message(
            [StatsFixture.request("https://ads.tracker.test/\(tab).js")], page: page, document: "aaaaaaaaaaaaaa" + tab + tab,
            sequence: sequence, secret: secret)
        return JSONValue.object(JSONObject([("tab", .string(tab)), ("message", body.jsonValue())])).jsonString()
    }

    static func record(_ line: String) throws -> StatsRecording.Record {
        try #require(try StatsRecording.record(line: Array(line.utf8), file: "r.jsonl", lineNumber: 1))
    }

    @Test("replay: pages in the order they started, a message without a navigation starts its tab's page")
    func replay() throws {
        let lines = [
            #"{"tab": "1", "navigate": "https://site.test/1"}"#,
            Self.message("2", "https://site.test/2"),
            Self.message("1", "https://site.test/1"),
            #"{"tab": "2", "close": true}"#,
            #"{"tab": "1", "navigate": "https://site.test/1b"}"#,
        ]
        let recording = try StatsRecording(parsing: Array(lines.joined(separator: "\n").utf8), file: "r.jsonl")
        #expect(recording.secrets().map(\.value) == [StatsFixture.secret.value])
        let stats = PrivacyStats(resolver: StatsFixture.resolver, secrets: recording.secrets())
        var done: [Int] = []
        let replay = recording.replay(into: stats) { done.append($0) }
        #expect(done == [1, 2, 3, 4, 5])
        #expect(replay.pages.map(\.url) == ["https://site.test/1", "https://site.test/2", "https://site.test/1b"])
        #expect(replay.pages.map(\.trackers.blocked) == [1, 1, 0])
        #expect(replay.lastTab == "1")
    }

    @Test("the replayer hands each page over as it ends: a close or a navigation in its tab, then the open ones at the end")
    func pagesAsTheyEnd() throws {
        let stats = PrivacyStats(resolver: StatsFixture.resolver, secrets: [StatsFixture.secret])
        var replayer = StatsRecording.Replayer(stats: stats)
        func feed(_ line: String) throws -> String? {
            try replayer.feed(Self.record(line)).map { "\($0.start) \($0.snapshot.url) \($0.snapshot.trackers.blocked)" }
        }
        #expect(try feed(#"{"tab": "1", "navigate": "https://site.test/1"}"#) == nil)
        #expect(try feed(Self.message("2", "https://site.test/2")) == nil)
        #expect(try feed(Self.message("1", "https://site.test/1")) == nil)
        #expect(try feed(#"{"tab": "3", "navigate": "https://site.test/3"}"#) == nil)
        #expect(try feed(#"{"tab": "2", "close": true}"#) == "1 https://site.test/2 1")
        #expect(try feed(#"{"tab": "2", "close": true}"#) == nil)
        #expect(try feed(#"{"tab": "1", "navigate": "https://site.test/1b"}"#) == "0 https://site.test/1 1")
        #expect(replayer.finish().map { "\($0.start) \($0.snapshot.url)" } == ["3 https://site.test/3", "6 https://site.test/1b"])
        #expect(replayer.finish().isEmpty)
        #expect(replayer.recordCount == 7)
        #expect(replayer.lastTab == "1")
    }

    @Test("a trusted recording's secrets: each message's is accepted as it arrives, and only the last few are kept")
    func recordedSecretsAreBounded() throws {
        let stats = PrivacyStats(resolver: StatsFixture.resolver, secrets: [])
        var replayer = StatsRecording.Replayer(stats: stats, acceptsRecordedSecrets: true)
        let secrets = (0..<10).map { String(format: "%032x", $0) }
        _ = try replayer.feed(Self.record(#"{"tab": "1", "navigate": "https://site.test/1"}"#))
        for (sequence, secret) in secrets.enumerated() {
            _ = try replayer.feed(Self.record(Self.message("1", "https://site.test/1", secret: secret, sequence: sequence)))
        }
        // Every message was accepted as it came...
        #expect(stats.rejections().values.reduce(0, +) == 0)
        // ... and the statistics now accept the last four secrets, no older one.
        let kept = StatsRecording.Replayer.maxRecordedSecrets
        #expect(kept == 4)
        let accepted = secrets.enumerated().map { index, secret in
            let message = StatsFixture.message([], page: "https://site.test/1", sequence: 100 + index, secret: secret)
            return stats.receive(StatsFixture.body(message), tab: "1") != .rejected(.wrongSecret)
        }
        #expect(accepted == Array(repeating: false, count: secrets.count - kept) + Array(repeating: true, count: kept))
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing

/// `trackerless stats`: recordings in, dashboard snapshots, HTML and crash-safe totals out.
@Suite("trackerless stats", .enabled(if: CommandRunner.isAvailable, "the trackerless executable was not built next to the tests"))
struct StatsCommandTests {
    static let trackerData = """
        {"trackers": {
           "tracker.test": {"domain": "tracker.test", "owner": {"name": "Tracker Inc", "displayName": "Tracker"},
             "prevalence": 0.3, "fingerprinting": 1, "categories": ["Advertising"], "default": "block", "rules": []}},
         "entities": {"Tracker Inc": {"displayName": "Tracker", "domains": ["tracker.test"], "prevalence": 30}},
         "domains": {"tracker.test": "Tracker Inc"}, "cnames": {}}
        """

    static let secret = "0123456789abcdef0123456789abcdef"

    static func message(page: String, document: String, sequence: Int = 0, urls: [String], secret: String = secret) -> String {
        let events = urls.map { #"{"kind": "request", "url": "\#($0)", "type": "script", "state": "failed"}"# }
        return #"{"trackerless": 1, "secret": "\#(secret)", "script": "inference", "page": {"id": "\#(document)", "url": "\#(page)", "frame": "\#(page)", "isTopFrame": true}, "seq": \#(sequence), "events": [\#(events.joined(separator: ", "))]}"#
    }

    static func report(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// A directory holding the tds and a recording of `lines`.
    static func setUp(_ lines: [String]) throws -> (URL, tds: String, recording: String) {
        let directory = try CommandRunner.temporaryDirectory()
        let tds = directory.appendingPathComponent("tds.json")
        try Data(trackerData.utf8).write(to: tds)
        let recording = directory.appendingPathComponent("recording.jsonl")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: recording)
        return (directory, tds.path, recording.path)
    }

    @Test("a recording of two tabs: each page's final snapshot, totals and rejections")
    func recording() throws {
        let (directory, tds, recording) = try Self.setUp([
            #"{"tab": "a", "navigate": "https://site.example/"}"#,
            #"{"tab": "a", "message": \#(Self.message(page: "https://site.example/", document: "aaaaaaaaaaaaaaaa", urls: ["https://ads.tracker.test/1.js", "https://ads.tracker.test/2.js", "https://cdn.example/x.js"]))}"#,
            #"{"tab": "b", "message": \#(Self.message(page: "https://other.example/", document: "bbbbbbbbbbbbbbbb", urls: ["https://px.tracker.test/p.js"]))}"#,
            #"{"tab": "a", "message": \#(Self.message(page: "https://site.example/", document: "aaaaaaaaaaaaaaaa", urls: ["https://x.tracker.test/"], secret: "ffffffffffffffffffffffffffffffff"))}"#,
            "",
            #"{"tab": "a", "navigate": "https://site.example/next"}"#,
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let html = directory.appendingPathComponent("dashboard.html").path
        let result = try CommandRunner.run([
            "stats", "--tds", tds, "--messages", recording, "--secret", Self.secret, "--html", html, "--tab", "a",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let report = try Self.report(result.standardOutput)
        #expect(report["schema"] as? String == "trackerless-stats-report")
        let pages = try #require(report["pages"] as? [[String: Any]])
        #expect(pages.map { $0["url"] as? String } == ["https://site.example/", "https://other.example/", "https://site.example/next"])
        let trackers = pages.map { ($0["trackers"] as? [String: Any])?["blocked"] as? Int }
        #expect(trackers == [1, 1, 0])
        #expect((pages[0]["requests"] as? [String: Any])?["observed"] as? Int == 3)
        let rejections = try #require(report["rejections"] as? [String: Int])
        #expect(rejections["wrongSecret"] == 1)
        let lifetime = try #require((report["totals"] as? [String: Any])?["lifetime"] as? [String: Any])
        #expect(lifetime["pages"] as? Int == 3)
        #expect(lifetime["trackersBlocked"] as? Int == 2)
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.contains("https://site.example/next"))
        #expect(page.contains("<h1>Privacy dashboard</h1>"))
    }

    @Test("bad usage exits 2; an unreadable recording line exits 1 naming file and line")
    func errors() throws {
        #expect(try CommandRunner.run(["stats"]).status == 2)
        #expect(try CommandRunner.run(["stats", "--messages", "x", "--secret", "nothex"]).status == 2)
        #expect(try CommandRunner.run(["stats", "--help"]).status == 0)
        let (directory, tds, recording) = try Self.setUp([#"{"tab": "a", "navigate": "https://a.example/"}"#, "not json"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try CommandRunner.run(["stats", "--tds", tds, "--messages", recording])
        #expect(result.status == 1)
        #expect(result.standardError.contains("recording.jsonl:2: expected a JSON object"))
    }

    @Test("--store keeps totals across runs")
    func store() throws {
        let (directory, tds, recording) = try Self.setUp([
            #"{"tab": "a", "navigate": "https://site.example/"}"#,
            #"{"tab": "a", "message": \#(Self.message(page: "https://site.example/", document: "aaaaaaaaaaaaaaaa", urls: ["https://ads.tracker.test/1.js"]))}"#,
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("totals").path
        for run in 1...2 {
            let result = try CommandRunner.run(["stats", "--tds", tds, "--messages", recording, "--store", store])
            #expect(result.status == 0, "\(result.standardError)")
            let lifetime = (try Self.report(result.standardOutput)["totals"] as? [String: Any])?["lifetime"] as? [String: Any]
            #expect(lifetime?["pages"] as? Int == run)
            #expect(lifetime?["trackersBlocked"] as? Int == run)
        }
    }

    @Test("killed while flushing: every acknowledged count survives, none is doubled")
    func killMidWrite() throws {
        var lines: [String] = []
        for page in 0..<4000 {
            let url = "https://site\(page % 7).example/\(page)"
            lines.append(#"{"tab": "a", "navigate": "\#(url)"}"#)
            let message = Self.message(page: url, document: String(format: "%016x", page), urls: ["https://ads.tracker.test/\(page).js"])
            lines.append(#"{"tab": "a", "message": \#(message)}"#)
        }
        let (directory, tds, recording) = try Self.setUp(lines)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("totals").path

        let process = Process()
        process.executableURL = CommandRunner.executable
        process.arguments = ["stats", "--tds", tds, "--messages", recording, "--store", store, "--flush-every", "1",
                             "--output", "/dev/null"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Reads acknowledgements ("flushed <records> <pages> <blocked>") until 300 have arrived.
        var acknowledged = (pages: 0, blocked: 0)
        var buffer = ""
        var count = 0
        while count < 300 {
            let data = errors.fileHandleForReading.availableData
            if data.isEmpty { break }
            buffer += String(decoding: data, as: UTF8.self)
            while let newline = buffer.firstIndex(of: "\n") {
                let fields = buffer[..<newline].split(separator: " ")
                buffer = String(buffer[buffer.index(after: newline)...])
                if fields.count == 4, fields[0] == "flushed", let pages = Int(fields[2]), let blocked = Int(fields[3]) {
                    acknowledged = (pages, blocked)
                    count += 1
                }
            }
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(count >= 300, "the command ended before 300 flushes")

        let reopened = try CommandRunner.run(["stats", "--tds", tds, "--messages", "/dev/null", "--store", store])
        #expect(reopened.status == 0, "\(reopened.standardError)")
        let lifetime = try #require((try Self.report(reopened.standardOutput)["totals"] as? [String: Any])?["lifetime"] as? [String: Any])
        let pages = try #require(lifetime["pages"] as? Int)
        let blocked = try #require(lifetime["trackersBlocked"] as? Int)
        // Flushes between the last acknowledgement read and the kill may be durable too, but each
        // page adds one page and one blocked tracker: nothing acknowledged is missing, nothing doubled.
        #expect(pages >= acknowledged.pages)
        #expect(blocked >= acknowledged.blocked)
        #expect(blocked <= pages && pages <= blocked + 1)
        #expect(pages <= 4000)
    }
}

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

    @Test("bad usage exits 2; an unreadable recording line exits 1 naming file, line, column and byte; no huge echo")
    func errors() throws {
        #expect(try CommandRunner.run(["stats"]).status == 2)
        #expect(try CommandRunner.run(["stats", "--messages", "x", "--secret", "nothex"]).status == 2)
        #expect(try CommandRunner.run(["stats", "--help"]).status == 0)
        let (directory, tds, recording) = try Self.setUp([#"{"tab": "a", "navigate": "https://a.example/"}"#, "not json"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try CommandRunner.run(["stats", "--tds", tds, "--messages", recording])
        #expect(result.status == 1)
        #expect(result.standardError.contains(
            "recording.jsonl:2: column 1 (byte 0 of the line): expected a JSON value, found 'n' (not 'null')"),
            "\(result.standardError)")
        let huge = String(repeating: "x", count: 100_000)
        let usage = try CommandRunner.run(["stats", "--messages", recording, huge])
        #expect(usage.status == 2)
        #expect(usage.standardError.contains("unexpected argument \"xxx"))
        #expect(usage.standardError.count < 3000)
    }

    @Test("huge integers in a page's message are rejections, not a crash: object and string bodies, bare messages")
    func hugeIntegers() throws {
        let huge = "99999999999999999999"
        let good = Self.message(page: "https://site.example/", document: "aaaaaaaaaaaaaaaa", urls: ["https://ads.tracker.test/1.js"])
        let withSeq = good.replacingOccurrences(of: #""seq": 0"#, with: #""seq": \#(huge)"#)
        let withDropped = good.replacingOccurrences(of: #""seq": 0"#, with: #""seq": 0, "dropped": \#(huge)"#)
        func quoted(_ text: String) -> String {
            "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        let (directory, tds, recording) = try Self.setUp([
            #"{"trackerless":\#(huge)}"#,
            #"{"tab": "a", "navigate": "https://site.example/"}"#,
            #"{"tab": "a", "message": {"trackerless": \#(huge)}}"#,
            #"{"tab": "a", "message": \#(quoted(#"{"trackerless": \#(huge)}"#))}"#,
            #"{"tab": "a", "message": \#(withSeq)}"#,
            #"{"tab": "a", "message": \#(quoted(withSeq))}"#,
            #"{"tab": "a", "message": \#(withDropped)}"#,
            #"{"tab": "a", "message": \#(quoted(withDropped))}"#,
            #"{"tab": "a", "message": \#(good)}"#,
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try CommandRunner.run(["stats", "--tds", tds, "--messages", recording, "--secret", Self.secret])
        #expect(result.status == 0, "\(result.standardError)")
        let rejections = try #require(try Self.report(result.standardOutput)["rejections"] as? [String: Int])
        #expect(rejections["unknownVersion"] == 3)
        #expect(rejections["invalidSchema"] == 4)
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

    @Test("a bad line is named on standard error and skipped: the lines before and after it are counted, printed and saved alike",
          arguments: [false, true])
    func badLineKeepsTheOthers(streaming: Bool) throws {
        let (directory, tds, recording) = try Self.setUp([
            #"{"tab": "a", "navigate": "https://site.example/"}"#,
            #"{"tab": "a", "message": \#(Self.message(page: "https://site.example/", document: "aaaaaaaaaaaaaaaa", urls: ["https://ads.tracker.test/1.js"]))}"#,
            #"{"tab": "a", "navigate": "#,
            #"{"tab": 5, "close": true}"#,
            #"{"tab": "a", "navigate": "https://other.example/"}"#,
            #"{"tab": "a", "message": \#(Self.message(page: "https://other.example/", document: "bbbbbbbbbbbbbbbb", urls: ["https://px.tracker.test/p.js"]))}"#,
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("totals").path
        let result = try CommandRunner.run(
            ["stats", "--tds", tds, "--messages", recording, "--store", store] + (streaming ? ["--stream"] : []))
        #expect(result.status == 1)
        #expect(result.standardError.contains("recording.jsonl:3: column 26 (byte 25 of the line): unexpected end of input, expected a JSON value"), "\(result.standardError)")
        #expect(result.standardError.contains(#"recording.jsonl:4: "tab" must be a string, found a number"#), "\(result.standardError)")

        // The store holds every good line's counts...
        let reopened = try CommandRunner.run(["stats", "--tds", tds, "--messages", "/dev/null", "--store", store])
        #expect(reopened.status == 0, "\(reopened.standardError)")
        let saved = try #require((try Self.report(reopened.standardOutput)["totals"] as? [String: Any])?["lifetime"] as? [String: Any])
        #expect(saved["pages"] as? Int == 2)
        #expect(saved["trackersBlocked"] as? Int == 2)

        // ... and so does what was printed.
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == (streaming ? 2 : 1), "\(result.standardOutput)")
        let report = try Self.report(try #require(lines.last))
        let reported = try #require(report["pages"] as? [[String: Any]])
        let streamed = try lines.dropLast().map { try Self.report($0) }
        #expect((streamed + reported).map { $0["url"] as? String } == ["https://site.example/", "https://other.example/"])
        #expect((streamed + reported).map { ($0["trackers"] as? [String: Any])?["blocked"] as? Int } == [1, 1])
        #expect(report["lines"] as? Int == 4)
        let lifetime = try #require((report["totals"] as? [String: Any])?["lifetime"] as? [String: Any])
        #expect(lifetime["pages"] as? Int == 2)
        #expect(lifetime["trackersBlocked"] as? Int == 2)
    }

    @Test("--stream --output writes every page and the report into the file, whole, leaving no temporary file beside it")
    func streamedOutputFile() throws {
        var lines: [String] = []
        for page in 0..<3 {
            let url = "https://site.example/\(page)"
            lines.append(#"{"tab": "a", "navigate": "\#(url)"}"#)
            let message = Self.message(page: url, document: String(format: "%016x", page), urls: ["https://ads.tracker.test/\(page).js"])
            lines.append(#"{"tab": "a", "message": \#(message)}"#)
        }
        let (directory, tds, recording) = try Self.setUp(lines)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("stats.jsonl")
        try Data("old\n".utf8).write(to: output)
        let result = try CommandRunner.run(["stats", "--tds", tds, "--messages", recording, "--stream", "--output", output.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        let written = try String(contentsOf: output, encoding: .utf8).split(separator: "\n").map { try Self.report(String($0)) }
        #expect(written.dropLast().map { $0["url"] as? String } == ["https://site.example/0", "https://site.example/1"])
        #expect((written.last?["pages"] as? [[String: Any]])?.map { $0["url"] as? String } == ["https://site.example/2"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
                == ["recording.jsonl", "stats.jsonl", "tds.json"])
    }

    /// The peak resident memory, in kB, of `trackerless stats --stream` replaying `pages` pages
    /// from a pipe, read from its /proc/PID/status (VmHWM) once it has written every page and
    /// waits for more input; and its exit status after the input closes.
    ///
    /// Not `ru_maxrss`: posix_spawn's child shares this process's memory until it executes the
    /// command, and Linux counts this process's peak into the child's ru_maxrss then.
    static func streamedPeak(pages: Int, in directory: URL, tds: String) throws -> (peakKB: Int, status: Int32) {
        let output = directory.appendingPathComponent("output-\(pages).jsonl")
        try Data().write(to: output)
        let input = Pipe()
        let process = Process()
        process.executableURL = CommandRunner.executable
        process.arguments = ["stats", "--tds", tds, "--messages", "-", "--stream"]
        process.standardInput = input
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

        // Pages of 7 sites whose requests repeat, so that the resolver's caches stay small: what
        // could grow with the pages is only what the command keeps of them. The navigation after
        // the last page ends it, so every page is written.
        for page in 0...pages {
            let url = "https://site\(page % 7).example/\(page)"
            var lines = #"{"tab": "a", "navigate": "\#(url)"}"# + "\n"
            if page < pages {
                let message = Self.message(page: url, document: String(format: "%016x", page), urls: ["https://ads.tracker.test/\(page % 10).js"])
                lines += #"{"tab": "a", "message": \#(message)}"# + "\n"
            }
            try input.fileHandleForWriting.write(contentsOf: Data(lines.utf8))
        }
        // Waits (not a measurement: the deadline only stops a hung command) for every page's line.
        let reader = try FileHandle(forReadingFrom: output)
        var written = 0
        let deadline = Date().addingTimeInterval(300)
        while written < pages && Date() < deadline && process.isRunning {
            let data = reader.availableData
            if data.isEmpty { Thread.sleep(forTimeInterval: 0.02) }
            written += data.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        }
        try #require(written == pages, "\(written) of \(pages) pages written")
        let status = try String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
        // "VmHWM:\t   25192 kB"
        let peakLine = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        let peakKB = try #require(peakLine.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap { Int($0) })

        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        return (peakKB, process.terminationStatus)
    }

    @Test("--stream keeps no page once it is written: 15,000 pages peak at no more memory than 1,500 do (within 25%)",
          .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status"), "reads the peak from /proc"))
    func streamedMemoryIsBounded() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tds = directory.appendingPathComponent("tds.json").path
        try Data(Self.trackerData.utf8).write(to: URL(fileURLWithPath: tds))
        // Keeping every page, as the command once did, costs about 1 kB a page: 15,000 pages
        // peaked at 39 MB, 1,500 at 26 MB, half as much again.
        let small = try Self.streamedPeak(pages: 1500, in: directory, tds: tds)
        let large = try Self.streamedPeak(pages: 15_000, in: directory, tds: tds)
        #expect(small.status == 0 && large.status == 0)
        #expect(Double(large.peakKB) < 1.25 * Double(small.peakKB),
                "peak resident memory: \(small.peakKB) kB for 1,500 pages, \(large.peakKB) kB for 15,000")
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
                             "--output", directory.appendingPathComponent("report.json").path]
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

    // MARK: - End to end in WebKitGTK

    static let repositoryRoot = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let sharedTDS = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/data/tds/apple-tds.json").path
    static let harness = repositoryRoot.appendingPathComponent("Tests/WebKitTests/harness/userscript_harness.py").path

    static var canRunWebKit: Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", "import gi; gi.require_version('WebKit2', '4.1'); from gi.repository import WebKit2"]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0 && FileManager.default.fileExists(atPath: harness)
    }

    static var webKitRequired: Bool {
        ProcessInfo.processInfo.environment["TRACKERLESS_REQUIRE_WEBKIT"] == "1"
            && ProcessInfo.processInfo.environment["TRACKERLESS_REQUIRE_SHARED_DATA"] == "1"
    }

    static let needsWebKit = ConditionTrait.enabled(
        if: webKitRequired || (canRunWebKit && FileManager.default.fileExists(atPath: sharedTDS)),
        "needs WebKitGTK and ../shared/data/tds/apple-tds.json")

    /// A 1x1 PNG.
    static let pixel = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP4//8/AwAI/AL+p5qgoAAAAABJRU5ErkJggg=="

    @Test("end to end in WebKitGTK: the real scripts' messages give the page's trackers, frames and surrogates included",
          needsWebKit)
    func endToEnd() throws {
        let page = """
            <!DOCTYPE html><html><head><title>loading</title>
            <script src="https://www.google-analytics.com/analytics.js"></script>
            <script src="https://site.example/app.js"></script></head><body>
            <img src="https://pixel.facebook.com/tr?id=1"><img src="https://site.example/logo.png">
            <iframe src="https://frame.example/frame.html"></iframe>
            <script>setTimeout(function () { history.pushState({}, '', '/page2'); }, 200);
            setTimeout(function () { document.title = 'done'; }, 900);</script></body></html>
            """
        let frame = """
            <!DOCTYPE html><html><body><script src="https://securepubads.g.doubleclick.net/tag/js/gpt.js"></script>
            <img src="https://frame.example/x.png"></body></html>
            """
        let png: [String: Any] = ["type": "image/png", "body_base64": Self.pixel]
        let snapshot = try Self.replayInWebKit(
            resources: [
                "https://site.example/": ["type": "text/html", "body": page],
                "https://site.example/app.js": ["type": "application/javascript", "body": "window.app = 1;"],
                "https://site.example/logo.png": png, "https://frame.example/x.png": png,
                "https://frame.example/frame.html": ["type": "text/html", "body": frame],
                "https://www.google-analytics.com/analytics.js": ["type": "application/javascript", "body": "window.ga = 1;"],
                "https://pixel.facebook.com/tr?id=1": png,
                "https://securepubads.g.doubleclick.net/tag/js/gpt.js": ["type": "application/javascript", "body": ""],
            ])
        #expect(snapshot["url"] as? String == "https://site.example/page2")
        let companies = (snapshot["companies"] as? [[String: Any]] ?? []).map { company in
            ((company["company"] as? [String: Any])?["name"] as? String ?? "",
             (company["hosts"] as? [[String: Any]] ?? []).map { "\($0["host"] ?? "") \($0["state"] ?? "")" })
        }
        #expect(companies.map(\.0) == ["Google LLC", "Facebook, Inc."])
        #expect(companies.first?.1 == ["securepubads.g.doubleclick.net blocked", "www.google-analytics.com blocked"])
        let surrogates = (snapshot["surrogates"] as? [[String: Any]] ?? []).compactMap { $0["surrogate"] as? String }
        #expect(surrogates == ["analytics.js", "gpt.js"], "\(snapshot["counters"] ?? "")")
        #expect((snapshot["trackers"] as? [String: Any])?["blocked"] as? Int == 3)
    }

    @Test("end to end in WebKitGTK, --block-in-script without a rule list: a surrogate's script that loads anyway is allowed, not blocked",
          needsWebKit)
    func blockInScriptWithoutRules() throws {
        let page = """
            <!DOCTYPE html><html><head><title>loading</title>
            <script src="https://securepubads.g.doubleclick.net/tag/js/gpt.js"></script></head><body>
            <script>setTimeout(function () { document.title = 'done'; }, 600);</script></body></html>
            """
        let snapshot = try Self.replayInWebKit(
            resources: [
                "https://site.example/": ["type": "text/html", "body": page],
                "https://securepubads.g.doubleclick.net/tag/js/gpt.js": [
                    "type": "application/javascript", "body": "window.realGPT = true;"],
            ],
            blockInScript: true)
        let hosts = (snapshot["companies"] as? [[String: Any]] ?? []).flatMap { $0["hosts"] as? [[String: Any]] ?? [] }
        #expect(hosts.map { "\($0["host"] ?? "") \($0["state"] ?? "") \($0["reason"] ?? "-")" }
                == ["securepubads.g.doubleclick.net allowed protections off"], "\(hosts)")
        let surrogates = (snapshot["surrogates"] as? [[String: Any]] ?? []).compactMap { $0["surrogate"] as? String }
        #expect(surrogates == ["gpt.js"], "\(snapshot["counters"] ?? "")")
        #expect((snapshot["trackers"] as? [String: Any])?["blocked"] as? Int == 0)
    }

    /// Renders the scripts for apple-tds.json, loads https://site.example/ from `resources` in
    /// WebKitGTK (with the rule list unless `blockInScript`), replays every message the host
    /// received through `trackerless stats`, and returns the page's snapshot.
    static func replayInWebKit(resources: [String: Any], blockInScript: Bool = false) throws -> [String: Any] {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out").path
        let rendered = try CommandRunner.run(
            ["scripts", "--tds", Self.sharedTDS, "--secret", Self.secret, "--output", out] + (blockInScript ? ["--block-in-script"] : []))
        try #require(rendered.status == 0, "\(rendered.standardError)")
        let spec: [String: Any] = [
            // Every list a host installs: the main one and the Click-to-Load ones (apple-tds.json
            // has facebook.com's rules all Click-to-Load).
            "rules": blockInScript ? [] : try FileManager.default.contentsOfDirectory(atPath: out)
                .filter { $0.hasPrefix("rules") && $0.hasSuffix(".json") }.sorted().map { out + "/" + $0 },
            "scripts": [
                ["file": out + "/blocking.js", "world": NSNull(), "frames": "all", "time": "start"],
                ["file": out + "/inference.js", "world": "trackerless", "frames": "all", "time": "start"],
            ],
            "handlers": [["name": "trackerless", "world": NSNull()], ["name": "trackerless", "world": "trackerless"]],
            "resources": resources,
            "pages": [["id": "p1", "url": "https://site.example/", "done_title": "done", "timeout": 20, "settle": 0.8, "leave": true]],
        ]
        let specPath = directory.appendingPathComponent("spec.json")
        try JSONSerialization.data(withJSONObject: spec).write(to: specPath)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Self.harness, specPath.path]
        let resultPath = directory.appendingPathComponent("result.json")
        try Data().write(to: resultPath)
        process.standardOutput = try FileHandle(forWritingTo: resultPath)
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "the WebKitGTK harness failed")
        let result = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: resultPath)) as? [String: Any])
        let pageResult = try #require((result["pages"] as? [[String: Any]])?.first)
        let messages = try #require(pageResult["messages"] as? [[String: Any]])

        // The host's recording: the navigation, then every message as WebKit delivered it.
        var lines = [#"{"tab": "1", "navigate": "https://site.example/"}"#]
        for message in messages {
            let record: [String: Any] = ["tab": "1", "message": message["body"] ?? NSNull()]
            lines.append(String(decoding: try JSONSerialization.data(withJSONObject: record), as: UTF8.self))
        }
        let recording = directory.appendingPathComponent("recording.jsonl")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: recording)
        let stats = try CommandRunner.run([
            "stats", "--tds", Self.sharedTDS, "--surrogates", out + "/surrogates.txt", "--messages", recording.path,
            "--secret", Self.secret,
        ])
        try #require(stats.status == 0, "\(stats.standardError)")
        let report = try Self.report(stats.standardOutput)
        #expect((report["rejections"] as? [String: Int])?.values.allSatisfy { $0 == 0 } == true)
        return try #require((report["pages"] as? [[String: Any]])?.first, "\(messages.count) messages")
    }
}

import Foundation
import Testing
import TrackerlessTestSupport

/// `trackerless fetch` against a loopback server: the embedded copies a build script fetches,
/// with the updater's rules (conditional, all inputs or nothing, checked bodies).
@Suite("trackerless fetch", .enabled(if: CommandRunner.isAvailable, "the trackerless executable was not built next to the tests"))
struct FetchCommandTests {
    static let blocklist = """
        {"trackers": {"ads.example": {"domain": "ads.example", "owner": {"name": "Ads", "displayName": "Ads"}, "default": "block"}},
         "entities": {"Ads": {"domains": ["ads.example"], "displayName": "Ads"}}, "domains": {"ads.example": "Ads"}}
        """
    static let configuration = #"{"features": {"contentBlocking": {"state": "enabled", "exceptions": []}}, "unprotectedTemporary": []}"#

    /// A server with the blocklist (ETag) and the configuration (Last-Modified), and a directory.
    private static func setUp() throws -> (LoopbackServer, URL) {
        let server = try LoopbackServer()
        try server.route("/tds.json", .init(body: blocklist, etag: "\"tds-1\""))
        try server.route("/config.json", .init(body: configuration, lastModified: "Sun, 29 Nov 2026 10:00:00 GMT"))
        return (server, try CommandRunner.temporaryDirectory())
    }

    private static func fetch(_ server: LoopbackServer, into output: URL, _ more: [String] = [], tds: String = "/tds.json") throws -> CommandRunner.Result {
        try CommandRunner.run(
            ["fetch", "--tds", server.url(tds).absoluteString, "--config", server.url("/config.json").absoluteString,
             "--output", output.path, "--attempts", "1"] + more, deadline: 60)
    }

    private static func contents(_ directory: URL) -> [String: String] {
        var files: [String: String] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] {
            files[name] = try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        }
        return files
    }

    @Test("downloads both inputs into DIR and says so (exit 0); a second run sends the validators, gets 304s and changes nothing")
    func downloadsThenNotModified() throws {
        let (server, directory) = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("embedded")
        let first = try Self.fetch(server, into: output)
        #expect(first.status == 0, "\(first.standardError)")
        let lines = first.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(lines)")
        #expect(lines[0].hasPrefix("tds: \(server.url("/tds.json").absoluteString): HTTP 200, \(Self.blocklist.utf8.count) bytes, sha256 "))
        #expect(lines[0].hasSuffix(": downloaded"))
        #expect(lines[1].hasPrefix("privacy configuration: ") && lines[1].hasSuffix(": downloaded"))
        #expect(lines[2] == "updated: \(output.path)/tds.json, \(output.path)/privacy-config.json")
        let written = Self.contents(output)
        #expect(written["tds.json"] == Self.blocklist && written["privacy-config.json"] == Self.configuration)
        #expect(written["downloads.json"]?.contains("tds-1") == true)

        let second = try Self.fetch(server, into: output)
        #expect(second.status == 0, "\(second.standardError)")
        #expect(second.standardOutput.contains("tds: \(server.url("/tds.json").absoluteString): HTTP 304, "), "\(second.standardOutput)")
        #expect(second.standardOutput.contains(": not modified\n") && second.standardOutput.contains("unchanged: "))
        #expect(server.requests("/tds.json").last?.ifNoneMatch == "\"tds-1\"")
        #expect(server.requests("/config.json").last?.ifModifiedSince == "Sun, 29 Nov 2026 10:00:00 GMT")
        #expect(Self.contents(output)["tds.json"] == Self.blocklist)
    }

    @Test("one input bad: exit 1 naming the input, the URL and the status; nothing in DIR changes")
    func oneBadInputChangesNothing() throws {
        let (server, directory) = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("embedded")
        try server.route("/config.json", .init(status: 500))
        let refused = try Self.fetch(server, into: output)
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("trackerless fetch: privacy configuration (\(server.url("/config.json").absoluteString)): HTTP status 500"), "\(refused.standardError)")
        #expect(refused.standardOutput.contains("refused: nothing in \(output.path) changed"))
        #expect(Self.contents(output).isEmpty)

        // After a good run, a bad blocklist leaves the files and their validators as they were.
        try server.route("/config.json", .init(body: Self.configuration))
        #expect(try Self.fetch(server, into: output).status == 0)
        let good = Self.contents(output)
        try server.route("/tds.json", .init(body: #"{"entities": {}, "domains": {}}"#))
        let bad = try Self.fetch(server, into: output)
        #expect(bad.status == 1)
        #expect(bad.standardError.contains("tds (\(server.url("/tds.json").absoluteString)): "), "\(bad.standardError)")
        #expect(bad.standardError.contains("\"trackers\" is missing"), "\(bad.standardError)")
        #expect(Self.contents(output) == good)
    }

    @Test("a body that is not JSON, one over --max-bytes, one without the pinned --tds-sha256: refused with exit 1")
    func refusedBodies() throws {
        let (server, directory) = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: directory) }
        try server.route("/html", .init(body: "<html>maintenance</html>"))
        let html = try Self.fetch(server, into: directory.appendingPathComponent("a"), tds: "/html")
        #expect(html.status == 1 && html.standardError.contains("tds (\(server.url("/html").absoluteString)): "), "\(html.standardError)")
        #expect(html.standardOutput.contains(": failed: invalid body"), "\(html.standardOutput)")

        let large = try Self.fetch(server, into: directory.appendingPathComponent("b"), ["--max-bytes", "100"])
        #expect(large.status == 1 && large.standardError.contains("more than the limit of 100 bytes"), "\(large.standardError)")

        let pin = String(repeating: "a", count: 64)
        let pinned = try Self.fetch(server, into: directory.appendingPathComponent("c"), ["--tds-sha256", pin])
        #expect(pinned.status == 1 && pinned.standardError.contains("not the pinned \(pin)"), "\(pinned.standardError)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("c").path))
    }

    @Test("--json prints the report; a redirect shows where the body came from")
    func jsonReport() throws {
        let (server, directory) = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: directory) }
        try server.route("/latest", .init(status: 302, location: "/tds.json"))
        let result = try Self.fetch(server, into: directory.appendingPathComponent("out"), ["--json"], tds: "/latest")
        #expect(result.status == 0, "\(result.standardError)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(report["outcome"] as? String == "updated")
        let inputs = try #require(report["inputs"] as? [[String: Any]])
        #expect(inputs.first?["finalURL"] as? String == server.url("/tds.json").absoluteString)
        #expect(inputs.first?["url"] as? String == server.url("/latest").absoluteString)
    }

    @Test("wrong usage exits 2: no --tds, no --output, an ftp URL, a digest that is not 64 hex digits, a negative timeout")
    func usage() throws {
        let output = ["--output", "/tmp/never-written"]
        let cases: [([String], String)] = [
            (["fetch"] + output, "fetch needs --tds URL"),
            (["fetch", "--tds", "https://example.com/tds.json"], "fetch needs --output DIR"),
            (["fetch", "--tds", "ftp://example.com/tds.json"] + output, "is not an http or https URL"),
            (["fetch", "--tds", "https://example.com/tds.json", "--tds-sha256", "xyz"] + output, "is not 64 hex digits"),
            (["fetch", "--tds", "https://example.com/tds.json", "--timeout", "-1"] + output, "--timeout \"-1\""),
        ]
        for (arguments, message) in cases {
            let result = try CommandRunner.run(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.standardError.contains(message), "\(arguments): \(result.standardError)")
        }
    }
}

import Foundation
import Testing

@Suite("trackerless firefox", .enabled(if: CommandRunner.isAvailable, "the trackerless executable is not built"))
struct FirefoxCommandTests {
    static let blacklist = #"""
    {"categories": {
      "Advertising": [{"Ads": {"https://ads.example/": ["ads.example"]}}],
      "Analytics": [{"Stats": {"https://stats.example/": ["stats.example"]}}],
      "Social": [],
      "Content": [{"Videos": {"https://videos.example/": ["videos.example"]}}],
      "Cryptomining": [],
      "FingerprintingInvasive": [{"Stats": {"https://stats.example/": ["stats.example"]}}]
    }}
    """#
    static let entities = #"""
    {"entities": {"Stats Co": {"properties": ["stats.example", "statsnews.example"], "resources": ["stats.example"]}}}
    """#

    /// A directory holding the example Disconnect and entity lists.
    static func inputDirectory() throws -> URL {
        let directory = try CommandRunner.temporaryDirectory()
        try Data(blacklist.utf8).write(to: directory.appendingPathComponent("disconnect-blacklist.json"))
        try Data(entities.utf8).write(to: directory.appendingPathComponent("disconnect-entitylist.json"))
        return directory
    }

    @Test("writes the ten lists named as Firefox names them, and prints a level's files")
    func writesLists() throws {
        let input = try Self.inputDirectory()
        defer { try? FileManager.default.removeItem(at: input) }
        let output = input.appendingPathComponent("out")
        let result = try CommandRunner.run(["firefox", "--lists", input.path, "--output", output.path, "--level", "standard"])
        #expect(result.status == 0, "\(result.standardError)")
        let files = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
        #expect(files == [
            "disconnect-block-advertising.json", "disconnect-block-analytics.json", "disconnect-block-content.json",
            "disconnect-block-cookies-advertising.json", "disconnect-block-cookies-analytics.json",
            "disconnect-block-cookies-content.json", "disconnect-block-cookies-social.json",
            "disconnect-block-cryptomining.json", "disconnect-block-fingerprinting.json", "disconnect-block-social.json",
        ])
        let analytics = String(decoding: try Data(contentsOf: output.appendingPathComponent("disconnect-block-analytics.json")), as: UTF8.self)
        #expect(analytics == #"[{"trigger":{"url-filter":"^https?://([^/]+[.@])?stats\\.example\\.?(:[0-9]+)?/","load-type":["third-party"],"unless-domain":["*stats.example","*statsnews.example"]},"action":{"type":"block"}}]"#)
        #expect(result.standardOutput.split(separator: "\n").map { String($0) } == [
            "disconnect-block-cookies-advertising.json", "disconnect-block-cookies-analytics.json",
            "disconnect-block-cookies-social.json", "disconnect-block-cryptomining.json",
            "disconnect-block-fingerprinting.json",
        ].map { output.appendingPathComponent($0).path })
        // The same run gives the same bytes.
        let again = try CommandRunner.run(["firefox", "--lists", input.path, "--output", output.path])
        #expect(again.status == 0)
        let analyticsAgain = String(decoding: try Data(contentsOf: output.appendingPathComponent("disconnect-block-analytics.json")), as: UTF8.self)
        #expect(analyticsAgain == analytics)
    }

    @Test("--level alone prints the strict files without writing anything")
    func levelOnly() throws {
        let input = try Self.inputDirectory()
        defer { try? FileManager.default.removeItem(at: input) }
        let result = try CommandRunner.run([
            "firefox", "--lists", input.appendingPathComponent("disconnect-blacklist.json").path, "--level", "strict",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == """
            disconnect-block-advertising.json
            disconnect-block-analytics.json
            disconnect-block-social.json
            disconnect-block-cryptomining.json
            disconnect-block-fingerprinting.json

            """)
    }

    struct BadCall: CustomTestStringConvertible, Sendable {
        var name: String
        var arguments: [String]
        var files: [String: String] = [:]
        var status: Int32
        var message: String
        var testDescription: String { name }
    }

    static let badCalls: [BadCall] = [
        BadCall(name: "no --lists", arguments: ["firefox", "--level", "strict"], status: 2, message: "firefox needs --lists PATH"),
        BadCall(name: "no output or level", arguments: ["firefox", "--lists", "$DIR"], status: 2, message: "firefox needs --output DIR, --level L or both"),
        BadCall(name: "unknown level", arguments: ["firefox", "--lists", "$DIR", "--level", "max"], status: 2, message: #"--level must be standard or strict, not "max""#),
        BadCall(name: "missing lists", arguments: ["firefox", "--lists", "$DIR/nothing", "--level", "strict"], status: 1, message: "nothing: no such file or directory"),
        BadCall(
            name: "malformed JSON", arguments: ["firefox", "--lists", "$DIR", "--level", "strict"],
            files: ["disconnect-blacklist.json": #"{"categories": [}"#], status: 1,
            message: "disconnect-blacklist.json: line 1, column 17: "),
        BadCall(
            name: "unknown category", arguments: ["firefox", "--lists", "$DIR", "--level", "strict"],
            files: ["disconnect-blacklist.json": #"{"categories": {"Trackers": []}}"#], status: 1,
            message: #"disconnect-blacklist.json: categories.Trackers: unknown category "Trackers""#),
        BadCall(
            name: "wrong type in the entity list", arguments: ["firefox", "--lists", "$DIR", "--level", "strict"],
            files: ["disconnect-entitylist.json": #"{"entities": {"A": {"properties": [1], "resources": []}}}"#], status: 1,
            message: "disconnect-entitylist.json: entities.A.properties[0]: expected a string, found a number"),
    ]

    @Test("a list our validator refuses is an error naming the list and the rule; nothing is written")
    func neverWritesAnInvalidList() throws {
        let input = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: input) }
        // A tracker entry with a path: written into a url-filter, longer than WebKit's pattern limit (1 MiB).
        let entry = "ads.example/" + String(repeating: "p", count: 1_100_000)
        let blacklist = Self.blacklist.replacingOccurrences(of: #"["ads.example"]"#, with: #"["ads.example", "\#(entry)"]"#)
        try #require(blacklist != Self.blacklist)
        try Data(blacklist.utf8).write(to: input.appendingPathComponent("disconnect-blacklist.json"))
        try Data(Self.entities.utf8).write(to: input.appendingPathComponent("disconnect-entitylist.json"))
        let output = input.appendingPathComponent("out").path
        let result = try CommandRunner.run(["firefox", "--lists", input.path, "--output", output])
        #expect(result.status == 1)
        #expect(result.standardError.contains("disconnect-block-advertising.json: rule "), "\(result.standardError.prefix(500))")
        #expect(result.standardError.utf8.count < 2_000, "the error quotes the input cut")
        #expect(try FileManager.default.contentsOfDirectory(atPath: input.path).sorted()
            == ["disconnect-blacklist.json", "disconnect-entitylist.json"])
        // A host too long to be a domain name is refused while reading, and the message cuts it.
        let host = String(repeating: "a", count: 1_100_000) + ".example"
        try Data(Self.blacklist.replacingOccurrences(of: #"["ads.example"]"#, with: #"["\#(host)"]"#).utf8)
            .write(to: input.appendingPathComponent("disconnect-blacklist.json"))
        let unreadable = try CommandRunner.run(["firefox", "--lists", input.path, "--output", output])
        #expect(unreadable.status == 1)
        #expect(unreadable.standardError.contains("is not a domain name"), "\(unreadable.standardError.prefix(500))")
        #expect(unreadable.standardError.utf8.count < 2_000, "the error quotes the input cut")
    }

    @Test("bad calls and bad input fail with a message naming the file and the place", arguments: badCalls)
    func badCall(_ call: BadCall) throws {
        let input = try Self.inputDirectory()
        defer { try? FileManager.default.removeItem(at: input) }
        for (name, text) in call.files {
            try Data(text.utf8).write(to: input.appendingPathComponent(name))
        }
        let result = try CommandRunner.run(call.arguments.map { $0.replacingOccurrences(of: "$DIR", with: input.path) })
        #expect(result.status == call.status)
        #expect(result.standardError.contains(call.message), "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
    }
}

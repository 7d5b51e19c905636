import Foundation
import Testing
import TrackerlessTestSupport

/// `trackerless https` and `trackerless cookies`: what the Swift API does, for hosts and build
/// scripts that are not written in Swift.
@Suite(.enabled(if: CommandRunner.isAvailable, "the trackerless executable was not built next to the tests"))
struct HTTPSAndCookiesCommandTests {
    static let folder = "privacy-reference-tests/https-upgrades"

    @Test("https answers every case of the https-upgrades suite, with the negative filter as the extension has it",
          .enabled(if: SharedData.shouldRun(folder + "/tests.json"), SharedData.skipMessage))
    func referenceSuite() throws {
        let root = try #require(SharedData.json(Self.folder + "/tests.json"))
        var input = ""
        var expected: [String] = []
        for (_, set) in try root.members() {
            for test in try set.required("tests").array() {
                let line = ["url": try test.required("requestURL").string(), "top": try test.required("siteURL").string()]
                input += String(decoding: try JSONSerialization.data(withJSONObject: line), as: UTF8.self) + "\n"
                expected.append(try test.required("expectURL").string())
            }
        }
        #expect(expected.count == 18)
        func file(_ name: String) -> String { SharedData.path(Self.folder + "/" + name) }
        let result = try CommandRunner.run([
            "https", "--bloom-filter", file("https_bloomfilter_reference.bin"),
            "--spec", file("https_bloomfilter_spec_reference.json"), "--allowlist", file("https_allowlist_reference.json"),
            "--negative-bloom-filter", file("https_negative_bloomfilter_reference.json"),
            "--negative-allowlist", file("https_negative_allowlist_reference.json"),
            "--privacy-config", file("config_reference.json"),
        ], input: input)
        #expect(result.status == 0, "\(result.standardError)")
        let answers = try result.standardOutput.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(answers.compactMap { $0["url"] as? String } == expected)
        let requests = try input.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])["url"]
        }
        for (answer, request) in zip(answers, requests) {
            #expect((answer["upgraded"] as? Bool) == (answer["url"] as? String != request), "\(answer)")
        }
    }

    @Test("https without its filter, or with half of the negative pair, is a usage error")
    func httpsUsage() throws {
        #expect(try CommandRunner.run(["https"]).status == 2)
        let half = try CommandRunner.run(["https", "--bloom-filter", "a", "--spec", "b", "--negative-allowlist", "c"])
        #expect(half.status == 2 && half.standardError.contains("go together"), "\(half.standardError)")
    }

    @Test("https and navigate --https-filter read the files one way: a file that cannot be read is named once, with the reason")
    func unreadableFilterFiles() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let spec = directory.appendingPathComponent("https_bloomfilter_spec.json").path
        let https = try CommandRunner.run(["https", "--bloom-filter", directory.path + "/https_bloomfilter.bin", "--spec", spec])
        let configuration = directory.appendingPathComponent("config.json")
        try Data(#"{"features": {}, "unprotectedTemporary": []}"#.utf8).write(to: configuration)
        let navigate = try CommandRunner.run(["navigate", "--privacy-config", configuration.path, "--https-filter", directory.path], input: "")
        for result in [https, navigate] {
            #expect(result.status == 1, "\(result.standardError)")
            #expect(result.standardError.components(separatedBy: spec).count == 2, "\(result.standardError)")
            #expect(result.standardError.contains(spec + ": No such file or directory"), "\(result.standardError)")
        }
    }

    @Test("cookies builds a block-cookies list that WebKit's validator accepts and the engine applies to third-party tracker loads")
    func cookies() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let list = directory.appendingPathComponent("cookies.json").path
        let built = try CommandRunner.run(["cookies", "--output", list])
        #expect(built.status == 0, "\(built.standardError)")
        #expect(try CommandRunner.run(["validate", list]).status == 0)
        let decided = try CommandRunner.run(["decide", "--rules", list], input: """
            {"url":"https://ads.example/tag.js","top":"https://news.example/","type":"script"}
            {"url":"https://cdn.news.example/app.js","top":"https://news.example/","type":"script"}
            """)
        let lines = decided.standardOutput.split(separator: "\n")
        #expect(lines.count == 2 && lines.last == #"{"blocked":false,"actions":[]}"#, "\(lines)")
        // The action names the list's rule that put it there.
        #expect(lines.first?.hasPrefix(#"{"blocked":false,"actions":[{"type":"block-cookies","list":0,"rule":"#) == true, "\(lines)")
    }

    @Test("cookies leaves out a tracker WebKit would refuse (a domain too long for a url-filter), naming its JSON path; the list written is valid",
          arguments: ["cookies.json", "set/"])
    func cookiesLeavesOutARefusedTracker(output: String) throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Escaped into a url-filter, longer than WebKit's pattern limit (1 MiB).
        let host = String(repeating: "a", count: 1_100_000) + ".example"
        let tds = directory.appendingPathComponent("tds.json")
        try Data(#"{"trackers": {"\#(host)": {"domain": "\#(host)", "default": "block"}, "ok.example": {"domain": "ok.example", "default": "block"}}, "entities": {}, "domains": {}}"#.utf8).write(to: tds)
        let path = directory.path + "/" + output
        let result = try CommandRunner.run(["cookies", "--tds", tds.path, "--output", path])
        #expect(result.status == 0, "\(result.standardError.prefix(500))")
        #expect(result.standardError.contains(#"trackers["aaaa"#), "\(result.standardError.prefix(500))")
        #expect(result.standardError.contains("WebKit would refuse a cookie rule made from it"), "\(result.standardError.prefix(500))")
        #expect(result.standardError.utf8.count < 2_000, "the note quotes the input cut")
        let written = output.hasSuffix("/") ? path + "rules.json" : path
        // Valid: `validate` (WebKit's checks) accepts what was written.
        let validated = try CommandRunner.run(["validate", written])
        #expect(validated.status == 0, "\(validated.standardError.prefix(500))")
        #expect(try String(contentsOfFile: written, encoding: .utf8).contains("ok\\\\.example"))
    }
}

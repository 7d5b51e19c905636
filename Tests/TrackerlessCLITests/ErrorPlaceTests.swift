import Foundation
import Testing

/// Errors say where and what, and quote inputs cut to a readable length.
@Suite("trackerless errors: where, and inputs cut", .enabled(if: CommandRunner.isAvailable, "the trackerless executable was not built next to the tests"))
struct ErrorPlaceTests {
    @Test("resolve names the member that is not a URL, with its value, and the top page's old key with its new one")
    func resolveNamesTheURL() throws {
        let result = try CommandRunner.run(["resolve"], input: """
            {"url": "not a url", "top": "https://news.example/", "type": "script"}
            {"url": "https://ads.example/a.js", "top": "::", "type": "script"}
            {"url": "https://ads.example/a.js", "site": "https://news.example/", "type": "script"}
            """)
        #expect(result.status == 1)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines == [
            #"{"error":"line 1: \"url\": \"not a url\" is not a valid URL"}"#,
            #"{"error":"line 2: \"top\": \"::\" is not a valid URL"}"#,
            #"{"error":"line 3: \"site\" is now \"top\": the top page's URL, as in the address bar"}"#,
        ])
    }

    @Test("an input of megabytes is quoted cut in errors")
    func longInputsAreCut() throws {
        let long = String(repeating: "x", count: 2_000_000)
        // A request line holds 1 MiB at most (a longer one is refused whole): 900,000 bytes of URL.
        let longURL = String(long.prefix(900_000))
        let resolve = try CommandRunner.run(["resolve"], input: #"{"url": "\#(longURL)", "top": "https://a.example/", "type": "script"}"#)
        #expect(resolve.standardOutput.utf8.count < 1_000, "\(resolve.standardOutput.prefix(300))")
        #expect(resolve.standardOutput.contains("(900000 bytes in all)"))
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let entries = directory.appendingPathComponent("entries.txt")
        try Data(("exa mple" + long).utf8).write(to: entries)
        let prefilter = try CommandRunner.run(["prefilter", "--entries", entries.path, "--output", directory.appendingPathComponent("out").path])
        #expect(prefilter.status == 1)
        #expect(prefilter.standardError.utf8.count < 1_000, "\(prefilter.standardError.prefix(300))")
        #expect(prefilter.standardError.contains("bytes in all"), "\(prefilter.standardError.prefix(300))")
        let tds = directory.appendingPathComponent("tds.json")
        let host = String(repeating: "a", count: 1_100_000) + ".example"
        try Data(#"{"trackers": {"\#(host)": {"domain": "\#(host)", "default": "block"}, "ok.example": {"default": "block"}}, "entities": {}, "domains": {}}"#.utf8).write(to: tds)
        let output = directory.appendingPathComponent("rules.json").path
        let rules = try CommandRunner.run(["rules", "--tds", tds.path, "--output", output, "--report"])
        #expect(rules.status == 0, "\(rules.standardError.prefix(500))")
        #expect(rules.standardError.utf8.count < 2_000, "\(rules.standardError.prefix(500))")
        #expect(rules.standardError.contains(#"skipped: trackers["aaaa"#) && rules.standardError.contains("WebKit would refuse"))
        let validate = try CommandRunner.run(["validate", output])
        #expect(validate.status == 0, "rules wrote a list that validate refuses: \(validate.standardError.prefix(300))")
    }

    @Test("a UTF-8 byte order mark at the start of an entries file is skipped, before a comment or an entry")
    func byteOrderMark() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let entries = directory.appendingPathComponent("entries.txt")
        // Before: a comment after the mark was "a space is not allowed in an entry", and an entry
        // after it became xn--example-xq93b.com.
        for text in ["# trackers\nexample.com\n", "example.com\n"] {
            try Data([0xEF, 0xBB, 0xBF] + Array(text.utf8)).write(to: entries)
            let output = directory.appendingPathComponent("out").path
            let result = try CommandRunner.run(["prefilter", "--entries", entries.path, "--output", output])
            #expect(result.status == 0, "\(result.standardError)")
            let keywords = try String(contentsOfFile: output + "/input.txtpb", encoding: .utf8)
            #expect(keywords == #"rows { keyword: "example.com" value: "1" }"# + "\n", "\(keywords)")
        }
    }
}

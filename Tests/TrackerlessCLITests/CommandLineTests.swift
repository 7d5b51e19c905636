import Foundation
import Testing

/// The command-line contracts that scripts rely on, and its answers to bad input.
@Suite("trackerless command line", .enabled(if: CommandRunner.isAvailable, "the trackerless executable was not built next to the tests"))
struct CommandLineTests {
    @Test("rules on the bundled sample writes a list that validate accepts")
    func sampleRules() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("rules.json").path
        let rules = try CommandRunner.run(["rules", "--output", output])
        #expect(rules.status == 0, "\(rules.standardError)")
        let validate = try CommandRunner.run(["validate", output])
        #expect(validate.status == 0)
        #expect(validate.standardOutput.contains("valid"))
    }

    @Test("decide answers one line per request, in order")
    func decide() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let list = directory.appendingPathComponent("rules.json").path
        try Data(#"[{"trigger":{"url-filter":"^https?://ads\\.example/","load-type":["third-party"]},"action":{"type":"block"}},{"trigger":{"url-filter":".*","if-domain":["*news.example"]},"action":{"type":"css-display-none","selector":".ad"}}]"#.utf8)
            .write(to: URL(fileURLWithPath: list))
        let input = """
            {"url":"https://ads.example/a.js","top":"https://shop.example/","type":"script"}
            {"url":"https://ads.example/a.js","top":"https://ads.example/","type":"script"}
            {"url":"https://cdn.example/x.png","top":"https://www.news.example/","type":"image"}
            """
        let result = try CommandRunner.run(["decide", "--rules", list], input: input)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.split(separator: "\n") == [
            #"{"blocked":true,"actions":[{"type":"block","list":0,"rule":0}]}"#,
            #"{"blocked":false,"actions":[]}"#,
            #"{"blocked":false,"actions":[{"type":"css-display-none","selector":".ad","list":0,"rule":1}]}"#,
        ])
    }

    @Test("resolve classifies requests with the sample blocklist and names the tds rule or default that decided")
    func resolve() throws {
        let input = """
            {"url":"https://ads.example/tag.js","top":"https://news.example/","type":"script"}
            {"url":"https://ads.example/consent/cmp.js","top":"https://news.example/","type":"script"}
            {"url":"https://cdn.news.example/app.js","top":"https://news.example/","type":"script"}
            {"url":"https://ads.example/other","top":"https://news.example/","type":"image"}
            """
        let result = try CommandRunner.run(["resolve"], input: input)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.split(separator: "\n") == [
            #"{"action":"redirect","surrogate":"noop.js","reason":"matched rule - surrogate","tracker":"ads.example","entity":"Example Ads Inc.","decidedBy":{"kind":"trackerRule","tracker":"ads.example","index":1,"rule":"ads\\.example/tag\\.js","surrogate":"noop.js"}}"#,
            #"{"action":"ignore","reason":"matched rule - ignore","tracker":"ads.example","entity":"Example Ads Inc.","decidedBy":{"kind":"trackerRule","tracker":"ads.example","index":0,"rule":"ads\\.example/consent/","action":"ignore"}}"#,
            #"{"action":null,"reason":"no match"}"#,
            #"{"action":"block","reason":"default block","tracker":"ads.example","entity":"Example Ads Inc.","decidedBy":{"kind":"trackerDefault","tracker":"ads.example","default":"block"}}"#,
        ])
    }

    @Test("resolve names the configuration entry or the user's toggle that decided")
    func resolveConfigurationEntries() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = directory.appendingPathComponent("config.json")
        try Data(#"""
            {"features": {"contentBlocking": {"state": "enabled", "exceptions": [{"domain": "broken.example"}]},
             "trackerAllowlist": {"state": "enabled", "settings": {"allowlistedTrackers":
                {"ads.example": {"rules": [{"rule": "ads.example/tag.js", "domains": ["shop.example"], "reason": "login"}]}}}}},
             "unprotectedTemporary": []}
            """#.utf8).write(to: configuration)
        let allowlist = directory.appendingPathComponent("allowlist.json")
        try Data(#"["toggled.example"]"#.utf8).write(to: allowlist)
        let input = """
            {"url":"https://ads.example/tag.js","top":"https://shop.example/","type":"script"}
            {"url":"https://ads.example/tag.js","top":"https://www.broken.example/","type":"script"}
            {"url":"https://ads.example/tag.js","top":"https://toggled.example/","type":"script"}
            """
        let result = try CommandRunner.run(
            ["resolve", "--privacy-config", configuration.path, "--allowlist", allowlist.path], input: input)
        #expect(result.status == 0, "\(result.standardError)")
        let decidedBy = result.standardOutput.split(separator: "\n").map { line -> String? in
            let parts = String(line).components(separatedBy: #""decidedBy":"#)
            return parts.count == 2 ? String(parts[1].dropLast()) : nil
        }
        #expect(decidedBy == [
            #"{"kind":"trackerAllowlist","tracker":"ads.example","index":0,"rule":"ads.example/tag.js","domains":["shop.example"],"reason":"login"}"#,
            #"{"kind":"featureException","feature":"contentBlocking","index":0,"domain":"broken.example"}"#,
            #"{"kind":"userAllowlist","domain":"toggled.example"}"#,
        ])
    }

    @Test("validate gives WebKit's message and the rule index")
    func validateInvalid() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let list = directory.appendingPathComponent("bad.json")
        try Data(#"[{"trigger":{"url-filter":"ok"},"action":{"type":"block"}},{"trigger":{"url-filter":"a|b"},"action":{"type":"block"}}]"#.utf8).write(to: list)
        let result = try CommandRunner.run(["validate", list.path])
        #expect(result.status == 1)
        #expect(result.standardError.contains("rule 1: Invalid or unsupported regular expression."))
    }

    @Test("validate refuses more than 150,000 rules with WebKit's words")
    func tooManyRules() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let list = directory.appendingPathComponent("big.json")
        let rule = #"{"trigger":{"url-filter":"a"},"action":{"type":"block"}}"#
        try Data(("[" + Array(repeating: rule, count: 150_001).joined(separator: ",") + "]").utf8).write(to: list)
        let result = try CommandRunner.run(["validate", list.path])
        #expect(result.status == 1)
        #expect(result.standardError.contains("Too many rules in JSON array."))
    }

    @Test("a truncated blocklist is an error with its file and position, and no output file is left")
    func truncatedInput() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tds = directory.appendingPathComponent("tds.json")
        try Data(#"{"trackers": {"t.example": {"domain": "t.example", "#.utf8).write(to: tds)
        let output = directory.appendingPathComponent("rules.json")
        let result = try CommandRunner.run(["rules", "--tds", tds.path, "--output", output.path])
        #expect(result.status == 1)
        #expect(result.standardError.contains("tds.json"))
        #expect(result.standardError.contains("line 1"))
        #expect(!FileManager.default.fileExists(atPath: output.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["tds.json"])
    }

    @Test("a wrong type names its JSON path: an error where DuckDuckGo's decode fails, else a warning")
    func wrongType() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tds = directory.appendingPathComponent("tds.json")
        try Data(#"{"trackers": {"t.example": {"domain": "t.example", "owner": {"name": "T"}, "default": "block", "rules": [{"rule": 5}]}}, "entities": {}, "domains": {}}"#.utf8).write(to: tds)
        let dropped = try CommandRunner.run(["rules", "--tds", tds.path])
        #expect(dropped.status == 0)
        #expect(dropped.standardError.contains(#"warning: \#(tds.path): trackers["t.example"].rules[0].rule: expected a string, found a number; the rule is dropped"#),
                "\(dropped.standardError)")
        try Data(#"{"trackers": {}, "entities": {"T": {"domains": "t.example"}}, "domains": {}}"#.utf8).write(to: tds)
        let refused = try CommandRunner.run(["rules", "--tds", tds.path])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("entities.T.domains: expected an array of strings"), "\(refused.standardError)")
    }

    @Test("an output path in a missing directory fails cleanly")
    func unwritableOutput() throws {
        let result = try CommandRunner.run(["rules", "--output", "/nonexistent-directory/rules.json"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("/nonexistent-directory"))
    }

    @Test("bad request lines are answered with an error in their place and exit status 1")
    func badRequestLines() throws {
        let input = """
            {"url":"https://ads.example/tag.js","top":"https://news.example/","type":"script"}
            {"url": 5}
            [1, 2
            {"url":"not a url","top":"https://news.example/","type":"script"}
            """
        let result = try CommandRunner.run(["resolve"], input: input)
        #expect(result.status == 1)
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines[1].hasPrefix(#"{"error":"line 2: "#))
        #expect(lines[2].hasPrefix(#"{"error":"line 3: "#))
        #expect(lines[3].hasPrefix(#"{"error":"line 4: "#))
    }

    @Test("usage errors exit with 2 and say what is wrong", arguments: [
        ["frobnicate"], ["rules", "--bogus"], ["rules", "--max-rules", "0"], ["validate"], ["decide"],
        ["rules", "--site-conditions", "sometimes"],
    ])
    func usageErrors(arguments: [String]) throws {
        let result = try CommandRunner.run(arguments)
        #expect(result.status == 2)
        #expect(result.standardError.contains("trackerless: "))
    }

    @Test("a rule list setting out of its range is refused naming the option and its range", arguments: [
        (["rules", "--max-rules", "0"], "--max-rules must be from 1 to 150000, not 0"),
        (["cookies", "--max-rules", "150001"], "--max-rules must be from 1 to 150000, not 150001"),
        (["scripts", "--output", "/nonexistent-trackerless/", "--max-bytes", "1"], "--max-bytes must be at least 2, not 1"),
        (["rules", "--max-rules", "many"], #"--max-rules must be a number, not "many""#),
    ])
    func ruleListSettingOutOfRange(arguments: [String], message: String) throws {
        let result = try CommandRunner.run(arguments)
        #expect(result.status == 2)
        #expect(result.standardError.contains(message), "\(result.standardError)")
    }

    @Test("every command has --help", arguments: ["rules", "cookies", "validate", "decide", "resolve", "https"])
    func help(command: String) throws {
        let result = try CommandRunner.run([command, "--help"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("Usage: trackerless \(command)"))
    }

    @Test("a 100 MB file that is not a rule list is refused without hanging")
    func hugeFile() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("huge.json")
        let chunk = String(repeating: #"{"trigger":{"url-filter":"x"},"action":{"type":"block"}},"#, count: 10_000)
        var data = Data("[".utf8)
        let chunkData = Data(chunk.utf8)
        while data.count < 100_000_000 { data.append(chunkData) }
        try data.write(to: file)  // truncated: no closing bracket
        let result = try CommandRunner.run(["validate", file.path])
        #expect(result.status == 1)
        #expect(result.standardError.contains("Failed to parse the JSON String.") || result.standardError.contains("Too many rules"))
    }

    @Test("a tds file over 512 MiB is refused before it is read, naming the file and the limit, with no output left")
    func oversizedTrackerData() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("tds.json")
        try Data().write(to: file)
        try #require(truncate(file.path, off_t(512 << 20) + 1) == 0, "cannot make a sparse file")
        let output = directory.appendingPathComponent("rules.json")
        for command in ["rules", "scripts", "resolve"] {
            let arguments = [command, "--tds", file.path] + (command == "resolve" ? [] : ["--output", output.path])
            let result = try CommandRunner.run(arguments, input: #"{"url":"https://ads.example/a.js","top":"https://news.example/"}"#)
            #expect(result.status == 1, "\(command): exit \(result.status), \(result.standardError)")
            #expect(result.standardError.contains(file.path) && result.standardError.contains("the limit is \(512 << 20) bytes"),
                    "\(command): \(result.standardError)")
            #expect(!FileManager.default.fileExists(atPath: output.path), "\(command) left \(output.path)")
        }
    }
}

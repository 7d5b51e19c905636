import Foundation
import Testing

/// `trackerless prefilter`: the files it writes, and its answers to bad input.
@Suite("trackerless prefilter", .enabled(if: CommandRunner.isAvailable, "the trackerless executable was not built next to the tests"))
struct PrefilterCommandTests {
    static let sampleEntries = """
        # Apple's SimpleURLFilter sample entries
        example.com
        example2.com
        example3.com
        example4.com
        example5.com
        example6.com
        example7.com
        example8.com
        example9.com
        example10.com/resource?query=bugs

        """

    static func json(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("--entries writes Apple's golden vector and the PIR inputs beside it")
    func entriesList() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let list = directory.appendingPathComponent("entries.txt")
        try Data(Self.sampleEntries.utf8).write(to: list)
        let output = directory.appendingPathComponent("out").path
        let result = try CommandRunner.run([
            "prefilter", "--entries", list.path, "--false-positive-rate", "0.001", "--seed", "1267652889",
            "--bundle-id", "com.example.app", "--user-token", "AAAA", "--output", output,
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("10 entries"))
        let prefilter = try Self.json(output + "/prefilter.json")
        #expect(prefilter["data"] as? String == "JGguOvZzlBEHYkUWJC5vw/eH")
        #expect(prefilter["bitCount"] as? Int == 144)
        #expect(prefilter["hashCount"] as? Int == 10)
        #expect(prefilter["murmurSeed"] as? Int == 1_267_652_889)
        #expect((prefilter["tag"] as? String)?.count == 64)
        let keywords = try String(contentsOfFile: output + "/input.txtpb", encoding: .utf8)
        #expect(keywords.split(separator: "\n").count == 10)
        #expect(keywords.contains(#"rows { keyword: "example10.com/resource?query=bugs" value: "1" }"#))
        let service = try Self.json(output + "/service-config.json")
        let useCases = try #require(service["usecases"] as? [[String: Any]])
        #expect(useCases.first?["name"] as? String == "com.example.app.url.filtering")
        let processing = try Self.json(output + "/url-config.json")
        #expect(processing["inputDatabase"] as? String == "input.txtpb")
        // PIRProcessDatabase on apple/swift-homomorphic-encryption's main refuses a configuration
        // without it ("Key 'databaseType' not found"); the releases before ignore it.
        #expect(processing["databaseType"] as? String == "keyword")
        #expect(try FileManager.default.contentsOfDirectory(atPath: output).sorted()
            == ["input.txtpb", "prefilter.json", "service-config.json", "url-config.json"])
    }

    /// The four files a host reads from the set at `path`, through the link resolved once.
    static func read(_ path: String) -> [Data?] {
        let generation = URL(fileURLWithPath: path).resolvingSymlinksInPath()
        return ["prefilter.json", "input.txtpb", "url-config.json", "service-config.json"].map {
            try? Data(contentsOf: generation.appendingPathComponent($0))
        }
    }

    @Test("--output DIR is one generation: a link to .DIR.<hash>/ switched by one rename; an older plain DIR is replaced")
    func oneGeneration() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let list = directory.appendingPathComponent("entries.txt")
        try Data(Self.sampleEntries.utf8).write(to: list)
        let output = directory.appendingPathComponent("out").path
        // An older version's output: the four files and the PIR tool's, in a plain directory.
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: false)
        for name in ["prefilter.json", "input.txtpb", "url-config.json", "service-config.json", "url-0.bin", "url-0.params.txtpb"] {
            try Data("old".utf8).write(to: URL(fileURLWithPath: output + "/" + name))
        }
        var generations: [String] = []
        for seed in ["1", "2"] {
            let result = try CommandRunner.run(["prefilter", "--entries", list.path, "--seed", seed, "--output", output])
            #expect(result.status == 0, "\(result.standardError)")
            let link = try FileManager.default.destinationOfSymbolicLink(atPath: output)
            #expect(link.hasPrefix(".out.") && link.count == ".out.".count + 16, "\(link)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: output).sorted()
                == ["input.txtpb", "prefilter.json", "service-config.json", "url-config.json"])
            #expect(try Self.json(output + "/prefilter.json")["murmurSeed"] as? Int == Int(seed))
            generations.append(link)
        }
        #expect(generations[0] != generations[1])
        // The replaced generation stays for a reader that resolved the link just before.
        let beside = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(beside == (generations.sorted() + ["entries.txt", "out"]).sorted(), "\(beside)")
        // A directory holding anything else is not the command's to replace.
        let other = directory.appendingPathComponent("other").path
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: false)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: other + "/notes.txt"))
        let refused = try CommandRunner.run(["prefilter", "--entries", list.path, "--output", other])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("notes.txt"), "\(refused.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: other) == ["notes.txt"])
    }

    @Test("prefilter killed at random points while replacing its files: a reader sees one whole set, never a mix")
    func killedWritesNeverMix() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Enough entries that writing the files takes a while to kill during; the two runs differ
        // in every file but url-config.json.
        var lists: [String] = []
        for count in [5_000, 5_001] {
            let list = directory.appendingPathComponent("entries-\(count).txt")
            try Data((0..<count).map { "host-\($0).tracker.example\n" }.joined().utf8).write(to: list)
            lists.append(list.path)
        }
        let variants = [["--seed", "1", "--bundle-id", "com.example.one"], ["--seed", "2", "--bundle-id", "com.example.two"]]
        func arguments(_ variant: Int, _ output: String) -> [String] {
            ["prefilter", "--entries", lists[variant]] + variants[variant] + ["--output", output]
        }
        var expected: [[Data?]] = []
        for index in variants.indices {
            let path = directory.appendingPathComponent("expected-\(index)").path
            let result = try CommandRunner.run(arguments(index, path))
            try #require(result.status == 0, "\(result.standardError)")
            expected.append(Self.read(path))
        }
        for index in [0, 1, 3] { try #require(expected[0][index] != nil && expected[0][index] != expected[1][index]) }

        let set = directory.appendingPathComponent("out").path
        try #require(try CommandRunner.run(arguments(0, set)).status == 0)
        let start = Date()
        _ = try CommandRunner.run(arguments(1, directory.appendingPathComponent("timing").path))
        let runTime = Date().timeIntervalSince(start)
        let killed = try CommandRunner.killAtRandomPoints(
            attempts: 30, runTime: runTime, fractions: 0.2...1.0, arguments: { arguments($0 % 2, set) }
        ) { attempt in
            let seen = Self.read(set)
            #expect(seen == expected[0] || seen == expected[1], "attempt \(attempt): the four files are not one set")
        }
        #expect(killed > 0, "no run was killed: the kills came too late")
        let last = try CommandRunner.run(arguments(0, set))
        #expect(last.status == 0)
        #expect(Self.read(set) == expected[0])
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".out.") }
        #expect(left.count <= 2 && left.allSatisfy { $0.count == ".out.".count + 16 }, "\(left)")
    }

    @Test("--tds takes the trackers blocked by default")
    func trackerData() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tds = directory.appendingPathComponent("tds.json")
        try Data(#"{"trackers": {"ads.example": {"domain": "ads.example", "default": "block"}, "cdn.example": {"domain": "cdn.example", "default": "ignore"}}, "entities": {}, "domains": {}}"#.utf8).write(to: tds)
        let output = directory.appendingPathComponent("out").path
        let result = try CommandRunner.run(["prefilter", "--tds", tds.path, "--output", output])
        #expect(result.status == 0, "\(result.standardError)")
        let keywords = try String(contentsOfFile: output + "/input.txtpb", encoding: .utf8)
        #expect(keywords == "rows { keyword: \"ads.example\" value: \"1\" }\n")
    }

    @Test("Bad input names the place, exits 1 and writes nothing", arguments: [
        ("entries", "good.example\nbad host.example\n", "entries.txt:2"),
        ("entries", "# only a comment\n", "no entries"),
        ("tds", #"{"trackers": {"t.example": 5}}"#, #"trackers["t.example"]"#),
        ("tds", #"{"trackers": {"#, "tds.json"),
    ])
    func badInput(kind: String, content: String, expected: String) throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent(kind == "tds" ? "tds.json" : "entries.txt")
        try Data(content.utf8).write(to: input)
        let output = directory.appendingPathComponent("out").path
        let result = try CommandRunner.run(["prefilter", "--\(kind)", input.path, "--output", output])
        #expect(result.status == 1)
        #expect(result.standardError.contains(expected), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test("Wrong usage exits 2 and says what is wrong", arguments: [
        ["prefilter", "--output", "x"],
        ["prefilter", "--entries", "a", "--tds", "b", "--output", "x"],
        ["prefilter", "--entries", "a"],
        ["prefilter", "--entries", "a", "--output", "x", "--false-positive-rate", "0"],
        ["prefilter", "--entries", "a", "--output", "x", "--false-positive-rate", "1"],
        ["prefilter", "--entries", "a", "--output", "x", "--false-positive-rate", "-0.1"],
        ["prefilter", "--entries", "a", "--output", "x", "--false-positive-rate", "nan"],
        ["prefilter", "--entries", "a", "--output", "x", "--false-positive-rate", "often"],
        ["prefilter", "--entries", "a", "--output", "x", "--seed", "4294967296"],
        ["prefilter", "--entries", "a", "--output", "x", "--seed", "-1"],
    ])
    func usageErrors(arguments: [String]) throws {
        let result = try CommandRunner.run(arguments)
        #expect(result.status == 2)
        #expect(result.standardError.contains("trackerless: "))
    }

    @Test("--help explains the files")
    func help() throws {
        let result = try CommandRunner.run(["prefilter", "--help"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("prefilter.json"))
        #expect(result.standardOutput.contains("service-config.json"))
    }

    @Test("A missing entries file is named")
    func missingFile() throws {
        let result = try CommandRunner.run(["prefilter", "--entries", "/nonexistent/entries.txt", "--output", "/tmp/never"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("/nonexistent/entries.txt"))
    }
}

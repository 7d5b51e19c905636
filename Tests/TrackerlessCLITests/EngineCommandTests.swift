import Foundation
import Testing

/// `decide` on the rule engine, `compile` and `bench`: the compiled file answers as the lists it
/// came from, bad files are refused with a message, and bench reports figures.
@Suite("trackerless compile, decide and bench", .enabled(if: CommandRunner.isAvailable, "the trackerless executable was not built next to the tests"))
struct EngineCommandTests {
    /// Blocking with a third-party condition, an exception, cookie blocking, hiding and a
    /// notification: every kind of answer `decide` prints.
    static let list = #"""
        [{"trigger":{"url-filter":"^https?://ads\\.example/","load-type":["third-party"]},"action":{"type":"block"}},
         {"trigger":{"url-filter":"^https?://ads\\.example/consent/"},"action":{"type":"ignore-previous-rules"}},
         {"trigger":{"url-filter":"^https?://pixel\\.example/","resource-type":["image"]},"action":{"type":"block-cookies"}},
         {"trigger":{"url-filter":".*","if-domain":["*news.example"]},"action":{"type":"css-display-none","selector":".ad"}},
         {"trigger":{"url-filter":"track","if-top-url":["^https://shop\\.example/"]},"action":{"type":"notify","notification":"tracked"}}]
        """#

    /// A second list, installed beside the first.
    static let secondList = #"""
        [{"trigger":{"url-filter":"\\.gif$","resource-type":["image"]},"action":{"type":"block"}}]
        """#

    /// Requests covering each rule, plus loads that are not checked at all.
    static let requests = """
        {"url":"https://ads.example/a.js","top":"https://shop.example/","type":"script"}
        {"url":"https://ads.example/a.js","top":"https://ads.example/","type":"script"}
        {"url":"https://ads.example/consent/cmp.js","top":"https://shop.example/","type":"script"}
        {"url":"https://pixel.example/p.gif","top":"https://www.news.example/","type":"image"}
        {"url":"https://cdn.example/track.js","top":"https://shop.example/cart","type":"script","frame":"https://shop.example/frame"}
        {"url":"https://cdn.example/x.png","top":"https://www.news.example/","type":"image","method":"POST"}
        {"url":"data:image/gif;base64,R0lGOD","top":"https://shop.example/","type":"image"}
        {"url":"not a url","top":"https://shop.example/","type":"script"}
        """

    /// A scratch directory with the two lists and their compiled engines.
    struct Files {
        let directory: URL
        var list: String { directory.appendingPathComponent("list.json").path }
        var secondList: String { directory.appendingPathComponent("second.json").path }
        var compiled: String { directory.appendingPathComponent("list.trackerless").path }
        var compiledBoth: String { directory.appendingPathComponent("both.trackerless").path }

        init() throws {
            directory = try CommandRunner.temporaryDirectory()
            try Data(EngineCommandTests.list.utf8).write(to: URL(fileURLWithPath: list))
            try Data(EngineCommandTests.secondList.utf8).write(to: URL(fileURLWithPath: secondList))
        }

        func compile() throws {
            let one = try CommandRunner.run(["compile", "--rules", list, "--output", compiled])
            #expect(one.status == 0, "\(one.standardError)")
            let both = try CommandRunner.run(["compile", "--rules", list, "--rules", secondList, "--output", compiledBoth])
            #expect(both.status == 0, "\(both.standardError)")
        }

        func remove() { try? FileManager.default.removeItem(at: directory) }

        /// `arguments` with the placeholders LIST, SECOND, COMPILED and MISSING replaced by paths.
        func substituted(_ arguments: [String]) -> [String] {
            arguments.map { argument in
                switch argument {
                case "LIST": list
                case "SECOND": secondList
                case "COMPILED": compiled
                case "MISSING": directory.appendingPathComponent("missing.json").path
                default: argument
                }
            }
        }
    }

    @Test("decide answers by the engine as by the reference evaluator, from JSON and from the compiled file")
    func decideAgrees() throws {
        let files = try Files()
        defer { files.remove() }
        try files.compile()
        let reference = try CommandRunner.run(["decide", "--rules", files.list, "--reference"], input: Self.requests)
        #expect(reference.status == 0, "\(reference.standardError)")
        #expect(reference.standardOutput.split(separator: "\n") == [
            #"{"blocked":true,"actions":[{"type":"block","list":0,"rule":0}]}"#,
            #"{"blocked":false,"actions":[]}"#,
            #"{"blocked":false,"actions":[]}"#,
            #"{"blocked":false,"actions":[{"type":"block-cookies","list":0,"rule":2},{"type":"css-display-none","selector":".ad","list":0,"rule":3}]}"#,
            #"{"blocked":false,"actions":[{"type":"notify","notification":"tracked","list":0,"rule":4}]}"#,
            #"{"blocked":false,"actions":[{"type":"css-display-none","selector":".ad","list":0,"rule":3}]}"#,
            #"{"blocked":false,"actions":[]}"#,
            #"{"blocked":false,"actions":[]}"#,
        ])
        for rules in [files.list, files.compiled] {
            let engine = try CommandRunner.run(["decide", "--rules", rules], input: Self.requests)
            #expect(engine.status == 0, "\(rules): \(engine.standardError)")
            #expect(engine.standardOutput == reference.standardOutput, "\(rules)")
        }
    }

    @Test("several lists: compiled together, compiled beside JSON, or all JSON, decide alike")
    func severalLists() throws {
        let files = try Files()
        defer { files.remove() }
        try files.compile()
        let reference = try CommandRunner.run(
            ["decide", "--rules", files.list, "--rules", files.secondList, "--reference"], input: Self.requests)
        #expect(reference.status == 0, "\(reference.standardError)")
        #expect(reference.standardOutput.split(separator: "\n")[3]
            == #"{"blocked":true,"actions":[{"type":"block-cookies","list":0,"rule":2},{"type":"css-display-none","selector":".ad","list":0,"rule":3},{"type":"block","list":1,"rule":0}]}"#)
        for rules in [[files.list, files.secondList], [files.compiledBoth], [files.compiled, files.secondList]] {
            let engine = try CommandRunner.run(["decide"] + rules.flatMap { ["--rules", $0] }, input: Self.requests)
            #expect(engine.status == 0, "\(rules): \(engine.standardError)")
            #expect(engine.standardOutput == reference.standardOutput, "\(rules)")
        }
    }

    @Test("compile writes a summary and refuses an invalid list with WebKit's message, leaving no file")
    func compileSummaryAndInvalidList() throws {
        let files = try Files()
        defer { files.remove() }
        let result = try CommandRunner.run(["compile", "--rules", files.list, "--output", files.compiled])
        #expect(result.status == 0)
        #expect(result.standardError.contains("5 rules in 1 list(s)"))
        #expect(result.standardError.contains("bytes"))
        #expect(result.standardError.contains(" ms"))

        let bad = files.directory.appendingPathComponent("bad.json")
        try Data(#"[{"trigger":{"url-filter":"a|b"},"action":{"type":"block"}}]"#.utf8).write(to: bad)
        let output = files.directory.appendingPathComponent("bad.trackerless")
        let refused = try CommandRunner.run(["compile", "--rules", bad.path, "--output", output.path])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("bad.json"))
        #expect(refused.standardError.contains("rule 0: Invalid or unsupported regular expression."))
        #expect(!FileManager.default.fileExists(atPath: output.path))

        // A refused compile leaves the previous file as it was, and no temporary file.
        let before = try Data(contentsOf: URL(fileURLWithPath: files.compiled))
        let kept = try CommandRunner.run(["compile", "--rules", bad.path, "--output", files.compiled])
        #expect(kept.status == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: files.compiled)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: files.directory.path).sorted()
            == ["bad.json", "list.json", "list.trackerless", "second.json"])
    }

    @Test("compile into a missing directory fails cleanly")
    func compileUnwritable() throws {
        let files = try Files()
        defer { files.remove() }
        let result = try CommandRunner.run(["compile", "--rules", files.list, "--output", "/nonexistent-directory/x.trackerless"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("/nonexistent-directory"))
    }

    /// Ways a compiled file goes bad, and the words that must appear in the refusal.
    enum Damage: String, CaseIterable, CustomTestStringConvertible {
        case truncated, flippedByte, otherVersion, trailingBytes

        var testDescription: String { rawValue }

        func apply(to bytes: inout [UInt8]) {
            switch self {
            case .truncated: bytes.removeLast(bytes.count / 2)
            case .flippedByte: bytes[bytes.count - 3] ^= 0x20
            case .otherVersion: bytes[8] = 0x7F  // the format version follows the 8-byte signature
            case .trailingBytes: bytes += [0, 1, 2]
            }
        }

        var expectedMessage: String {
            switch self {
            case .truncated: "truncated"
            case .flippedByte: "checksum mismatch"
            case .otherVersion: "format version 127"
            case .trailingBytes: "corrupt"
            }
        }
    }

    @Test("a damaged compiled file is refused with the reason and the hint to compile again", arguments: Damage.allCases)
    func damagedCompiledFile(damage: Damage) throws {
        let files = try Files()
        defer { files.remove() }
        try files.compile()
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: files.compiled)))
        damage.apply(to: &bytes)
        try Data(bytes).write(to: URL(fileURLWithPath: files.compiled))
        for arguments in [["decide", "--rules", files.compiled], ["bench", "--rules", files.compiled, "--requests", files.list]] {
            let result = try CommandRunner.run(arguments, input: Self.requests)
            #expect(result.status == 1, "\(arguments[0])")
            #expect(result.standardOutput.isEmpty)
            #expect(result.standardError.contains("list.trackerless: "), "\(result.standardError)")
            #expect(result.standardError.contains(damage.expectedMessage), "\(result.standardError)")
            #expect(result.standardError.contains("trackerless compile --rules"), "\(result.standardError)")
        }
    }

    /// The report line as a dictionary, or nil when it is not exactly one JSON object line.
    static func report(_ output: String) -> [String: Any]? {
        let lines = output.split(separator: "\n")
        guard lines.count == 1, let line = lines.first,
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        else { return nil }
        return object
    }

    static let reportKeys: Set<String> = [
        "requests", "passes", "page_cache", "decider", "median_ns", "p99_ns", "mean_ns", "min_ns", "timer_ns",
        "parse_ms", "compile_ms", "load_ms", "blocked", "memory_bytes", "lists", "rules",
    ]

    /// Bench's requests: a JSON array in adblock-rust's format (two placeholder pages) and the
    /// same as JSON lines in ours.
    static let benchArray = """
        [{"url":"https://ads.example/a.js","sourceUrl":"http://","type":"script"},
         {"url":"https://pixel.example/p.gif","sourceUrl":"https://www.news.example/","type":"image"},
         {"url":"https://cdn.example/x.gif","sourceUrl":"https://","type":"image"},
         {"url":"https://api.example/q","top":"https://shop.example/","type":"xhr"},
         {"url":"https://ads.example/f.html","top":"https://shop.example/","type":"subdocument","frame":"https://shop.example/"}]
        """
    static let benchLines = """
        {"url":"https://ads.example/a.js","top":"https://www.example.com/","type":"script"}
        {"url":"https://pixel.example/p.gif","top":"https://www.news.example/","type":"image"}

        {"url":"https://cdn.example/x.gif","top":"https://www.example.com/","type":"image"}
        {"url":"https://api.example/q","top":"https://shop.example/","type":"fetch"}
        {"url":"https://ads.example/f.html","top":"https://shop.example/","type":"child-document","frame":"https://shop.example/"}
        """

    @Test("bench prints one JSON line with the counts and sane timings", arguments: ["array", "lines"])
    func bench(format: String) throws {
        let files = try Files()
        defer { files.remove() }
        let requests = files.directory.appendingPathComponent("requests.json")
        try Data((format == "array" ? Self.benchArray : Self.benchLines).utf8).write(to: requests)
        let result = try CommandRunner.run(
            ["bench", "--rules", files.list, "--rules", files.secondList, "--requests", requests.path, "--passes", "3"])
        #expect(result.status == 0, "\(result.standardError)")
        let report = try #require(Self.report(result.standardOutput), "\(result.standardOutput)")
        #expect(Set(report.keys) == Self.reportKeys)
        #expect(report["requests"] as? Int == 5)
        #expect(report["passes"] as? Int == 3)
        #expect(report["page_cache"] as? Bool == true)
        #expect(report["decider"] as? String == "engine")
        // ads.example third-party (twice) and the two gifs of the second list.
        #expect(report["blocked"] as? Int == 4)
        #expect(report["lists"] as? Int == 2)
        #expect(report["rules"] as? Int == 6)
        let median = try #require(report["median_ns"] as? Double)
        let p99 = try #require(report["p99_ns"] as? Double)
        let minimum = try #require(report["min_ns"] as? Double)
        let mean = try #require(report["mean_ns"] as? Double)
        #expect(minimum > 0 && minimum <= median && median <= p99)
        #expect(mean >= minimum && mean <= p99 * 5)
        #expect(median < 1e9)
        #expect((report["timer_ns"] as? Double).map { $0 >= 0 && $0 < 1e6 } == true)
        #expect((report["parse_ms"] as? Double).map { $0 >= 0 } == true)
        #expect((report["compile_ms"] as? Double).map { $0 > 0 } == true)
        #expect(report["load_ms"] is NSNull)
        #expect((report["memory_bytes"] as? Int).map { $0 > 0 } == true)
    }

    @Test("bench on a compiled file reports its load time, and --no-page-cache and --reference say so")
    func benchVariants() throws {
        let files = try Files()
        defer { files.remove() }
        try files.compile()
        let requests = files.directory.appendingPathComponent("requests.jsonl")
        try Data(Self.benchLines.utf8).write(to: requests)

        let compiled = try CommandRunner.run(
            ["bench", "--rules", files.compiledBoth, "--requests", requests.path, "--passes", "1", "--no-page-cache"])
        #expect(compiled.status == 0, "\(compiled.standardError)")
        let report = try #require(Self.report(compiled.standardOutput), "\(compiled.standardOutput)")
        #expect(Set(report.keys) == Self.reportKeys)
        #expect(report["page_cache"] as? Bool == false)
        #expect(report["compile_ms"] is NSNull)
        #expect(report["parse_ms"] is NSNull)
        #expect((report["load_ms"] as? Double).map { $0 >= 0 } == true)
        #expect(report["rules"] is NSNull)
        #expect(report["blocked"] as? Int == 4)

        let reference = try CommandRunner.run(
            ["bench", "--rules", files.list, "--rules", files.secondList, "--requests", requests.path, "--passes", "1", "--reference"])
        #expect(reference.status == 0, "\(reference.standardError)")
        let referenceReport = try #require(Self.report(reference.standardOutput), "\(reference.standardOutput)")
        #expect(referenceReport["decider"] as? String == "reference")
        #expect(referenceReport["blocked"] as? Int == 4)
        #expect(referenceReport["memory_bytes"] is NSNull)
    }

    /// Bad request files, and where the error must point.
    static let badRequestFiles: [(name: String, contents: String, place: String)] = [
        ("unknown type", #"[{"url":"https://a.example/","top":"https://b.example/","type":"script"},{"url":"https://a.example/","type":"scripts"}]"#, #"[1].type: unknown resource type "scripts""#),
        ("missing url", #"[{"top":"https://b.example/","type":"script"}]"#, #"[0]: missing required member "url""#),
        ("not an object", #"[{"url":"https://a.example/","type":"image"}, 5]"#, "[1]"),
        ("broken array", #"[{"url":"https://a.example/","type":"image"}"#, "line 1, column"),
        ("bad line", "{\"url\":\"https://a.example/\",\"type\":\"image\"}\n{\"url\":\"https://a.example/\",\"type\"", "line 2, column"),
        ("wrong type on a line", "{\"url\":\"https://a.example/\",\"type\":\"image\"}\n\n{\"url\":7,\"type\":\"image\"}", "line 3: url: expected a string"),
        ("bad method", #"{"url":"https://a.example/","type":"image","method":"FETCH"}"#, #"line 1: method: unknown method "FETCH""#),
        ("empty", "  \n", "no requests"),
        ("empty array", "[]", "no requests"),
    ]

    @Test("a bad requests file names the element or line", arguments: badRequestFiles.indices)
    func badRequests(index: Int) throws {
        let bad = Self.badRequestFiles[index]
        let files = try Files()
        defer { files.remove() }
        let requests = files.directory.appendingPathComponent("requests.json")
        try Data(bad.contents.utf8).write(to: requests)
        let result = try CommandRunner.run(["bench", "--rules", files.list, "--requests", requests.path, "--passes", "1"])
        #expect(result.status == 1, "\(bad.name)")
        #expect(result.standardOutput.isEmpty, "\(bad.name)")
        #expect(result.standardError.contains("requests.json: "), "\(bad.name): \(result.standardError)")
        #expect(result.standardError.contains(bad.place), "\(bad.name): \(result.standardError)")
    }

    @Test("missing or invalid rule files are bad input (exit 1) naming the file", arguments: [
        ["decide", "--rules", "MISSING"], ["compile", "--rules", "MISSING", "--output", "COMPILED"],
        ["bench", "--rules", "MISSING", "--requests", "LIST"], ["bench", "--rules", "LIST", "--requests", "MISSING"],
    ])
    func missingFiles(arguments: [String]) throws {
        let files = try Files()
        defer { files.remove() }
        let result = try CommandRunner.run(files.substituted(arguments))
        #expect(result.status == 1)
        #expect(result.standardError.contains("missing.json"))
    }

    @Test("usage errors exit with 2 and say what is wrong", arguments: [
        ["compile"], ["compile", "--rules", "LIST"], ["compile", "--output", "COMPILED"],
        ["compile", "--rules", "LIST", "--output", "COMPILED", "--output", "COMPILED"],
        ["compile", "--rules", "COMPILED", "--output", "SECOND"], ["compile", "extra", "--rules", "LIST", "--output", "COMPILED"],
        ["bench"], ["bench", "--rules", "LIST"], ["bench", "--requests", "LIST"],
        ["bench", "--rules", "LIST", "--requests", "LIST", "--passes", "0"],
        ["bench", "--rules", "LIST", "--requests", "LIST", "--passes", "many"],
        ["bench", "--rules", "LIST", "--requests", "LIST", "--top", "http://"],
        ["bench", "--rules", "COMPILED", "--requests", "LIST", "--reference"],
        ["decide", "--rules", "COMPILED", "--reference"], ["decide", "--rules", "LIST", "--bogus"],
    ])
    func usageErrors(arguments: [String]) throws {
        let files = try Files()
        defer { files.remove() }
        try files.compile()
        let result = try CommandRunner.run(files.substituted(arguments))
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError.contains("trackerless: "))
        #expect(result.standardOutput.isEmpty)
    }

    @Test("compile and bench have --help", arguments: ["compile", "bench"])
    func help(command: String) throws {
        let result = try CommandRunner.run([command, "--help"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("Usage: trackerless \(command)"))
    }

    /// `<package root>/../shared/data/requests/matching-test-requests.json`.
    static let sharedRequests: URL = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/data/requests/matching-test-requests.json")

    static var sharedDataShouldRun: Bool {
        ProcessInfo.processInfo.environment["TRACKERLESS_REQUIRE_SHARED_DATA"] == "1"
            || FileManager.default.fileExists(atPath: sharedRequests.path)
    }

    @Test(
        "bench reads adblock-rust's 8,276 requests",
        .enabled(if: sharedDataShouldRun,
                 "shared data not found beside the package (../shared/data); set TRACKERLESS_REQUIRE_SHARED_DATA=1 to fail instead"))
    func benchSharedRequests() throws {
        let files = try Files()
        defer { files.remove() }
        let rules = files.directory.appendingPathComponent("sample.json").path
        let built = try CommandRunner.run(["rules", "--output", rules])
        #expect(built.status == 0, "\(built.standardError)")
        let result = try CommandRunner.run(["bench", "--rules", rules, "--requests", Self.sharedRequests.path, "--passes", "1"])
        #expect(result.status == 0, "\(result.standardError)")
        let report = try #require(Self.report(result.standardOutput), "\(result.standardOutput)")
        #expect(report["requests"] as? Int == 8276)
        #expect(Set(report.keys) == Self.reportKeys)
    }
}

import Foundation
import Testing
import TrackerlessCore

/// `trackerless rules --sources` writes, beside each list, the input each rule came from, and
/// `decide --explain` prints, for each applied action, its list's file, the rule's JSON and that
/// source.
@Suite("rules --sources and decide --explain", .enabled(if: CommandRunner.isAvailable, "the trackerless executable was not built next to the tests"))
struct RuleSourcesCommandTests {
    /// A tracker with a default block, a rule, and a Click-to-Load rule, which gets a list of its own.
    static let tds = #"""
        {"trackers": {"video.example": {"domain": "video.example", "owner": {"name": "Video Co"}, "default": "block",
           "rules": [{"rule": "video\\.example/embed/", "action": "block-ctl-video"}, {"rule": "video\\.example/ok", "action": "ignore"}]}},
         "entities": {"Video Co": {"domains": ["video.example"]}}, "domains": {"video.example": "Video Co"}}
        """#

    static let requests = """
        {"url":"https://video.example/pixel.gif","top":"https://news.example/","type":"image"}
        {"url":"https://video.example/ok.js","top":"https://news.example/","type":"script"}
        """

    @Test("beside a FILE and in a set: one source per rule; decide --explain names the tracker of a block", arguments: ["rules.json", "set/"])
    func sourcesAndExplain(output: String) throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tds = try Self.writeBlocklist(in: directory)
        let target = directory.appendingPathComponent(output).path + (output.hasSuffix("/") ? "/" : "")
        let built = try CommandRunner.run(["rules", "--tds", tds, "--output", target, "--sources"])
        #expect(built.status == 0, "\(built.standardError)")
        let listDirectory = output.hasSuffix("/") ? target : directory.path + "/"
        for stem in ["rules", "rules.block-ctl-video"] {
            let list = try Self.array(atPath: listDirectory + stem + ".json")
            let sources = try Self.array(atPath: listDirectory + stem + ".sources.json")
            #expect(list.count == sources.count && !sources.isEmpty, "\(stem): \(list.count) rules, \(sources.count) sources")
        }
        let sourcesText = try String(contentsOfFile: listDirectory + "rules.sources.json", encoding: .utf8)
        #expect(sourcesText.contains(
            #"{"kind":"tracker","name":"video.example","path":"trackers[\"video.example\"].default","tracker":"video.example","part":"default"}"#),
            "\(sourcesText)")
        #expect(sourcesText.contains(
            #""path":"trackers[\"video.example\"].rules[1]","tracker":"video.example","part":"rule","index":1,"rule":"video\\.example/ok"}"#),
            "\(sourcesText)")
        #expect(sourcesText.contains(#""kind":"configuration""#), "\(sourcesText)")

        let list = listDirectory + "rules.json"
        let explained = try CommandRunner.run(["decide", "--rules", list, "--explain"], input: Self.requests)
        #expect(explained.status == 0, "\(explained.standardError)")
        let lines = explained.standardOutput.split(separator: "\n").map(String.init)
        try #require(lines.count == 2, "\(explained.standardOutput)")
        #expect(lines[0].hasPrefix(#"{"blocked":true,"actions":[{"type":"block","list":0,"rule":"#), "\(lines[0])")
        #expect(lines[0].contains(#""file":"\#(list)""#), "\(lines[0])")
        #expect(lines[0].contains(#""ruleJSON":{"trigger":{"url-filter":"#) && lines[0].contains(#""action":{"type":"block"}}"#), "\(lines[0])")
        #expect(lines[0].contains(#""source":{"kind":"tracker","name":"video.example","path":"trackers[\"video.example\"].default""#), "\(lines[0])")
        #expect(lines[1] == #"{"blocked":false,"actions":[]}"#, "\(lines[1])")
        // Without --explain: list and rule only.
        let plain = try CommandRunner.run(["decide", "--rules", list], input: Self.requests)
        #expect(!plain.standardOutput.contains("ruleJSON") && plain.standardOutput.contains(#""rule":"#), "\(plain.standardOutput)")
    }

    @Test("compile keeps the lists' sources beside the engine, tied to its bytes; decide --engine --explain names them")
    func compiledEngineSources() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tds = try Self.writeBlocklist(in: directory)
        let list = directory.appendingPathComponent("rules.json").path
        let built = try CommandRunner.run(["rules", "--tds", tds, "--output", list, "--sources"])
        #expect(built.status == 0, "\(built.standardError)")
        let engine = directory.appendingPathComponent("engine.tle").path
        let compiled = try CommandRunner.run(["compile", "--rules", list, "--output", engine])
        #expect(compiled.status == 0, "\(compiled.standardError)")
        #expect(FileManager.default.fileExists(atPath: engine + ".sources.json"))

        let fromEngine = try CommandRunner.run(["decide", "--rules", engine, "--explain"], input: Self.requests)
        let fromList = try CommandRunner.run(["decide", "--rules", list, "--explain"], input: Self.requests)
        #expect(fromEngine.status == 0, "\(fromEngine.standardError)")
        let engineLine = fromEngine.standardOutput.split(separator: "\n").first.map(String.init) ?? ""
        #expect(engineLine.contains(#""source":{"kind":"tracker","name":"video.example","path":"trackers[\"video.example\"].default""#),
                "\(engineLine)")
        // The same source as the JSON list's for the same rule.
        let listLine = fromList.standardOutput.split(separator: "\n").first.map(String.init) ?? ""
        func source(_ line: String) -> Substring? { line.range(of: #""source":"#).map { line[$0.lowerBound...] } }
        #expect(source(engineLine) != nil && source(engineLine) == source(listLine), "\(engineLine)\n\(listLine)")

        // A sources file from another compile is refused, not believed.
        let other = directory.appendingPathComponent("other.json").path
        try Data(#"[{"trigger":{"url-filter":"x"},"action":{"type":"block"}}]"#.utf8).write(to: URL(fileURLWithPath: other))
        let otherEngine = directory.appendingPathComponent("other.tle").path
        #expect(try CommandRunner.run(["compile", "--rules", other, "--output", otherEngine]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: otherEngine + ".sources.json"))
        try FileManager.default.copyItem(atPath: engine + ".sources.json", toPath: otherEngine + ".sources.json")
        let refused = try CommandRunner.run(["decide", "--rules", otherEngine, "--explain"], input: Self.requests)
        #expect(refused.status != 0 && refused.standardError.contains("engineSHA256 differs"), "\(refused.standardError)")
        // Compiling lists without sources removes the file a former compile left.
        #expect(try CommandRunner.run(["compile", "--rules", other, "--output", otherEngine]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: otherEngine + ".sources.json"))
    }

    @Test("without --sources: the same lists, byte for byte, and no sources beside them", arguments: ["rules.json", "set/"])
    func listsWithoutSources(output: String) throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tds = try Self.writeBlocklist(in: directory)
        var files: [[String: [UInt8]]] = []
        for (run, arguments) in [["--sources"], []].enumerated() {
            let runDirectory = directory.appendingPathComponent("run\(run)").path + "/"
            try FileManager.default.createDirectory(atPath: runDirectory, withIntermediateDirectories: true)
            let built = try CommandRunner.run(["rules", "--tds", tds, "--output", runDirectory + output] + arguments)
            #expect(built.status == 0, "\(built.standardError)")
            let listDirectory = output.hasSuffix("/") ? runDirectory + output : runDirectory
            var contents: [String: [UInt8]] = [:]
            for name in try FileManager.default.subpathsOfDirectory(atPath: listDirectory) where name.hasSuffix(".json") && !name.hasSuffix("tds.json") {
                contents[name] = try FileIO.read(path: listDirectory + name)
            }
            files.append(contents)
        }
        let lists = files[0].filter { !$0.key.hasSuffix(".sources.json") }
        #expect(files[0].keys.contains { $0.hasSuffix("rules.sources.json") } && lists.count >= 2, "\(files[0].keys.sorted())")
        #expect(files[1] == lists, "\(files[1].keys.sorted()) against \(lists.keys.sorted())")
    }

    @Test("--sources without --output is a usage error")
    func needsOutput() throws {
        let result = try CommandRunner.run(["rules", "--sources"])
        #expect(result.status == 2 && result.standardError.contains("--sources needs --output"), "\(result.standardError)")
    }

    /// ``tds`` written as `tds.json` in `directory`; its path.
    static func writeBlocklist(in directory: URL) throws -> String {
        let tds = directory.appendingPathComponent("tds.json").path
        try Data(Self.tds.utf8).write(to: URL(fileURLWithPath: tds))
        return tds
    }

    /// The elements of the JSON array in the file at `path`.
    static func array(atPath path: String) throws -> [JSONValue] {
        let value = try JSONReader.read(try FileIO.read(path: path)) { (reader) throws(JSONReadError) -> JSONValue in try reader.readValue() }
        guard case .array(let elements) = value else {
            Issue.record("\(path) is not a JSON array")
            return []
        }
        return elements
    }
}

import Foundation
import Testing
import TrackerlessTestSupport

/// `trackerless scripts --swift-output FILE` and `--options FILE`, what the build plugin runs.
@Suite("trackerless scripts --swift-output and --options", .enabled(if: CommandRunner.isAvailable, "the trackerless executable was not built next to the tests"))
struct ScriptsSwiftOutputTests {
    /// A blocklist with what a Swift string literal must escape: CR LF line ends, a tab, a line
    /// separator (U+2028), a backslash before a parenthesis, quotes and `#`.
    static let trickyTrackerData = "{\r\n\t\"readme\": \"CR LF ends, \u{2028} a line separator, \\\\(x) \\\"\\\"\\\" #\\\"\",\r\n"
        + #"""
          "trackers": {"tracker.example": {"domain": "tracker.example", "owner": {"name": "T", "displayName": "T"},
            "default": "block", "rules": [{"rule": "tracker\\.example/tricky\\.js", "surrogate": "tricky.js"}]}},
          "entities": {"T": {"domains": ["tracker.example"], "displayName": "T"}},
          "domains": {"tracker.example": "T"}
        }
        """#

    /// A surrogate whose source holds `"""`, `\(` and `#"`, which end up in blocking.js.
    static let trickySurrogate = #"""
        // tracker.example/tricky.js application/javascript
        (function () { 'use strict'; var s = '"""' + "\\(x)" + '#"' + "\u2028"; return s; })();

        """#

    @Test func swiftOutputCompilesToExactlyTheFilesWritten() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tds = directory.appendingPathComponent("tds.json")
        try Data(Self.trickyTrackerData.utf8).write(to: tds)
        let surrogates = directory.appendingPathComponent("Surrogates")
        try FileManager.default.createDirectory(at: surrogates, withIntermediateDirectories: true)
        try Data(Self.trickySurrogate.utf8).write(to: surrogates.appendingPathComponent("tricky.js"))
        let output = directory.appendingPathComponent("scripts")
        let swiftFile = directory.appendingPathComponent("TrackerlessGenerated.swift")

        let result = try CommandRunner.run([
            "scripts", "--tds", tds.path, "--surrogates", surrogates.path,
            "--output", output.path, "--swift-output", swiftFile.path,
        ])
        try #require(result.status == 0, "\(result.standardError)")
        let source = try String(contentsOf: swiftFile, encoding: .utf8)
        for member in ["blockingScript", "inferenceScript", "ruleList", "setIdentity", "surrogates", "manifest", "trackerData"] {
            #expect(source.contains("    static let \(member): String = "), "no member \(member)")
        }
        #expect(source.contains("    static let ruleLists: [String] = [ruleList]\n"))
        #expect(source.contains("    static let privacyConfiguration: String? = nil\n"))
        let blockingScript = try String(contentsOf: output.appendingPathComponent("blocking.js"), encoding: .utf8)
        #expect(blockingScript.contains(#"'"""'"#), "the tricky surrogate is not in blocking.js")

        // Compiled, every member holds exactly the bytes of its file.
        guard let swiftc = ChildProcess.executable(named: "swiftc") else { return }
        let main = directory.appendingPathComponent("main.swift")
        try Data(#"""
            import Foundation
            let directory = CommandLine.arguments[1]
            let members = [
                ("blocking.js", TrackerlessGenerated.blockingScript), ("inference.js", TrackerlessGenerated.inferenceScript),
                ("rules.json", TrackerlessGenerated.ruleList), ("surrogates.txt", TrackerlessGenerated.surrogates),
                ("manifest.json", TrackerlessGenerated.manifest), ("tds.json", TrackerlessGenerated.trackerData),
            ]
            for (name, value) in members {
                _ = FileManager.default.createFile(atPath: directory + "/" + name, contents: Data(value.utf8))
            }
            print(TrackerlessGenerated.ruleLists.count, TrackerlessGenerated.privacyConfiguration == nil, TrackerlessGenerated.setIdentity,
                TrackerlessGenerated.ruleListIdentifiers.joined(separator: ","), TrackerlessGenerated.cookieListIdentifiers.count)
            """#.utf8).write(to: main)
        let program = directory.appendingPathComponent("embedded")
        let compiled = try ChildProcess.run(swiftc, ["-Onone", "-o", program.path, swiftFile.path, main.path], logs: directory)
        try #require(compiled.status == 0, "the generated source does not compile:\n\(compiled.output)")
        let written = directory.appendingPathComponent("written")
        try FileManager.default.createDirectory(at: written, withIntermediateDirectories: true)
        let run = try ChildProcess.run(program, [written.path], logs: directory)
        try #require(run.status == 0, "\(run.output)")
        #expect(run.output.hasPrefix("1 true "), "\(run.output)")
        // The set identity and each list's identifier, as the manifest names them.
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("manifest.json"))) as? [String: Any])
        let rulesEntry = (manifest["files"] as? [String: [String: Any]])?["rules.json"]
        let printed = run.output.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ").map(String.init)
        #expect(printed.count == 5, "\(run.output)")
        #expect(printed.dropFirst(2).first == manifest["setIdentity"] as? String, "\(run.output)")
        #expect(printed.dropFirst(3).first == rulesEntry?["identifier"] as? String, "\(run.output)")
        for (name, original) in [
            ("blocking.js", output), ("inference.js", output), ("rules.json", output), ("surrogates.txt", output),
            ("manifest.json", output), ("tds.json", directory),
        ] {
            let embedded = try Data(contentsOf: written.appendingPathComponent(name))
            let file = try Data(contentsOf: original.appendingPathComponent(name))
            #expect(embedded == file, "TrackerlessGenerated's \(name) differs from the file (\(embedded.count) and \(file.count) bytes)")
        }
    }

    @Test func optionsFileSetsTheOptionsAndLaterArgumentsWin() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let options = directory.appendingPathComponent("trackerless.json")
        try Data(#"{"bridge": "android", "handler": "TrackerlessHost", "batchInterval": 250, "blockInScript": true, "debug": false}"#.utf8)
            .write(to: options)

        let fromFile = directory.appendingPathComponent("from-file")
        let first = try CommandRunner.run(["scripts", "--options", options.path, "--output", fromFile.path])
        try #require(first.status == 0, "\(first.standardError)")
        let manifest = try String(contentsOf: fromFile.appendingPathComponent("manifest.json"), encoding: .utf8)
        for setting in [#""bridge": "android""#, #""handler": "TrackerlessHost""#, #""batchInterval": 250"#, #""blockInScript": true"#, #""debug": false"#] {
            #expect(manifest.contains(setting), "manifest.json lacks \(setting):\n\(manifest)")
        }

        let overridden = directory.appendingPathComponent("overridden")
        let second = try CommandRunner.run(["scripts", "--options=\(options.path)", "--bridge", "webview2", "--output", overridden.path])
        try #require(second.status == 0, "\(second.standardError)")
        let secondManifest = try String(contentsOf: overridden.appendingPathComponent("manifest.json"), encoding: .utf8)
        #expect(secondManifest.contains(#""bridge": "webview2""#))
        #expect(secondManifest.contains(#""handler": "TrackerlessHost""#))
    }

    @Test(arguments: [
        (#"{"bridg": "android"}"#, #"unknown option "bridg"; the options are bridge, handler, batchInterval, blockInScript, blockKeepalive, debug"#),
        (#"{"bridge": "carrier-pigeon"}"#, #""bridge" must be one of webkit, android, webview2, none, not "carrier-pigeon""#),
        (#"{"handler": 7}"#, #""handler" must be a string"#),
        (#"{"batchInterval": 2.5}"#, #""batchInterval" must be a whole number"#),
        (#"{"blockInScript": 1}"#, #""blockInScript" must be true or false"#),
        (#"["webkit"]"#, "must be a JSON object of options"),
        (#"{"bridge": "webkit""#, "line 1"),
    ])
    func badOptionsFileIsRefusedNamingTheFileAndKey(text: String, message: String) throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let options = directory.appendingPathComponent("trackerless.json")
        try Data(text.utf8).write(to: options)
        let output = directory.appendingPathComponent("scripts")
        let result = try CommandRunner.run(["scripts", "--options", options.path, "--output", output.path])
        #expect(result.status == 1)
        #expect(result.standardError.contains("\(options.path): "), "\(result.standardError)")
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: output.path), "an output was written")
    }
}

import Foundation
import Testing

/// `trackerless scripts`: the files it writes, the manifest, the secret, and its answers to bad input.
@Suite("trackerless scripts", .enabled(if: CommandRunner.isAvailable, "the trackerless executable was not built next to the tests"))
struct ScriptsCommandTests {
    static let files = ["blocking.js", "cookies.json", "inference.js", "manifest.json", "rules.json", "surrogates.txt"]
    static let marker = "TRACKERLESS-RENDER-SECRET-MARKER"

    static func json(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func text(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    /// Runs `scripts` with `arguments` into a new directory `out` of a temporary directory.
    static func render(_ arguments: [String] = [], in directory: URL) throws -> (CommandRunner.Result, String) {
        let output = directory.appendingPathComponent("out").path
        return (try CommandRunner.run(["scripts"] + arguments + ["--output", output]), output)
    }

    @Test("Writes the scripts, rule list, surrogates index and manifest; the scripts carry the marker")
    func writesFiles() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (result, output) = try Self.render(in: directory)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: output).sorted() == Self.files)
        // Nothing left beside the output but its generation, which the link names.
        let beside = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(beside.count == 2 && beside[0].hasPrefix(".out.") && beside[1] == "out", "\(beside)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: output) == beside[0])
        let blocking = try Self.text(output + "/blocking.js")
        #expect(blocking.contains("\"\(Self.marker)\""))
        #expect(try Self.text(output + "/inference.js").contains("\"\(Self.marker)\""))
        let rules = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output + "/rules.json"))) as? [Any])
        #expect(!rules.isEmpty)
        #expect(try Self.text(output + "/surrogates.txt").contains("google-analytics.com/analytics.js application/javascript\n"))

        let manifest = try Self.json(output + "/manifest.json")
        #expect(manifest["format"] as? Int == 2)
        #expect(manifest["trackerless"] == nil, "format 1's version member is gone")
        #expect((manifest["setIdentity"] as? String)?.count == 64)
        let secret = try #require(manifest["secret"] as? [String: Any])
        #expect(secret["scheme"] as? String == "marker")
        #expect(secret["marker"] as? String == Self.marker)
        let settings = try #require(manifest["settings"] as? [String: Any])
        #expect(settings["bridge"] as? String == "webkit")
        #expect(settings["handler"] as? String == "trackerless")
        let files = try #require(manifest["files"] as? [String: [String: Any]])
        #expect(files.keys.sorted() == Self.files.filter { $0 != "manifest.json" })
        let blockingEntry = try #require(files["blocking.js"])
        #expect(blockingEntry["bytes"] as? Int == blocking.utf8.count)
        // Rendered with the marker, the file's hash is the content hash.
        #expect(blockingEntry["contentHash"] as? String == blockingEntry["sha256"] as? String)
        let sizes = try #require(blockingEntry["sizes"] as? [String: Int])
        #expect(sizes.values.reduce(0, +) == blocking.utf8.count)
        #expect(files["rules.json"]?["rules"] as? Int == rules.count)
        // Each list file with the rule list identifier the runtime compiles it under; no script has one.
        #expect((files["rules.json"]?["identifier"] as? String)?.hasPrefix("trackerless-blocking-0-") == true)
        #expect((files["cookies.json"]?["identifier"] as? String)?.hasPrefix("trackerless-cookies-0-") == true)
        #expect(blockingEntry["identifier"] == nil)
        #expect((files["surrogates.txt"]?["surrogates"] as? Int ?? 0) > 0)
        #expect((manifest["inputs"] as? [String: Any])?["templates"] as? String == "bundled")
        // The bundled sample's ads.example rule names noop.js, a bundled surrogate: a first run warns of nothing.
        let warnings = try #require(manifest["warnings"] as? [String])
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(!result.standardError.contains("warning:"), "\(result.standardError)")
    }

    @Test("Same inputs, same bytes")
    func deterministic() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = directory.appendingPathComponent("first").path
        let second = directory.appendingPathComponent("second").path
        #expect(try CommandRunner.run(["scripts", "--output", first]).status == 0)
        #expect(try CommandRunner.run(["scripts", "--output", second]).status == 0)
        for file in Self.files {
            #expect(FileManager.default.contents(atPath: first + "/" + file) == FileManager.default.contents(atPath: second + "/" + file), "\(file)")
        }
    }

    @Test("--secret puts that secret in both scripts; the content hash stays the marker render's")
    func fixedSecret() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (plain, plainOutput) = try Self.render(in: directory)
        #expect(plain.status == 0)
        let secretOutput = directory.appendingPathComponent("secret").path
        let secret = "0123456789abcdef0123456789ABCDEF"
        let result = try CommandRunner.run(["scripts", "--secret", secret, "--output", secretOutput])
        #expect(result.status == 0, "\(result.standardError)")
        for file in ["blocking.js", "inference.js"] {
            let text = try Self.text(secretOutput + "/" + file)
            #expect(text.contains("\"\(secret.lowercased())\""))
            #expect(!text.contains(Self.marker))
            #expect(text.replacingOccurrences(of: secret.lowercased(), with: Self.marker) == (try Self.text(plainOutput + "/" + file)))
        }
        let manifest = try Self.json(secretOutput + "/manifest.json")
        #expect((manifest["secret"] as? [String: Any])?["scheme"] as? String == "fixed")
        #expect(!(try Self.text(secretOutput + "/manifest.json")).contains(secret.lowercased()))
        let files = try #require(manifest["files"] as? [String: [String: Any]])
        let plainFiles = try #require(try Self.json(plainOutput + "/manifest.json")["files"] as? [String: [String: Any]])
        #expect(files["blocking.js"]?["contentHash"] as? String == plainFiles["blocking.js"]?["contentHash"] as? String)
        #expect(files["blocking.js"]?["sha256"] as? String != plainFiles["blocking.js"]?["sha256"] as? String)

        #expect(try CommandRunner.run(["scripts", "--secret", "abc", "--output", secretOutput]).status == 2)
    }

    @Test("--bridge, --handler, --block-in-script and --batch-interval reach the settings")
    func settings() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (result, output) = try Self.render(
            ["--bridge", "android", "--handler", "TrackerlessBridge", "--block-in-script", "--batch-interval", "250"], in: directory)
        #expect(result.status == 0, "\(result.standardError)")
        let settings = try #require(try Self.json(output + "/manifest.json")["settings"] as? [String: Any])
        #expect(settings["bridge"] as? String == "android")
        #expect(settings["handler"] as? String == "TrackerlessBridge")
        #expect(settings["blockInScript"] as? Bool == true)
        #expect(settings["batchInterval"] as? Int == 250)
        let inference = try Self.text(output + "/inference.js")
        #expect(inference.contains(#""handler":"TrackerlessBridge","bridge":"android","batchInterval":250,"blockInScript":true"#))

        let bad = try CommandRunner.run(["scripts", "--bridge", "carrier-pigeon", "--output", output])
        #expect(bad.status == 2)
        #expect(bad.standardError.contains("--bridge must be webkit, android, webview2 or none"))
        #expect(try CommandRunner.run(["scripts", "--batch-interval", "1", "--output", output]).status == 2)
    }

    @Test("A surrogates directory: its files are embedded, bad ones reported with file and line")
    func surrogatesDirectory() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let surrogates = directory.appendingPathComponent("surrogates")
        try FileManager.default.createDirectory(at: surrogates, withIntermediateDirectories: true)
        try Data("// ads.example/noop.js application/javascript\n(function () { window.tagged = true; })();\n".utf8)
            .write(to: surrogates.appendingPathComponent("noop.js"))
        try Data("(function () {})();\n".utf8).write(to: surrogates.appendingPathComponent("headless.js"))
        let (result, output) = try Self.render(["--surrogates", surrogates.path], in: directory)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("headless.js: line 1: expected a first line"))
        // The directory has the noop.js the sample's rule names, so nothing warns of it.
        #expect(!result.standardError.contains("rules[1].surrogate"))
        #expect(try Self.text(output + "/blocking.js").contains("\"noop.js\": function () {\n(function () { window.tagged = true; })();\n}"))
        #expect(try Self.text(output + "/surrogates.txt")
            == "# Surrogates: scripts served in place of blocked tracker scripts (written by trackerless).\n\n"
            + "ads.example/noop.js application/javascript\n(function () { window.tagged = true; })();\n")
    }

    @Test("A surrogates.txt file, a privacy configuration and an allowlist are read, and their hashes go in the manifest")
    func otherInputs() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let index = directory.appendingPathComponent("surrogates.txt")
        try Data("# comment\nads.example/tag.js application/javascript\n(function () {})();\n\nbroken header line here\nx\n".utf8).write(to: index)
        let config = directory.appendingPathComponent("config.json")
        try Data(#"{"features": {"contentBlocking": {"state": "enabled", "exceptions": [{"domain": "shop.example"}]}}, "unprotectedTemporary": []}"#.utf8)
            .write(to: config)
        let allowlist = directory.appendingPathComponent("allowlist.json")
        try Data(#"["bank.example"]"#.utf8).write(to: allowlist)
        let (result, output) = try Self.render(
            ["--surrogates", index.path, "--privacy-config", config.path, "--allowlist", allowlist.path], in: directory)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains(index.path + ": line 5: expected"))
        let blocking = try Self.text(output + "/blocking.js")
        #expect(blocking.contains("\"tag.js\": function () {\n(function () {})();\n}"))
        #expect(blocking.contains("bank.example") && blocking.contains("shop.example"))
        let inputs = try #require(try Self.json(output + "/manifest.json")["inputs"] as? [String: Any])
        #expect((inputs["privacyConfig"] as? [String: Any])?["path"] as? String == config.path)
        #expect(((inputs["allowlist"] as? [String: Any])?["sha256"] as? String)?.count == 64)
        #expect((inputs["surrogates"] as? [String: Any])?["path"] as? String == index.path)
    }

    @Test("--templates reads a templates directory; a template error names the file and line")
    func templatesDirectory() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let templates = directory.appendingPathComponent("templates")
        try FileManager.default.createDirectory(at: templates.appendingPathComponent("bridges"), withIntermediateDirectories: true)
        try Data("(function () {\n  var d = $TRACKER_DATA$, s = $SURROGATES$, c = $SETTINGS$, k = $SECRET$, b = $BRIDGE$, q = $MESSAGE_QUEUE$;\n})();\n".utf8)
            .write(to: templates.appendingPathComponent("blocking.js"))
        try Data("(function () {\n  var c = $SETTINGS$, k = $SECRET$, b = $BRIDGE$, q = $MESSAGE_QUEUE$;\n  // inference\n})();\n".utf8)
            .write(to: templates.appendingPathComponent("inference.js"))
        try Data("function (settings, captured) {\n  return function post() { return false; };\n}\n".utf8)
            .write(to: templates.appendingPathComponent("bridges/webkit.js"))
        let (result, output) = try Self.render(["--templates", templates.path], in: directory)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try Self.text(output + "/inference.js").contains("// inference"))
        // No parts/message-queue.js in the directory: the SDK's queue takes $MESSAGE_QUEUE$.
        #expect(try Self.text(output + "/inference.js").contains("function (settings, captured, secret, post, options) {"))
        #expect((try Self.json(output + "/manifest.json")["inputs"] as? [String: Any])?["templates"] as? String == templates.path)

        try Data("(function () {\n  var c = $SETTINGS$, k = $SECRET$, b = $BRIDGE$, q = $MESSAGE_QUEUE$;\n  var x = $PAGE$;\n})();\n".utf8)
            .write(to: templates.appendingPathComponent("inference.js"))
        let bad = try CommandRunner.run(["scripts", "--templates", templates.path, "--output", directory.appendingPathComponent("bad").path])
        #expect(bad.status == 1)
        #expect(bad.standardError.contains(templates.path + "/inference.js: line 3: unknown placeholder $PAGE$"))
        // The renderer's words, as the build reports them (not prefixed with the input's name).
        #expect(bad.standardError.hasPrefix("trackerless: " + templates.path + "/inference.js: line 3"), "\(bad.standardError)")
        let noBridge = try CommandRunner.run([
            "scripts", "--templates", templates.path, "--bridge", "android", "--output", directory.appendingPathComponent("bad").path,
        ])
        #expect(noBridge.status == 1)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("bad").path))
    }

    @Test("A surrogate that escapes its function is refused with file and line: exit 1, nothing written")
    func escapingSurrogates() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let sibling = directory.appendingPathComponent("sibling.txt")
        try Data("ads.example/tag.js application/javascript\nwindow.a = 1;\n}, \"z.js\": function () {\n  alert(1);\n".utf8)
            .write(to: sibling)
        let unparsable = directory.appendingPathComponent("unparsable")
        try FileManager.default.createDirectory(at: unparsable, withIntermediateDirectories: true)
        try Data("// ads.example/tag.js application/javascript\n})();alert(1);(function(){\n".utf8)
            .write(to: unparsable.appendingPathComponent("tag.js"))
        for (input, place) in [(sibling.path, sibling.path + ": line 3: "), (unparsable.path, unparsable.path + "/tag.js: line 2: ")] {
            let (result, output) = try Self.render(["--surrogates", input], in: directory)
            #expect(result.status == 1, "\(input)")
            #expect(result.standardError.contains(place + "\"}\" closes a bracket this code did not open"), "\(result.standardError)")
            #expect(!FileManager.default.fileExists(atPath: output))
        }
    }

    @Test("Bad tracker data names the file and the JSON path; nothing is written")
    func badTrackerData() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tds = directory.appendingPathComponent("tds.json")
        try Data(#"{"trackers": {"x.example": []}, "entities": {}, "domains": {}}"#.utf8).write(to: tds)
        let (result, output) = try Self.render(["--tds", tds.path], in: directory)
        #expect(result.status == 1)
        #expect(result.standardError.contains(tds.path + #": trackers["x.example"]: expected an object"#))
        #expect(!FileManager.default.fileExists(atPath: output))
        // A field DuckDuckGo's decoder drops is dropped with a warning, and the scripts are written.
        try Data(#"{"trackers": {"x.example": {"domain": 5}}, "entities": {}, "domains": {}}"#.utf8).write(to: tds)
        let (dropped, _) = try Self.render(["--tds", tds.path], in: directory)
        #expect(dropped.status == 0)
        #expect(dropped.standardError.contains("warning: " + tds.path + #": trackers["x.example"].domain: expected a string"#))
    }

    @Test("An output that cannot be written leaves nothing behind; an older plain output is replaced, another directory refused")
    func atomicity() throws {
        let unwritable = try CommandRunner.run(["scripts", "--output", "/proc/trackerless-scripts-test"])
        #expect(unwritable.status == 1)
        #expect(unwritable.standardError.contains("/proc/trackerless-scripts-test: creating a directory in /proc failed"))
        #expect(!FileManager.default.fileExists(atPath: "/proc/trackerless-scripts-test"))

        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("file")
        try Data("x".utf8).write(to: file)
        let underFile = try CommandRunner.run(["scripts", "--output", file.path + "/out"])
        #expect(underFile.status == 1)
        #expect(try CommandRunner.run(["scripts", "--output", file.path]).status == 1)
        #expect(try Self.text(file.path) == "x")

        // A plain directory holding an older version's files only: replaced by the set's link.
        let existing = directory.appendingPathComponent("existing")
        try FileManager.default.createDirectory(at: existing, withIntermediateDirectories: true)
        try Data("old".utf8).write(to: existing.appendingPathComponent("blocking.js"))
        try Data("old".utf8).write(to: existing.appendingPathComponent("rules.3.json"))
        #expect(try CommandRunner.run(["scripts", "--output", existing.path]).status == 0)
        #expect(try Self.text(existing.path + "/blocking.js").contains(Self.marker))
        #expect(try FileManager.default.contentsOfDirectory(atPath: existing.path).sorted() == Self.files, "no list of the old set stays")
        // A directory holding other files is refused and left alone.
        let mine = directory.appendingPathComponent("mine")
        try FileManager.default.createDirectory(at: mine, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: mine.appendingPathComponent("notes.txt"))
        let refused = try CommandRunner.run(["scripts", "--output", mine.path])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains(#"holding other files ("notes.txt")"#), "\(refused.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: mine.path) == ["notes.txt"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasPrefix(".") }.sorted()
                == ["existing", "file", "mine"])
    }

    @Test("Usage: --output is required; trackerless --help lists the command")
    func usage() throws {
        #expect(try CommandRunner.run(["scripts"]).status == 2)
        let help = try CommandRunner.run(["--help"])
        #expect(help.standardOutput.contains("  scripts "))
        let scriptsHelp = try CommandRunner.run(["scripts", "--help"])
        #expect(scriptsHelp.status == 0)
        #expect(scriptsHelp.standardOutput.contains("--block-in-script"))
    }
}

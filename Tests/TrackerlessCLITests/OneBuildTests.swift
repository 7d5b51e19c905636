import ContentRuleList
import Foundation
import Testing
import TrackerDataKit
import TrackerlessRuntime
import UserScripts

/// `trackerless scripts` (and so the build plugin) and the runtime build through one
/// `ProtectionBuild`: for the same inputs they yield the same scripts, rule lists, Click-to-Load
/// lists and cookie lists, byte for byte.
@Suite("One build: trackerless scripts and the runtime yield the same artifacts", .enabled(if: CommandRunner.isAvailable, "the trackerless executable was not built next to the tests"))
struct OneBuildTests {
    /// A configuration that turns tracker-cookie protection on, with an exception site.
    static let configuration = """
        {"features": {
          "contentBlocking": {"state": "enabled", "exceptions": [{"domain": "shop.example"}]},
          "cookie": {"state": "enabled", "settings": {"trackerCookie": "enabled"}, "exceptions": [{"domain": "bank.example"}]}
        }, "unprotectedTemporary": []}
        """

    /// The files `scripts` wrote into `output`, by name.
    static func files(in output: String) throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: output) {
            files[name] = Array(try Data(contentsOf: URL(fileURLWithPath: output + "/" + name)))
        }
        return files
    }

    /// The files a runtime build of `inputs` holds, named as `scripts` names them.
    static func artifacts(of set: ProtectionSet) -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for script in set.scripts { files[script.name] = Array(script.source.utf8) }
        for (name, list) in zip(EncodedRuleList.fileNames(of: set.ruleLists), set.ruleLists) { files[name] = list.json }
        return files
    }

    /// Runs `scripts` with `arguments` and compares its files with the runtime's build of `inputs`.
    static func compare(_ arguments: [String], _ inputs: ProtectionInputs, in directory: URL) throws {
        let output = directory.appendingPathComponent("out").path
        let result = try CommandRunner.run(["scripts"] + arguments + ["--output", output])
        #expect(result.status == 0, "\(result.standardError)")
        let written = try files(in: output)
        let set = try ProtectionBuild(inputs, secret: .marker).set
        let built = artifacts(of: set)
        // Every artifact of the runtime's set, and nothing else but the index and the manifest.
        #expect(Set(written.keys) == Set(built.keys).union(["surrogates.txt", "manifest.json"]), "\(written.keys.sorted())")
        #expect(built.keys.contains("cookies.json"), "\(built.keys.sorted())")
        for (name, bytes) in built {
            #expect(written[name] == bytes, "\(name) differs")
        }
        // One name each: the manifest's set identity and rule list identifiers are the runtime's.
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(written["manifest.json"] ?? [])) as? [String: Any])
        #expect(manifest["setIdentity"] as? String == set.identity, "\(manifest["setIdentity"] ?? "none")")
        let entries = try #require(manifest["files"] as? [String: [String: Any]])
        for (name, list) in zip(EncodedRuleList.fileNames(of: set.ruleLists), set.ruleLists) {
            #expect(entries[name]?["identifier"] as? String == list.identifier, "\(name)")
        }
    }

    /// The sample tds, ``configuration`` and an allowlist of news.example, written into `directory`.
    static func writeInputs(in directory: URL) throws -> (tds: String, configuration: String, allowlist: String) {
        let tds = directory.appendingPathComponent("tds.json").path
        let configuration = directory.appendingPathComponent("config.json").path
        let allowlist = directory.appendingPathComponent("allowlist.json").path
        try Data(TrackerData.sampleDocument.utf8).write(to: URL(fileURLWithPath: tds))
        try Data(Self.configuration.utf8).write(to: URL(fileURLWithPath: configuration))
        try Data(#"["news.example"]"#.utf8).write(to: URL(fileURLWithPath: allowlist))
        return (tds, configuration, allowlist)
    }

    @Test("the bundled sample with every default: the same scripts, rule list and cookie list")
    func defaults() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.compare([], .sample, in: directory)
    }

    @Test("a configuration, an allowlist, a WebKit target and script settings: the same artifacts")
    func everyInput() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (tds, configuration, allowlist) = try Self.writeInputs(in: directory)

        var settings = ScriptSettings()
        settings.bridge = .android
        settings.handler = "host"
        settings.blockInScript = true
        var inputs = ProtectionInputs(
            trackerData: .file(tds), privacyConfiguration: .file(configuration), userAllowlist: .file(allowlist),
            scriptSettings: settings)
        inputs.webKit = try #require(WebKitTarget(name: "webkitgtk-2.44"))
        try Self.compare(
            ["--tds", tds, "--privacy-config", configuration, "--allowlist", allowlist, "--webkit", "webkitgtk-2.44",
             "--bridge", "android", "--handler", "host", "--block-in-script"],
            inputs, in: directory)
    }

    @Test("scripts with rule list settings, as options or in its options file: the runtime's artifacts for the same settings")
    func scriptsWithRuleListSettings() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (tds, configuration, _) = try Self.writeInputs(in: directory)
        var inputs = ProtectionInputs(trackerData: .file(tds), privacyConfiguration: .file(configuration))
        inputs.ruleLists.siteConditionStyle = .ifDomain
        inputs.ruleLists.maximumRulesPerList = 12
        let options = ["--tds", tds, "--privacy-config", configuration]
        try Self.compare(options + ["--site-conditions", "if-domain", "--max-rules", "12"], inputs, in: directory)
        let file = directory.appendingPathComponent("trackerless.json")
        try Data(#"{"siteConditions": "if-domain", "maxRules": 12}"#.utf8).write(to: file)
        try FileManager.default.removeItem(at: directory.appendingPathComponent("out"))
        try Self.compare(options + ["--options", file.path], inputs, in: directory)
    }

    @Test("trackerless rules and cookies write the runtime's blocking, Click-to-Load and cookie lists for the same inputs")
    func rulesAndCookies() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (tds, configuration, allowlist) = try Self.writeInputs(in: directory)
        var inputs = ProtectionInputs(trackerData: .file(tds), privacyConfiguration: .file(configuration), userAllowlist: .file(allowlist))
        inputs.webKit = try #require(WebKitTarget(name: "webkitgtk-2.44"))
        let set = try ProtectionBuild(inputs, secret: .marker).set
        let options = ["--tds", tds, "--privacy-config", configuration, "--allowlist", allowlist, "--webkit", "webkitgtk-2.44"]

        let rulesOutput = directory.appendingPathComponent("rules").path
        let rules = try CommandRunner.run(["rules"] + options + ["--output", rulesOutput + "/"])
        #expect(rules.status == 0, "\(rules.standardError)")
        let blocking = set.ruleLists.filter { $0.kind != .cookies }
        var expected: [String: [UInt8]] = [:]
        for (name, list) in zip(EncodedRuleList.fileNames(of: blocking), blocking) { expected[name] = list.json }
        #expect(try Self.files(in: rulesOutput) == expected)

        let cookiesOutput = directory.appendingPathComponent("cookies.json").path
        let cookies = try CommandRunner.run(["cookies"] + options + ["--output", cookiesOutput])
        #expect(cookies.status == 0, "\(cookies.standardError)")
        let cookieLists = set.ruleLists.filter { $0.kind == .cookies }
        #expect(cookieLists.count == 1)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: cookiesOutput))) == cookieLists.first?.json)
    }

    /// Two trackers of one company with Click-to-Load rules of one action, which a small JSON
    /// budget (`--max-bytes 1000`) puts in two lists.
    static let splitClickToLoad = #"""
        {"trackers": {
          "facebook.net": {"domain": "facebook.net", "owner": {"name": "Facebook, Inc.", "displayName": "Facebook"}, "default": "ignore",
            "rules": [{"rule": "facebook\\.net/.*/sdk\\.js", "action": "block-ctl-fb"}, {"rule": "facebook\\.net/tr", "action": "block"}]},
          "fbsbx.example": {"domain": "fbsbx.example", "owner": {"name": "Facebook, Inc.", "displayName": "Facebook"}, "default": "ignore",
            "rules": [{"rule": "fbsbx\\.example/plugins/", "action": "block-ctl-fb"}]},
          "tracker.example": {"domain": "tracker.example", "owner": {"name": "Tracker Co", "displayName": "Tracker"}, "default": "block"}},
         "entities": {"Facebook, Inc.": {"domains": ["facebook.net", "fbsbx.example", "facebook.com"], "displayName": "Facebook"},
           "Tracker Co": {"domains": ["tracker.example"], "displayName": "Tracker"}},
         "domains": {"facebook.net": "Facebook, Inc.", "fbsbx.example": "Facebook, Inc.", "facebook.com": "Facebook, Inc.",
           "tracker.example": "Tracker Co"},
         "cnames": {}}
        """#

    @Test("an action's Click-to-Load rules in two lists: each is a file of its own in a set, beside FILE and in scripts' output")
    func clickToLoadActionInTwoLists() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tds = directory.appendingPathComponent("tds.json").path
        try Data(Self.splitClickToLoad.utf8).write(to: URL(fileURLWithPath: tds))
        var inputs = ProtectionInputs(trackerData: .file(tds))
        inputs.ruleLists.maximumBytesPerList = 1000
        let set = try ProtectionBuild(inputs, secret: .marker).set
        let blocking = set.ruleLists.filter { $0.kind != .cookies }
        #expect(blocking.filter { $0.clickToLoadAction == "block-ctl-fb" }.count == 2, "\(blocking.map(\.identifier))")
        var expected: [String: [UInt8]] = [:]
        for (name, list) in zip(EncodedRuleList.fileNames(of: blocking), blocking) { expected[name] = list.json }
        #expect(expected.keys.contains("rules.block-ctl-fb.2.json"), "\(expected.keys.sorted())")

        let options = ["--tds", tds, "--max-bytes", "1000"]
        let setPath = directory.appendingPathComponent("set").path
        let toSet = try CommandRunner.run(["rules"] + options + ["--output", setPath + "/"])
        #expect(toSet.status == 0, "\(toSet.standardError)")
        #expect(try Self.files(in: setPath) == expected)

        // Beside FILE: out.json and the Click-to-Load lists as out.block-ctl-fb.json, out.block-ctl-fb.2.json.
        let besidePath = directory.appendingPathComponent("beside")
        try FileManager.default.createDirectory(at: besidePath, withIntermediateDirectories: false)
        let toFile = try CommandRunner.run(["rules"] + options + ["--output", besidePath.appendingPathComponent("out.json").path])
        #expect(toFile.status == 0, "\(toFile.standardError)")
        var besideExpected: [String: [UInt8]] = [:]
        for (name, bytes) in expected where name != "rules.json" { besideExpected["out" + name.dropFirst("rules".count)] = bytes }
        let beside = try Self.files(in: besidePath.path)
        #expect(Set(beside.keys) == Set(besideExpected.keys).union(["out.json"]), "\(beside.keys.sorted())")
        for (name, bytes) in besideExpected { #expect(beside[name] == bytes, "\(name) differs") }

        // A later run with one Click-to-Load list removes the second list and the earlier sources
        // (a link: never its target), and leaves files of other names alone.
        let withSources = try CommandRunner.run(["rules"] + options + ["--sources", "--output", besidePath.appendingPathComponent("out.json").path])
        #expect(withSources.status == 0, "\(withSources.standardError)")
        let kept = directory.appendingPathComponent("kept.json").path
        try Data("kept".utf8).write(to: URL(fileURLWithPath: kept))
        let linked = besidePath.appendingPathComponent("out.block-ctl-fb.2.json").path
        try FileManager.default.removeItem(atPath: linked)
        try FileManager.default.createSymbolicLink(atPath: linked, withDestinationPath: kept)
        let others = ["out.block-ctl-fb.txt", "other.block-ctl-fb.json", "out.block-ctl-fb.x.json", "out.block-ctl-fb.2.sources.txt"]
        for name in others { try Data("other".utf8).write(to: besidePath.appendingPathComponent(name)) }
        #expect(try Set(Self.files(in: besidePath.path).keys).isSuperset(of: ["out.sources.json", "out.block-ctl-fb.sources.json", "out.block-ctl-fb.2.sources.json"]))
        let oneList = try CommandRunner.run(["rules", "--tds", tds, "--output", besidePath.appendingPathComponent("out.json").path])
        #expect(oneList.status == 0, "\(oneList.standardError)")
        #expect(oneList.standardError.contains("removed \(linked)"), "\(oneList.standardError)")
        let left = try Set(Self.files(in: besidePath.path).keys)
        #expect(left == Set(others + ["out.json", "out.block-ctl-fb.json"]), "\(left.sorted())")
        #expect(try Data(contentsOf: URL(fileURLWithPath: kept)) == Data("kept".utf8))

        try Self.compare(options, inputs, in: directory)
    }

    @Test("cookie protection off in the configuration: the runtime's set has no cookie list, and cookies writes none (DIR/: an empty set)")
    func cookiesOff() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (tds, _, _) = try Self.writeInputs(in: directory)
        let configuration = directory.appendingPathComponent("off.json").path
        try Data(#"{"features": {"cookie": {"state": "disabled"}}}"#.utf8).write(to: URL(fileURLWithPath: configuration))
        let set = try ProtectionBuild(ProtectionInputs(trackerData: .file(tds), privacyConfiguration: .file(configuration))).set
        #expect(!set.ruleLists.contains { $0.kind == .cookies }, "\(set.ruleLists.map(\.identifier))")
        #expect(set.ruleLists.contains { $0.kind == .blocking })

        let file = directory.appendingPathComponent("cookies.json").path
        let toFile = try CommandRunner.run(["cookies", "--tds", tds, "--privacy-config", configuration, "--output", file])
        #expect(toFile.status == 0, "\(toFile.standardError)")
        #expect(toFile.standardError.contains("cookie protection is off"), "\(toFile.standardError)")
        #expect(!FileManager.default.fileExists(atPath: file))

        // A list an earlier run wrote at FILE goes, so that a build step installing FILE stops
        // blocking cookies; a link goes, never what it points to; /dev/null stays.
        let on = try CommandRunner.run(["cookies", "--tds", tds, "--output", file])
        #expect(on.status == 0 && FileManager.default.fileExists(atPath: file), "\(on.standardError)")
        let removed = try CommandRunner.run(["cookies", "--tds", tds, "--privacy-config", configuration, "--output", file])
        #expect(removed.status == 0, "\(removed.standardError)")
        #expect(removed.standardError.contains("removed \(file)"), "\(removed.standardError)")
        #expect(!FileManager.default.fileExists(atPath: file))
        let target = directory.appendingPathComponent("kept.json").path
        try Data("kept".utf8).write(to: URL(fileURLWithPath: target))
        let link = directory.appendingPathComponent("link.json").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let viaLink = try CommandRunner.run(["cookies", "--tds", tds, "--privacy-config", configuration, "--output", link])
        #expect(viaLink.status == 0, "\(viaLink.standardError)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data("kept".utf8))
        let toNull = try CommandRunner.run(["cookies", "--tds", tds, "--privacy-config", configuration, "--output", "/dev/null"])
        #expect(toNull.status == 0 && !toNull.standardError.contains("removed"), "\(toNull.standardError)")
        #expect(FileManager.default.fileExists(atPath: "/dev/null"))

        let toOutput = try CommandRunner.run(["cookies", "--tds", tds, "--privacy-config", configuration])
        #expect(toOutput.status == 0 && toOutput.standardOutput.isEmpty, "\(toOutput.standardOutput)")

        let setPath = directory.appendingPathComponent("cookies").path
        let toSet = try CommandRunner.run(["cookies", "--tds", tds, "--privacy-config", configuration, "--output", setPath + "/"])
        #expect(toSet.status == 0, "\(toSet.standardError)")
        #expect(try Self.ruleLists(in: setPath).isEmpty)
    }

    /// The rule lists in `directory` as `rules --output DIR/` names them: rules.json, rules.2.json
    /// ... in order, then the Click-to-Load lists by name; the sources files left out.
    static func ruleLists(in directory: String) throws -> [[UInt8]] {
        let files = try Self.files(in: directory)
        var names: [String] = []
        while files["rules" + (names.isEmpty ? "" : ".\(names.count + 1)") + ".json"] != nil {
            names.append("rules" + (names.isEmpty ? "" : ".\(names.count + 1)") + ".json")
        }
        names += files.keys.filter { $0.hasPrefix("rules.block-ctl-") && !$0.hasSuffix(".sources.json") }.sorted()
        #expect(Set(names).union(files.keys.filter { $0.hasSuffix(".sources.json") }) == Set(files.keys), "\(files.keys.sorted())")
        return names.compactMap { files[$0] }
    }

    /// Each rule list setting of `rules` and `cookies` with the value the runtime's
    /// ``RuleListSettings`` gives it.
    static let ruleListSettings: [(options: [String], settings: RuleListSettings)] = {
        var ifDomain = RuleListSettings()
        ifDomain.siteConditionStyle = .ifDomain
        ifDomain.matchesRuleTextAfterHost = true
        var fewRules = RuleListSettings()
        fewRules.maximumRulesPerList = 12
        var fewBytes = RuleListSettings()
        fewBytes.maximumBytesPerList = 2_000
        return [
            (["--site-conditions", "if-domain", "--exact-path-matches"], ifDomain),
            (["--max-rules", "12"], fewRules),
            (["--max-bytes", "2000"], fewBytes),
        ]
    }()

    @Test("rules and cookies with each rule list setting write the lists of the runtime's build with the same settings",
          arguments: 0..<3)
    func ruleListSettings(index: Int) throws {
        let (settingOptions, settings) = Self.ruleListSettings[index]
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (tds, configuration, allowlist) = try Self.writeInputs(in: directory)
        var inputs = ProtectionInputs(trackerData: .file(tds), privacyConfiguration: .file(configuration), userAllowlist: .file(allowlist))
        inputs.ruleLists = settings
        let set = try ProtectionBuild(inputs, secret: .marker).set
        // The settings change the lists: a command that ignored them would fail here.
        let defaults = try ProtectionBuild(ProtectionInputs(
            trackerData: .file(tds), privacyConfiguration: .file(configuration), userAllowlist: .file(allowlist)), secret: .marker).set
        let changesTheLists = set.ruleLists.map(\.json) != defaults.ruleLists.map(\.json)
        #expect(changesTheLists, "the settings \(settingOptions) make the default lists")
        #expect(set.identity != defaults.identity)
        let options = ["--tds", tds, "--privacy-config", configuration, "--allowlist", allowlist] + settingOptions

        let rulesOutput = directory.appendingPathComponent("rules").path + "/"
        let rules = try CommandRunner.run(["rules"] + options + ["--output", rulesOutput, "--sources"])
        #expect(rules.status == 0, "\(rules.standardError)")
        #expect(try Self.ruleLists(in: rulesOutput) == set.ruleLists.filter { $0.kind != .cookies }.map(\.json))

        // cookies takes every setting but exact path matches, which its rules do not use.
        let cookieOptions = options.filter { $0 != "--exact-path-matches" }
        let cookiesOutput = directory.appendingPathComponent("cookies").path + "/"
        let cookies = try CommandRunner.run(["cookies"] + cookieOptions + ["--output", cookiesOutput])
        #expect(cookies.status == 0, "\(cookies.standardError)")
        #expect(try Self.ruleLists(in: cookiesOutput) == set.ruleLists.filter { $0.kind == .cookies }.map(\.json))
    }
}

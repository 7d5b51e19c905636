import ContentRuleList
import Foundation
import Testing
import TrackerDataKit
import TrackerlessCore
import TrackerlessRuntime
import TrackerlessTestSupport

/// The C API builds through the one build: `c/one_build_test.c` builds a set from files, and its
/// identifier, rule lists (each named by a hash of its JSON), scripts and compiled engine are
/// those of the runtime's `ProtectionBuild` of the same inputs, and `tl_scripts_render`'s scripts
/// are the build's.
extension CAPITests {
    /// The one-build C host, built once per run.
    static let oneBuildProgram = compile("one_build_test.c")

    @Test("a set built through the C API is the runtime's build of the same inputs: identifier, lists, scripts, engine")
    func oneBuild() throws {
        let program = try Self.oneBuildProgram.get()
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tds = directory.appendingPathComponent("tds.json").path
        let configuration = directory.appendingPathComponent("config.json").path
        let allowlist = directory.appendingPathComponent("allowlist.json").path
        try Data(TrackerData.sampleDocument.utf8).write(to: URL(fileURLWithPath: tds))
        // Tracker-cookie protection on, so the set has cookie lists too.
        try Data(#"""
            {"features": {
              "contentBlocking": {"state": "enabled", "exceptions": [{"domain": "shop.example"}]},
              "cookie": {"state": "enabled", "settings": {"trackerCookie": "enabled"}, "exceptions": []}
            }, "unprotectedTemporary": []}
            """#.utf8).write(to: URL(fileURLWithPath: configuration))
        try Data(#"["news.example"]"#.utf8).write(to: URL(fileURLWithPath: allowlist))

        let run = try ChildProcess.run(program, [directory.path, tds, configuration, allowlist, "webkitgtk-2.44"], logs: directory)
        #expect(run.status == 0, "\(run.output.suffix(2000))")

        var inputs = ProtectionInputs(
            trackerData: .file(tds), privacyConfiguration: .file(configuration), userAllowlist: .file(allowlist))
        inputs.webKit = try #require(WebKitTarget(name: "webkitgtk-2.44"))
        let set = try ProtectionBuild(inputs, secret: .marker).set
        #expect(set.ruleLists.contains { $0.kind == .cookies })

        let info = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: directory.appendingPathComponent("info.json"))) as? [String: Any])
        #expect(info["identity"] as? String == set.identity)
        let lists = try #require(info["ruleLists"] as? [[String: Any]])
        #expect(lists.compactMap { $0["identifier"] as? String } == set.ruleLists.map(\.identifier))

        let listsJSON = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: directory.appendingPathComponent("lists.json"))) as? [[String: Any]])
        for (written, list) in zip(listsJSON, set.ruleLists) {
            let rules = try JSONSerialization.data(withJSONObject: try #require(written["rules"]), options: [.sortedKeys])
            let expected = try JSONSerialization.data(
                withJSONObject: try JSONSerialization.jsonObject(with: Data(list.json)), options: [.sortedKeys])
            #expect(rules == expected, "\(list.identifier)")
        }

        let scripts = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: directory.appendingPathComponent("scripts.json"))) as? [String: Any])
        let secret = try #require(scripts["secret"] as? String)
        for (name, script) in [("blocking", set.blockingScript), ("inference", set.inferenceScript)] {
            let source = try #require(scripts[name] as? String)
            #expect(source.replacingOccurrences(of: secret, with: ScriptSecret.marker.value) == script?.source, "\(name)")
        }
        #expect(Array(try Data(contentsOf: directory.appendingPathComponent("engine.bin"))) == set.engine.compiled())

        // tl_scripts_render: the one build's scripts for the blocklist, the configuration and its settings.
        var renderInputs = ProtectionInputs(trackerData: .file(tds), privacyConfiguration: .file(configuration))
        renderInputs.scriptSettings.bridge = .android
        renderInputs.scriptSettings.blockInScript = true
        let rendered = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: directory.appendingPathComponent("render.json"))) as? [String: Any])
        let renderSecretText = try #require(rendered["secret"] as? String)
        let renderSecret = try #require(ScriptSecret(hex: renderSecretText))
        let renderSet = try ProtectionBuild(renderInputs, secret: renderSecret).set
        #expect(rendered["blocking"] as? String == renderSet.blockingScript?.source)
        #expect(rendered["inference"] as? String == renderSet.inferenceScript?.source)
    }
}

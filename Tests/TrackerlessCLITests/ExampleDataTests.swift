import Foundation
import Testing
import TrackerlessTestSupport

/// The example inputs the README points a new user to do what it says.
@Suite(.enabled(if: CommandRunner.isAvailable, "the trackerless executable was not built next to the tests"))
struct ExampleDataTests {
    static let configuration = SharedData.packageRoot.appendingPathComponent("Examples/privacy-config.json")
    static let request = #"{"url":"https://ads.example/pixel?id=1","top":"https://news.example/","type":"image"}"#

    @Test("the minimal privacy configuration keeps blocking on, and an exception turns it off for that site")
    func minimalConfiguration() throws {
        let on = try CommandRunner.run(["resolve", "--privacy-config", Self.configuration.path], input: Self.request)
        #expect(on.status == 0, "\(on.standardError)")
        #expect(on.standardOutput.hasPrefix(#"{"action":"block""#), "\(on.standardOutput)")
        #expect(on.standardError.isEmpty, "\(on.standardError)")

        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = try String(contentsOf: Self.configuration, encoding: .utf8)
        let excepted = text.replacingOccurrences(of: #""exceptions": []"#, with: #""exceptions": [{"domain": "news.example"}]"#)
        try #require(excepted != text)
        let file = directory.appendingPathComponent("config.json")
        try Data(excepted.utf8).write(to: file)
        let off = try CommandRunner.run(["resolve", "--privacy-config", file.path], input: Self.request)
        #expect(off.standardOutput.contains("unprotected"), "\(off.standardOutput)")

        // An empty configuration turns blocking off everywhere, and says so.
        let empty = directory.appendingPathComponent("empty.json")
        try Data("{}".utf8).write(to: empty)
        let silent = try CommandRunner.run(["resolve", "--privacy-config", empty.path], input: Self.request)
        #expect(silent.standardOutput.contains("unprotected domain"), "\(silent.standardOutput)")
        #expect(silent.standardError.contains("features.contentBlocking: missing: tracker blocking is off on every site"),
                "\(silent.standardError)")

        let rules = try CommandRunner.run(["rules", "--privacy-config", Self.configuration.path])
        #expect(rules.status == 0 && rules.standardOutput.contains("ads\\\\.example"), "\(rules.standardError)")
    }

    @Test("the repository is licensed under the Apache License 2.0, as the README says")
    func license() throws {
        let license = try String(contentsOf: SharedData.packageRoot.appendingPathComponent("LICENSE"), encoding: .utf8)
        #expect(license.contains("Apache License") && license.contains("Version 2.0, January 2004"))
        let readme = try String(contentsOf: SharedData.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("[Apache License 2.0](LICENSE)"))
    }

    @Test("the bundled sample's recording shows its surrogate ran, verified, and a first run warns of nothing")
    func sampleDashboard() throws {
        let recording = SharedData.packageRoot.appendingPathComponent("Examples/sample-messages.jsonl").path
        let result = try CommandRunner.run(["stats", "--messages", recording, "--secret", "5ec7e75ec7e75ec7e75ec7e75ec7e75e"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.isEmpty, "\(result.standardError)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let page = try #require((report["pages"] as? [[String: Any]])?.first)
        #expect(page["surrogates"] as? [[String: String]] == [["surrogate": "noop.js", "host": "ads.example"]])
        #expect((page["counters"] as? [String: Any])?["unverifiedSurrogates"] as? Int == 0)
        #expect((report["rejections"] as? [String: Any])?["wrongSecret"] as? Int == 1, "the forged message is rejected")
    }
}

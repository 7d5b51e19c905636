import Foundation
import Testing

/// `trackerless rules` with Click-to-Load rules: one file per rule action beside the main list or
/// in the set, none on standard output.
@Suite("rules: the Click-to-Load lists", .enabled(if: CommandRunner.isAvailable, "the trackerless executable was not built next to the tests"))
struct RulesClickToLoadTests {
    static let tds = #"""
        {"trackers": {"video.example": {"domain": "video.example", "owner": {"name": "Video Co"}, "default": "ignore",
           "rules": [{"rule": "video\\.example/embed/", "action": "block-ctl-video"}, {"rule": "video\\.example/pixel"}]}},
         "entities": {"Video Co": {"domains": ["video.example"]}}, "domains": {"video.example": "Video Co"}}
        """#

    @Test("--output FILE: the action's list beside it; DIR/: in the set; stdout: the main list and a note")
    func outputs() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tds = directory.appendingPathComponent("tds.json").path
        try Data(Self.tds.utf8).write(to: URL(fileURLWithPath: tds))

        let file = directory.appendingPathComponent("rules.json").path
        #expect(try CommandRunner.run(["rules", "--tds", tds, "--output", file]).status == 0)
        let main = try String(contentsOfFile: file, encoding: .utf8)
        let beside = try String(contentsOfFile: directory.appendingPathComponent("rules.block-ctl-video.json").path, encoding: .utf8)
        #expect(main.contains("pixel") && !main.contains("embed"))
        #expect(beside.contains("embed") && !beside.contains("pixel"))

        let set = directory.appendingPathComponent("set").path + "/"
        #expect(try CommandRunner.run(["rules", "--tds", tds, "--output", set]).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: set).sorted() == ["rules.block-ctl-video.json", "rules.json"])
        // A second run replaces the set: its own file names, the Click-to-Load one included.
        #expect(try CommandRunner.run(["rules", "--tds", tds, "--output", set]).status == 0)

        let stdout = try CommandRunner.run(["rules", "--tds", tds])
        #expect(stdout.status == 0)
        #expect(stdout.standardOutput.contains("pixel") && !stdout.standardOutput.contains("embed"))
        #expect(stdout.standardError.contains("block-ctl-video"))
    }
}

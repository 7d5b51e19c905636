import Foundation
import Testing
import TrackerlessTestSupport

/// A configuration too large for the lists is refused by `rules` and `cookies` with the builder's
/// message, and nothing is written.
@Suite("CLI: a configuration that cannot fit")
struct ConfigurationRefusalCommandTests {
    @Test("rules and cookies exit 1 naming the configuration's part; nothing written", arguments: ["rules", "cookies"])
    func refused(command: String) throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let trackers = (0..<5).map { #""t\#($0).example": {"domain": "t\#($0).example", "default": "block", "owner": {"name": "T\#($0)", "displayName": "T\#($0)"}}"# }
        let tds = directory.appendingPathComponent("tds.json")
        try Data(#"{"trackers": {\#(trackers.joined(separator: ","))}, "entities": {}, "domains": {}}"#.utf8).write(to: tds)
        let rules = (0..<99).map { #"{"rule": "t0.example/p\#($0)/", "domains": ["<all>"]}"# }
        let config = directory.appendingPathComponent("config.json")
        try Data((#"{"features": {"contentBlocking": {"state": "enabled"}, "cookie": {"state": "enabled", "settings": {"trackerCookie": "enabled", "excludedCookieDomains": ["#
            + (0..<99).map { #"{"domain": "x\#($0).example"}"# }.joined(separator: ",")
            + #"]}}, "trackerAllowlist": {"state": "enabled", "settings": {"allowlistedTrackers": {"t0.example": {"rules": ["#
            + rules.joined(separator: ",") + "]}}}}}}").utf8).write(to: config)
        let output = directory.appendingPathComponent("out/")
        let result = try CommandRunner.run(
            [command, "--tds", tds.path, "--privacy-config", config.path, "--output", output.path + "/", "--max-rules", "100"])
        #expect(result.status == 1, "\(result.standardError.prefix(500))")
        let part = command == "cookies" ? "excludedCookieDomains" : "features.trackerAllowlist.settings.allowlistedTrackers"
        #expect(result.standardError.contains(part), "\(result.standardError.prefix(500))")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }
}

import Foundation
import Testing
import TrackerlessTestSupport

/// `trackerless rules` says how close each list is to its limits, splits by `--max-bytes`, and
/// refuses a tracker no split can make small enough, naming the list.
@Suite("CLI: list sizes against the byte budget")
struct RuleListSizeCommandTests {
    /// A blocklist of `count` trackers, each with `rules` ignore rules.
    static func trackerData(_ count: Int, rules: Int) -> Data {
        let trackers = (0..<count).map { index in
            let list = (0..<rules).map { #"{"rule": "t\#(index)\\.example/p\#($0)/", "action": "ignore"}"# }.joined(separator: ",")
            return #""t\#(index).example": {"domain": "t\#(index).example", "default": "block", "owner": {"name": "T\#(index)", "displayName": "T\#(index)"}, "rules": [\#(list)]}"#
        }
        return Data(#"{"trackers": {\#(trackers.joined(separator: ","))}, "entities": {}, "domains": {}}"#.utf8)
    }

    @Test("--max-bytes splits the lists; each list's size line gives rules/limit and bytes/budget, the bytes those of its file")
    func sizesAndSplit() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tds = directory.appendingPathComponent("tds.json")
        try Self.trackerData(30, rules: 3).write(to: tds)
        let output = directory.appendingPathComponent("out").path + "/"
        let result = try CommandRunner.run(["rules", "--tds", tds.path, "--output", output, "--max-bytes", "6000"])
        #expect(result.status == 0, "\(result.standardError)")
        let sizes = result.standardError.split(separator: "\n").filter { $0.hasPrefix("size: main list ") }
        #expect(sizes.count >= 2, "\(result.standardError)")
        for (index, line) in sizes.enumerated() {
            let file = output + (index == 0 ? "rules.json" : "rules.\(index + 1).json")
            let bytes = try Data(contentsOf: URL(fileURLWithPath: file)).count
            #expect(bytes <= 6000)
            #expect(line.hasPrefix("size: main list \(index + 1) of \(sizes.count): "), "\(line)")
            #expect(line.contains("/150000 rules (") && line.contains(" \(bytes)/6000 bytes ("), "\(line)")
        }
    }

    @Test("a tracker larger than --max-bytes is refused, naming the list and the tracker; nothing written")
    func refusal() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tds = directory.appendingPathComponent("tds.json")
        try Self.trackerData(2, rules: 100).write(to: tds)
        let output = directory.appendingPathComponent("out").path + "/"
        let result = try CommandRunner.run(["rules", "--tds", tds.path, "--output", output, "--max-bytes", "3000"])
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardError.contains(#"the main list: trackers["t0.example"]"#), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}

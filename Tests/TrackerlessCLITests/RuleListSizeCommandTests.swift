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

    /// `trackerless rules --max-bytes maxBytes` on ``trackerData(_:rules:)`` in `directory`; the
    /// command's result and its output directory (with its trailing slash).
    static func rules(
        _ count: Int, rules: Int, maxBytes: Int, in directory: URL
    ) throws -> (result: CommandRunner.Result, output: String) {
        let tds = directory.appendingPathComponent("tds.json")
        try trackerData(count, rules: rules).write(to: tds)
        let output = directory.appendingPathComponent("out").path + "/"
        return (try CommandRunner.run(["rules", "--tds", tds.path, "--output", output, "--max-bytes", "\(maxBytes)"]), output)
    }

    @Test("--max-bytes splits the lists; each list's size line gives rules/limit and bytes/budget, the bytes those of its file")
    func sizesAndSplit() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (result, output) = try Self.rules(30, rules: 3, maxBytes: 6000, in: directory)
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
        let (result, output) = try Self.rules(2, rules: 100, maxBytes: 3000, in: directory)
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardError.contains(#"the main list: trackers["t0.example"]"#), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}

/// The build's memory grows with the blocklist, not faster: measured in a child process (the
/// command's own peak, VmHWM), the memory each added tracker costs from 3,000 to 30,000 trackers
/// is no more than from 300 to 3,000 (within 50%). Kept small: the shape, not the size, is tested.
@Suite("CLI: build memory linear in the trackers")
struct BuildMemoryShapeTests {
    /// `trackerless rules --report` on `count` trackers shaped like Tracker Radar's (a company,
    /// three rules, one of them with a site condition); its peak, in kB.
    static func peak(trackers count: Int, in directory: URL) throws -> Int {
        let trackers = (0..<count).map { index in
            let rules = #"[{"rule": "t\#(index)\\.example/ads/"}, {"rule": "t\#(index)\\.example/px", "exceptions": {"domains": ["s\#(index).example"]}}, {"rule": "t\#(index)\\.example/ok", "action": "ignore"}]"#
            return #""t\#(index).example": {"domain": "t\#(index).example", "default": "block", "owner": {"name": "C\#(index)", "displayName": "C\#(index)"}, "rules": \#(rules)}"#
        }
        let entities = (0..<count).map { #""C\#($0)": {"domains": ["t\#($0).example", "c\#($0).example"], "prevalence": 0.1}"# }
        let tds = directory.appendingPathComponent("tds-\(count).json")
        try Data(#"{"trackers": {\#(trackers.joined(separator: ","))}, "entities": {\#(entities.joined(separator: ","))}, "domains": {}}"#.utf8).write(to: tds)
        let output = directory.appendingPathComponent("out-\(count)").path + "/"
        let result = try CommandRunner.run(["rules", "--tds", tds.path, "--output", output, "--report"])
        try #require(result.status == 0, "\(result.standardError.prefix(500))")
        let line = try #require(result.standardError.split(separator: "\n").first { $0.hasPrefix("peak memory: ") })
        return try #require(Int(line.dropFirst("peak memory: ".count).prefix { $0.isNumber }))
    }

    @Test("kB per added tracker from 3,000 to 30,000 at most 1.5 times that from 300 to 3,000",
          .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status"), "reads the peak from /proc"))
    func linear() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let small = try Self.peak(trackers: 300, in: directory)
        let medium = try Self.peak(trackers: 3_000, in: directory)
        let large = try Self.peak(trackers: 30_000, in: directory)
        let first = Double(medium - small) / 2_700
        let second = Double(large - medium) / 27_000
        #expect(first > 0 && second > 0, "\(small) \(medium) \(large) kB")
        #expect(second <= first * 1.5, "per added tracker: \(first) kB up to 3,000, \(second) kB up to 30,000 (\(small), \(medium), \(large) kB)")
    }
}

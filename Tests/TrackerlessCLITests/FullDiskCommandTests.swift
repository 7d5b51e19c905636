import Foundation
import Testing
import TrackerlessTestSupport

/// The command line on a real full or read-only disk (a tmpfs of its own): a write it cannot
/// make ends the command with a message naming the file and exit 1, and leaves the previous
/// output as it was, with no temporary beside it.
@Suite(
    "trackerless on a full or read-only file system",
    .enabled(if: CommandRunner.isAvailable, "the trackerless executable was not built next to the tests"),
    SmallFileSystem.mountAllowed)
struct FullDiskCommandTests {
    static let size = 2 << 20

    /// Every file under `directory` but the filler, with its bytes.
    static func contents(_ directory: String) -> [String: Data] {
        var files: [String: Data] = [:]
        for name in SmallFileSystem.tree(directory) where name != "filler" {
            files[name] = FileManager.default.contents(atPath: directory + "/" + name) ?? Data()
        }
        return files
    }

    @Test("rules --output DIR/: the new set refused with the file named and exit 1, the previous set whole, nothing left beside it",
          arguments: SmallFileSystem.Fault.allCases)
    func rules(fault: SmallFileSystem.Fault) throws {
        try SmallFileSystem.with(size: Self.size) { disk in
            let set = disk.path + "/rules"
            let first = try CommandRunner.run(RuleSetOutputTests.variants[0] + ["--output", set + "/"])
            try #require(first.status == 0, "\(first.standardError)")
            let lists = RuleSetOutputTests.read(set)
            try #require(lists.count >= 3)
            let before = Self.contents(disk.path)
            try disk.apply(fault)

            let result = try CommandRunner.run(RuleSetOutputTests.variants[1] + ["--output", set + "/"])
            #expect(result.status == 1, "\(result.standardError)")
            #expect(result.standardError.hasPrefix("trackerless: " + set), "\(result.standardError)")
            #expect(result.standardError.contains(fault.reason), "\(result.standardError)")
            #expect(RuleSetOutputTests.read(set) == lists)
            #expect(Self.contents(disk.path) == before)
        }
    }

    @Test("stats --store: the totals not saved, said with the file named and exit 1, the store as it was, nothing left beside it",
          arguments: SmallFileSystem.Fault.allCases)
    func stats(fault: SmallFileSystem.Fault) throws {
        let (directory, tds, recording) = try StatsCommandTests.setUp([
            #"{"tab": "a", "navigate": "https://site.example/"}"#,
            #"{"tab": "a", "message": \#(StatsCommandTests.message(page: "https://site.example/", document: "aaaaaaaaaaaaaaaa", urls: ["https://ads.tracker.test/1.js"]))}"#,
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        try SmallFileSystem.with(size: Self.size) { disk in
            let store = disk.path + "/totals"
            let first = try CommandRunner.run(["stats", "--tds", tds, "--messages", recording, "--store", store])
            try #require(first.status == 0, "\(first.standardError)")
            let before = Self.contents(disk.path)
            try disk.apply(fault)

            let result = try CommandRunner.run(["stats", "--tds", tds, "--messages", recording, "--store", store])
            #expect(result.status == 1, "\(result.standardError)")
            #expect(result.standardError.contains("trackerless: " + store), "\(result.standardError)")
            #expect(result.standardError.contains(fault.reason), "\(result.standardError)")
            #expect(Self.contents(disk.path) == before)

            // What the first run saved is read as it was.
            disk.makeRoom()
            if fault == .readOnly { try disk.remountWritable() }
            let reopened = try CommandRunner.run(["stats", "--tds", tds, "--messages", "/dev/null", "--store", store])
            #expect(reopened.status == 0, "\(reopened.standardError)")
            let lifetime = (try StatsCommandTests.report(reopened.standardOutput)["totals"] as? [String: Any])?["lifetime"] as? [String: Any]
            #expect(lifetime?["pages"] as? Int == 1, "\(reopened.standardOutput)")
        }
    }
}

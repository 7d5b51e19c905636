import Foundation
import Testing
import TrackerlessTestSupport

/// `rules` to standard output or one FILE keeps rules that fit one list in one list; `--output
/// DIR/`, which may write several, gives the companies whose trackers repeat the most site
/// entries lists of their own (`RuleListSettings.entityListsForCompileTime`).
@Suite(
    "trackerless rules: one file stays one list, a set gets the companies' lists for compile time",
    .enabled(if: CommandRunner.isAvailable, "the trackerless executable was not built next to the tests"),
    .enabled(if: SharedData.shouldRun("tds/apple-tds.json"), SharedData.skipMessage))
struct OneListOutputTests {
    /// The blocking lists (no Click-to-Load ones) of the set at `path`, in order.
    static func blockingLists(inSet path: String) throws -> [[[String: Any]]] {
        try RuleSetOutputTests.read(path).map { data in
            try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        }
    }

    /// The `if-top-url` entries the rules of `lists` carry, each of which WebKit compiles.
    static func siteEntries(_ lists: [[[String: Any]]]) -> Int {
        lists.joined().reduce(0) { count, rule in
            count + (((rule["trigger"] as? [String: Any])?["if-top-url"] as? [Any])?.count ?? 0)
        }
    }

    @Test("apple-tds.json: one list to standard output and to FILE (the same bytes); 21 lists with far fewer site entries to DIR/")
    func oneFileAndSet() throws {
        let tds = SharedData.path("tds/apple-tds.json")
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        let printed = try CommandRunner.run(["rules", "--tds", tds])
        #expect(printed.status == 0, "\(printed.standardError)")
        let list = try #require(try JSONSerialization.jsonObject(with: Data(printed.standardOutput.utf8)) as? [[String: Any]])
        #expect(list.count > 5_000)

        let file = directory.appendingPathComponent("rules.json").path
        let written = try CommandRunner.run(["rules", "--tds", tds, "--output", file])
        #expect(written.status == 0, "\(written.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) + Data([0x0A]) == Data(printed.standardOutput.utf8))

        let set = directory.appendingPathComponent("set").path
        let inSet = try CommandRunner.run(["rules", "--tds", tds, "--output", set + "/"])
        #expect(inSet.status == 0, "\(inSet.standardError)")
        let lists = try Self.blockingLists(inSet: set)
        // The main list and one for each of the 20 companies (apple-tds.json has none over 1 MB).
        #expect(lists.count == 21)
        // About 27,800 entries in the one list, about 6,400 in the set (BENCHMARKS.md).
        let (one, several) = (Self.siteEntries([list]), Self.siteEntries(lists))
        #expect(several * 3 < one, "site entries: \(several) in the set, \(one) in the one list")
        // The same rules otherwise: each company's exception replaces its trackers' own.
        let ruleCount = lists.reduce(0) { $0 + $1.count }
        #expect(abs(ruleCount - list.count) < 1_000, "\(ruleCount) rules in the set, \(list.count) in the one list")
    }
}

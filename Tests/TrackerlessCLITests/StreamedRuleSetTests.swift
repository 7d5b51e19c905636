import Foundation
import Testing

/// `rules --output DIR/` writes each list into the generation's temporary directory as it is
/// packed; with `--sources` the lists are all built first, then written. Both give the same lists,
/// and a list WebKit would refuse, found once earlier lists are written, leaves no partial set.
@Suite("trackerless rules --output DIR/: each list written as it is packed", .enabled(if: CommandRunner.isAvailable, "the trackerless executable was not built next to the tests"))
struct StreamedRuleSetTests {
    /// The names in `directory`.
    static func names(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    /// The lists of the set at `path`, by file name, without the sources.
    static func lists(_ path: String) throws -> [String: Data] {
        let generation = URL(fileURLWithPath: path).resolvingSymlinksInPath()
        var lists: [String: Data] = [:]
        for name in try names(in: generation) where !name.hasSuffix(".sources.json") {
            lists[name] = try Data(contentsOf: generation.appendingPathComponent(name))
        }
        return lists
    }

    /// Standard error without the line that varies from run to run.
    static func report(_ standardError: String) -> [Substring] {
        standardError.split(separator: "\n").filter { !$0.hasPrefix("peak memory") }
    }

    /// `count` trackers `t<i>.example`, each blocking by default with two rules, and `refused`,
    /// if given, a tracker whose url-filter WebKit would refuse (a host over 1 MiB) in their middle.
    static func blocklist(count: Int, refused: Bool) -> String {
        var trackers = (0..<count).map { index in
            let host = "t\(String(format: "%02d", index)).example"
            return #""\#(host)": {"domain": "\#(host)", "default": "block", "owner": {"name": "E\#(index % 3)"}, "#
                + #""rules": [{"rule": "\#(host)/a", "action": "ignore"}, {"rule": "\#(host)/b"}]}"#
        }
        if refused {
            let host = "t1" + String(repeating: "m", count: 1_100_000) + ".example"
            trackers.append(#""\#(host)": {"domain": "\#(host)", "default": "block"}"#)
        }
        let domains = (0..<count).map { #""t\#(String(format: "%02d", $0)).example": "E\#($0 % 3)""# }
        return #"{"trackers": {\#(trackers.joined(separator: ", "))}, "entities": {}, "domains": {\#(domains.joined(separator: ", "))}}"#
    }

    /// Writes `blocklist` in lists of 12 rules as a set written as packed (`streamed/`) and as one
    /// written once all are built (`--sources`: `collected/`) in `directory`, and checks that
    /// both runs succeed with the same report and the same lists; returns the streamed run's
    /// standard error.
    static func writeBoth(_ blocklist: String, in directory: URL) throws -> String {
        let tds = directory.appendingPathComponent("tds.json")
        try Data(blocklist.utf8).write(to: tds)
        let arguments = ["rules", "--tds", tds.path, "--max-rules", "12", "--report"]
        let streamed = try CommandRunner.run(arguments + ["--output", directory.appendingPathComponent("streamed").path + "/"])
        #expect(streamed.status == 0, "\(streamed.standardError.prefix(500))")
        // --sources takes the path that builds every list before writing any.
        let collected = try CommandRunner.run(arguments + ["--sources", "--output", directory.appendingPathComponent("collected").path + "/"])
        #expect(collected.status == 0, "\(collected.standardError.prefix(500))")
        let lists = try Self.lists(directory.appendingPathComponent("streamed").path)
        #expect(lists.count >= 4, "\(lists.keys.sorted())")
        #expect(lists == (try Self.lists(directory.appendingPathComponent("collected").path)))
        #expect(Self.report(streamed.standardError) == Self.report(collected.standardError))
        return streamed.standardError
    }

    @Test("a list WebKit would refuse, after lists already written: no partial generation, and the lists and report of the build that holds every list")
    func refusedListMidStream() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let standardError = try Self.writeBoth(Self.blocklist(count: 30, refused: true), in: directory)
        #expect(standardError.contains("WebKit would refuse"), "\(standardError.prefix(500))")
        // The link and its generation only: no temporary directory, and no file of the lists
        // written before the refused one.
        let streamedNames = try Self.names(in: directory).filter { $0.hasPrefix(".streamed") || $0 == "streamed" }
        #expect(streamedNames.count == 2 && streamedNames.allSatisfy { !$0.contains("tmp-") }, "\(streamedNames)")
        let generation = URL(fileURLWithPath: directory.appendingPathComponent("streamed").path).resolvingSymlinksInPath()
        let generationNames = try Self.names(in: generation)
        #expect(generationNames.allSatisfy { $0.hasPrefix("rules") }, "\(generationNames)")
    }

    @Test("valid lists: the set written as packed is the set written once all are built, file for file")
    func sameSetAsCollected() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try Self.writeBoth(Self.blocklist(count: 30, refused: false), in: directory)
        // Written again over itself: the same generation name.
        let set = directory.appendingPathComponent("streamed").path
        let first = URL(fileURLWithPath: set).resolvingSymlinksInPath().lastPathComponent
        let again = try CommandRunner.run(["rules", "--tds", directory.appendingPathComponent("tds.json").path, "--max-rules", "12", "--output", set + "/"])
        #expect(again.status == 0)
        #expect(URL(fileURLWithPath: set).resolvingSymlinksInPath().lastPathComponent == first)
    }
}

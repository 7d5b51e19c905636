import Foundation
import Testing

/// `rules --output`: one list to a file, several as one set that a kill never mixes.
@Suite("trackerless rules --output", .enabled(if: CommandRunner.isAvailable, "the trackerless executable was not built next to the tests"))
struct RuleSetOutputTests {
    /// The sample's rules in lists of at most 7, in two spellings that differ in every list.
    static let variants = [
        ["rules", "--max-rules", "7"],
        ["rules", "--max-rules", "7", "--site-conditions", "if-domain"],
    ]

    /// The lists a host reads from the set at `path`: the link resolved once, then rules.json,
    /// rules.2.json, ... until one is missing (rules --help).
    static func read(_ path: String) -> [Data] {
        let generation = URL(fileURLWithPath: path).resolvingSymlinksInPath()
        var lists: [Data] = []
        while let data = try? Data(contentsOf: generation.appendingPathComponent(lists.isEmpty ? "rules.json" : "rules.\(lists.count + 1).json")) {
            lists.append(data)
        }
        return lists
    }

    @Test("several lists go to DIR/ as one set; a single FILE is refused for them and kept for one list")
    func setAndSingleFile() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let set = directory.appendingPathComponent("rules").path
        let result = try CommandRunner.run(Self.variants[0] + ["--output", set + "/"])
        #expect(result.status == 0, "\(result.standardError)")
        let lists = Self.read(set)
        #expect(lists.count >= 3)
        for index in lists.indices {
            let file = set + "/" + (index == 0 ? "rules.json" : "rules.\(index + 1).json")
            let validate = try CommandRunner.run(["validate", file])
            #expect(validate.status == 0, "\(file): \(validate.standardOutput)")
        }
        let file = directory.appendingPathComponent("one.json").path
        let refused = try CommandRunner.run(Self.variants[0] + ["--output", file])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("--output DIR/"), "\(refused.standardError)")
        #expect(!FileManager.default.fileExists(atPath: file))
        let single = try CommandRunner.run(["rules", "--output", file])
        #expect(single.status == 0, "\(single.standardError)")
        var isDirectory: ObjCBool = true
        #expect(FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory) && !isDirectory.boolValue)
    }

    @Test("rules killed at random points while replacing a set of lists: a reader sees one whole set, never a mix")
    func killedWritesNeverMix() throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // The two sets, written whole first.
        var expected: [[Data]] = []
        for (index, variant) in Self.variants.enumerated() {
            let path = directory.appendingPathComponent("expected-\(index)").path
            let result = try CommandRunner.run(variant + ["--output", path + "/"])
            try #require(result.status == 0, "\(result.standardError)")
            expected.append(Self.read(path))
        }
        try #require(expected[0].count >= 3 && expected[1].count >= 3 && expected[0] != expected[1])
        for (first, second) in zip(expected[0], expected[1]) { try #require(first != second) }

        let set = directory.appendingPathComponent("rules").path
        let first = try CommandRunner.run(Self.variants[0] + ["--output", set + "/"])
        try #require(first.status == 0)
        // How long a whole run takes, to spread the kills over it.
        let start = Date()
        _ = try CommandRunner.run(Self.variants[1] + ["--output", directory.appendingPathComponent("timing").path + "/"])
        let runTime = Date().timeIntervalSince(start)
        let killed = try CommandRunner.killAtRandomPoints(
            attempts: 40, runTime: runTime, fractions: 0.2...1.1,
            arguments: { Self.variants[$0 % 2] + ["--output", set + "/"] }
        ) { attempt in
            let seen = Self.read(set)
            #expect(seen == expected[0] || seen == expected[1],
                    "attempt \(attempt): read \(seen.count) lists that are not one set")
        }
        #expect(killed > 0, "no run was killed: the kills came too late")
        // Whatever the kills left, the next whole run cleans up: the link, its generation and the previous one.
        let last = try CommandRunner.run(Self.variants[0] + ["--output", set + "/"])
        #expect(last.status == 0)
        #expect(Self.read(set) == expected[0])
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".rules.") }
        #expect(left.count <= 2 && left.allSatisfy { $0.count == ".rules.".count + 16 }, "\(left)")
    }
}

import Foundation
import Testing
import TrackerDataKit
import TrackerlessTestSupport

/// The protection set and its runtime through the C API: `c/protection_test.c` builds a runtime,
/// loads it again from the cache, refuses a bad update, applies a good one, toggles a site and
/// counts a load; these tests check what it printed.
extension CAPITests {
    /// The protection runtime's C host, built once per run.
    static let protectionProgram = compile("protection_test.c")

    /// A fresh temporary directory, removed by the caller.
    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trackerless-capi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// The JSON object after `name: ` on the line that starts so.
    static func object(_ name: String, in lines: [String]) throws -> [String: Any] {
        let line = try #require(lines.first { $0.hasPrefix(name + ": ") }, "no \(name) line in \(lines.map { $0.prefix(120) })")
        let json = try JSONSerialization.jsonObject(with: Data(line.dropFirst(name.count + 2).utf8))
        return try #require(json as? [String: Any], "\(name) is not an object")
    }

    @Test("a protection set through the C API: built, a second runtime on its cache refused, then loaded from the cache, its lists, scripts, engine and resolver; a bad update refused naming the tds, the set unchanged; a good update applied; a site toggled; a load counted; sets for two WebKits")
    func protectionSet() throws {
        let program = try Self.protectionProgram.get()
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tds = directory.appendingPathComponent("tds.json")
        try Data(TrackerData.sampleDocument.utf8).write(to: tds)
        // metrics.example blocked by default in the second blocklist.
        let other = directory.appendingPathComponent("other-tds.json")
        let changed = TrackerData.sampleDocument.replacingOccurrences(of: #""default": "ignore""#, with: #""default": "block""#)
        #expect(changed != TrackerData.sampleDocument)
        try Data(changed.utf8).write(to: other)

        let run = try ChildProcess.run(program, [
            directory.appendingPathComponent("cache").path, tds.path, other.path, "https://social.example/widget.js",
            "https://metrics.example/lib.js",
        ], logs: directory)
        #expect(run.status == 0, "\(run.output.suffix(2000))")
        let lines = run.output.split(separator: "\n").map(String.init)
        let passed = lines.filter { $0.hasPrefix("ok: ") }
        #expect(passed.count == 10, "\(passed)")
        #expect(passed.contains("ok: lists for the oldest WebKit and for WebKitGTK 2.52, two identities"), "\(passed)")
        #expect(passed.contains { $0.hasPrefix("ok: unknown WebKit refused: unknown WebKit target \"webkitgtk-1.0\"") }, "\(passed)")
        #expect(passed.contains("ok: user allowlist from bytes: shop.example off, news.example on"), "\(passed)")
        #expect(passed.contains { $0.hasPrefix("ok: second runtime refused: ") && $0.contains("/lock: the cache directory is in use by another runtime") }, "\(passed)")
        #expect(passed.contains { $0.hasPrefix("ok: no tds refused: inputs is NULL or has no tds") }, "\(passed)")
        #expect(passed.contains { $0.hasPrefix("ok: bad update refused: tds: downloaded-tds.json: ") && $0.contains("trackers") }, "\(passed)")
        #expect(passed.contains { $0.hasPrefix("ok: unwritable cache: ") }, "\(passed)")

        let info = try Self.object("info", in: lines)
        let cached = try Self.object("cached", in: lines)
        #expect(info["origin"] as? String == "built")
        #expect(cached["origin"] as? String == "cache")
        #expect((info["identity"] as? String)?.count == 64)
        #expect(info["identifier"] == nil, "the set identity is not called an identifier: \(info)")
        #expect(cached["identity"] as? String == info["identity"] as? String)

        let listsLine = try #require(lines.first { $0.hasPrefix("lists: ") })
        let lists = try #require(try JSONSerialization.jsonObject(with: Data(listsLine.dropFirst(7).utf8)) as? [[String: Any]])
        let infoLists = try #require(info["ruleLists"] as? [[String: Any]])
        #expect(!lists.isEmpty && lists.count == infoLists.count)
        for (list, described) in zip(lists, infoLists) {
            let identifier = try #require(list["identifier"] as? String)
            #expect(identifier.hasPrefix("trackerless-") && identifier == described["identifier"] as? String)
            let rules = try #require(list["rules"] as? [[String: Any]], "\(identifier) has no rules array")
            #expect(rules.count == list["ruleCount"] as? Int, "\(identifier)")
        }

        let classified = try Self.object("classified", in: lines)
        #expect(classified["action"] as? String == "block", "\(classified)")
        #expect(classified["tracker"] != nil)

        let off = try #require(lines.first { $0.hasPrefix("off: ") })
        #expect(off.hasPrefix("off: 0 {\"protected\":false,"), "\(off)")
        #expect(off.hasSuffix("\"ruleLists\":[],\"scripts\":[\"inference.js\"]}"), "\(off)")
        let on = try #require(lines.first { $0.hasPrefix("on: ") })
        #expect(on.hasPrefix("on: 1 {\"protected\":true,"), "\(on)")
        #expect(on.contains("\"scripts\":[\"blocking.js\",\"inference.js\"]"), "\(on)")

        let snapshot = try Self.object("snapshot", in: lines)
        #expect(snapshot["url"] as? String == "https://news.example/")
        #expect((snapshot["trackers"] as? [String: Any])?["blocked"] as? Int == 1, "\(snapshot)")
    }
}

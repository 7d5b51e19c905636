import Foundation
import Testing
import TrackerDataKit
import TrackerlessTestSupport

/// A C host's runtime on a cache it cannot write or read whole (`c/storage_fault_test.c`): it
/// starts from the cached set and protects, and `tl_runtime_storage_error` tells the host what
/// went wrong.
extension CAPITests {
    static let storageFaultProgram = compile("storage_fault_test.c")
    static let blockedURL = "https://social.example/widget.js"
    static let toggledHost = "news.example"

    /// Runs the program's `mode` on `cache` with the sample blocklist; its lines by name.
    static func storageFault(_ mode: String, cache: String, logs: URL) throws -> [String: String] {
        let program = try storageFaultProgram.get()
        let tds = logs.appendingPathComponent("tds.json")
        if !FileManager.default.fileExists(atPath: tds.path) { try Data(TrackerData.sampleDocument.utf8).write(to: tds) }
        let run = try ChildProcess.run(program, [mode, cache, tds.path, blockedURL, toggledHost], logs: logs)
        try #require(run.status == 0, "\(mode): \(run.output.suffix(2000))")
        var lines: [String: String] = [:]
        for line in run.output.split(separator: "\n") {
            guard let separator = line.range(of: ": ") else { continue }
            lines[String(line[..<separator.lowerBound])] = String(line[separator.upperBound...])
        }
        return lines
    }

    @Test("a C host's runtime on a full or read-only cache: starts from the whole cached set, blocks as it does, keeps the toggles, and tl_runtime_storage_error names the totals it could not save",
          SmallFileSystem.mountAllowed, arguments: SmallFileSystem.Fault.allCases)
    func runtimeOnFaultyDisk(fault: SmallFileSystem.Fault) throws {
        let logs = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        try SmallFileSystem.with(size: 8 << 20) { disk in
            let cache = disk.path + "/cache"
            let prepared = try Self.storageFault("prepare", cache: cache, logs: logs)
            #expect(prepared["storage error"] == "none")
            #expect(prepared["refused host"]?.contains("https://\(Self.toggledHost)/") == true, "\(prepared)")
            #expect(prepared["empty cache path"]?.contains("the path is empty") == true, "\(prepared)")
            try disk.apply(fault)

            let launched = try Self.storageFault("launch", cache: cache, logs: logs)
            #expect(launched["origin"] == "cache", "\(launched)")
            #expect(launched["blocked"] == "1", "\(launched)")
            #expect(launched["site protection"] == "0", "\(launched)")
            let save = try #require(launched["save"])
            #expect(save.contains(cache + "/privacy-totals") && save.contains(fault.reason), "\(save)")
            let reported = try #require(launched["storage error"])
            #expect(reported.contains(cache + "/privacy-totals") && reported.contains("totals are not saved"), "\(reported)")
        }
    }

    @Test("a C host's runtime on an empty cache directory of a read-only disk: builds and protects, and tl_runtime_storage_error names the set it could not write",
          SmallFileSystem.mountAllowed)
    func runtimeOnReadOnlyEmptyCache() throws {
        let logs = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        try SmallFileSystem.with(size: 1 << 20) { disk in
            let cache = disk.path + "/cache"
            try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: false)
            try disk.remountReadOnly()

            let launched = try Self.storageFault("launch", cache: cache, logs: logs)
            #expect(launched["origin"] == "built", "\(launched)")
            #expect(launched["blocked"] == "1", "\(launched)")
            let reported = try #require(launched["storage error at launch"])
            #expect(reported.contains(cache + "/") && reported.contains(SmallFileSystem.Fault.readOnly.reason), "\(reported)")
            #expect(SmallFileSystem.tree(cache).isEmpty)
        }
    }

    @Test("a C host's runtime whose site toggles file is damaged: toggled sites are protected again, and tl_runtime_storage_error names the file")
    func unreadableToggles() throws {
        let logs = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        let cache = logs.appendingPathComponent("cache").path
        _ = try Self.storageFault("prepare", cache: cache, logs: logs)
        let toggles = URL(fileURLWithPath: cache + "/protection-off.json")
        let written = try Data(contentsOf: toggles)
        #expect(String(decoding: written, as: UTF8.self).contains(Self.toggledHost))
        try written.prefix(written.count / 2).write(to: toggles)

        let launched = try Self.storageFault("launch", cache: cache, logs: logs)
        #expect(launched["origin"] == "cache", "\(launched)")
        #expect(launched["site protection"] == "1", "\(launched)")
        let reported = try #require(launched["storage error at launch"])
        #expect(reported.contains(cache + "/protection-off.json"), "\(reported)")
        #expect(launched["save"] == "ok", "\(launched)")
    }
}

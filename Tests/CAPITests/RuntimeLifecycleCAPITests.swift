import Foundation
import Testing
import TrackerDataKit
import TrackerlessTestSupport

/// A C host's runtime over its lifetime (`c/runtime_lifecycle_test.c`): settings that do not reset
/// each other, totals saved and read, storage errors reported, and statistics handles that
/// outlive their runtime without holding its cache.
extension CAPITests {
    static let lifecycleProgram = compile("runtime_lifecycle_test.c")

    @Test("a C host's runtime: GPC and blockKeepalive kept by tl_inputs_set_scripts, blockKeepalive in the blocking script; totals saved and read; a freed runtime's statistics handle does not hold the cache, and its totals are found by the next runtime; an unopenable store reported, saving it an error")
    func runtimeLifecycle() throws {
        let program = try Self.lifecycleProgram.get()
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tds = directory.appendingPathComponent("tds.json")
        try Data(TrackerData.sampleDocument.utf8).write(to: tds)
        let broken = directory.appendingPathComponent("broken")
        try FileManager.default.createDirectory(at: broken.appendingPathComponent("privacy-totals"), withIntermediateDirectories: true)

        let run = try ChildProcess.run(program, [
            directory.appendingPathComponent("cache").path, broken.path, tds.path, "https://social.example/widget.js",
        ], logs: directory)
        #expect(run.status == 0, "\(run.output.suffix(2000))")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("ok: ") }.count == 5, "\(lines)")
        #expect(lines.contains("ok: unload beacons decided in the blocking script, kept by tl_inputs_set_scripts"), "\(lines)")

        func lifetime(_ name: String) throws -> [String: Any] {
            try #require(try Self.object(name, in: lines)["lifetime"] as? [String: Any], "\(name) has no lifetime")
        }
        let saved = try lifetime("totals")
        #expect(saved["pages"] as? Int == 2 && saved["trackersBlocked"] as? Int == 1, "\(saved)")
        // The freed runtime's handle counts on in memory; the next runtime read what was saved.
        #expect(try lifetime("old handle")["pages"] as? Int == 3)
        let relaunched = try lifetime("relaunched")
        #expect(relaunched["pages"] as? Int == 2 && relaunched["trackersBlocked"] as? Int == 1, "\(relaunched)")

        let storage = try #require(lines.first { $0.hasPrefix("storage error: ") })
        #expect(storage.contains("privacy-totals") && storage.contains("totals are not saved"), "\(storage)")
        let save = try #require(lines.first { $0.hasPrefix("save error: ") })
        #expect(save.contains("privacy-totals"), "\(save)")
    }
}

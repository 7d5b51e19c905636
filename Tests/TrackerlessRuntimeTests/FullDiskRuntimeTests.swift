import ContentRuleList
import Foundation
import PrivacyStatsKit
import Testing
import TrackerlessRuntime
import TrackerlessTestSupport

/// The runtime on a real full or read-only disk (a tmpfs of its own, filled to ENOSPC or
/// remounted read-only): it protects from a whole cached set, an update never leaves a half-written
/// cache, acknowledged totals are kept, and every failure names its file.
@Suite("Runtime on a full or read-only file system", SmallFileSystem.mountAllowed)
struct FullDiskRuntimeTests {
    /// Room for the sample's set, its statistics and an update's set, before a test fills it.
    static let size = 8 << 20
    static let tracker = Request(url: "https://social.example/widget.js", topURL: "https://news.example/", resourceType: .script)
    static let firstParty = Request(url: "https://news.example/app.js", topURL: "https://news.example/", resourceType: .script)
    static let pixel = Request(url: "https://pixel.example/p.gif", topURL: "https://news.example/", resourceType: .image)

    @Test("started from a whole cached set on a full or read-only disk: protects as the set decides, and the first save names the file it could not write",
          arguments: SmallFileSystem.Fault.allCases)
    func launch(fault: SmallFileSystem.Fault) throws {
        try SmallFileSystem.with(size: Self.size) { disk in
            let cache = disk.path + "/cache"
            let built = try ProtectionSet.load(RuntimeFixture.inputs, cacheDirectory: cache)
            #expect(built.engine.decision(for: Self.tracker).isBlocked)
            try disk.apply(fault)

            let runtime = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: cache)
            #expect(runtime.currentSet.identity == built.identity)
            #expect(runtime.currentSet.origin == .cache)
            for request in [Self.tracker, Self.firstParty] {
                #expect(runtime.currentSet.engine.decision(for: request) == built.engine.decision(for: request), "\(request.url)")
            }
            #expect(runtime.navigationPlan(for: "https://news.example/").protectionSet === runtime.currentSet)

            runtime.didCommitNavigation(tab: "1", url: "https://news.example/")
            runtime.didCommitNavigation(tab: "1", url: "https://news.example/next")
            do {
                try runtime.saveStatistics()
                Issue.record("saving the totals on a \(fault) disk succeeded")
            } catch {
                #expect("\(error)".contains(cache + "/privacy-totals"), "\(error)")
            }
            let reported = try #require(runtime.lastStorageError)
            #expect("\(reported)".contains(cache + "/privacy-totals") && "\(reported)".contains("totals are not saved"), "\(reported)")
            // Still protecting after the failed write.
            #expect(runtime.currentSet.engine.decision(for: Self.tracker).isBlocked)
        }
    }

    @Test("an update on a disk that fills while its set is written: applied in memory, the failure names a file of the cache, and the next launch reads one whole set, never a half-written one",
          arguments: [0, 4096, 65_536])
    func update(room: Int) async throws {
        try await SmallFileSystem.with(size: Self.size) { disk in
            let cache = disk.path + "/cache"
            let old: String
            do {
                let runtime = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: cache)
                old = runtime.currentSet.identity
                try disk.fill(leaving: room)
                let before = SmallFileSystem.tree(cache)
                let updated = try await runtime.update(RuntimeFixture.updatedInputs)
                #expect(runtime.currentSet === updated)
                #expect(updated.engine.decision(for: Self.pixel).isBlocked)
                let error = try #require(runtime.lastStorageError, "a set written whole with \(room) bytes free")
                #expect("\(error)".contains(cache + "/"), "\(error)")
                // The cache as it was: no generation, link or temporary of the failed write left.
                #expect(SmallFileSystem.tree(cache) == before)
            }
            disk.makeRoom()
            let relaunched = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: cache)
            #expect(relaunched.currentSet.origin == .cache)
            #expect(relaunched.currentSet.identity == old)
        }
    }

    /// The store of `directory` opened from a copy (the runtime holds the original's lock):
    /// its totals, and what it found damaged.
    static func savedStore(in directory: String) throws -> (totals: TotalsSnapshot, notes: [String]) {
        let copy = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: copy) }
        for name in ["privacy-totals", "privacy-totals.journal"] where FileManager.default.fileExists(atPath: directory + "/" + name) {
            try FileManager.default.copyItem(atPath: directory + "/" + name, toPath: copy + "/" + name)
        }
        let store = try StatsStore(path: copy + "/privacy-totals")
        return (store.totals, store.recoveryNotes)
    }

    @Test("the totals on a disk that fills while pages are counted: every count a save acknowledged is kept, the failed save names the file and leaves no torn record, and the counts since are saved once there is room")
    func statistics() throws {
        try SmallFileSystem.with(size: Self.size) { disk in
            let cache = disk.path + "/cache"
            let runtime = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: cache)
            runtime.didCommitNavigation(tab: "1", url: "https://news.example/")
            #expect(runtime.didObserve(NativeObservation(url: Self.tracker.url, type: .script, outcome: .blocked), tab: "1"))
            try runtime.saveStatistics()
            try disk.fill()

            // A page and a save at a time, until the journal's last block is full too.
            var acknowledged = 1
            var failure: (any Error)?
            for page in 2...2_000 {
                runtime.didCommitNavigation(tab: "1", url: "https://news.example/\(page)")
                do {
                    try runtime.saveStatistics()
                    acknowledged = page
                } catch {
                    failure = error
                    break
                }
            }
            let error = try #require(failure, "2,000 saves fitted on a full disk")
            #expect("\(error)".contains(cache + "/privacy-totals") && "\(error)".contains(SmallFileSystem.Fault.full.reason), "\(error)")
            let reported = try #require(runtime.lastStorageError)
            #expect("\(reported)".contains(cache + "/privacy-totals"), "\(reported)")
            // On the disk: exactly the acknowledged totals, and no damaged record beside them.
            let kept = try Self.savedStore(in: cache)
            #expect(kept.totals.lifetime.pages == acknowledged && kept.totals.lifetime.trackersBlocked == 1, "\(kept.totals.lifetime), \(acknowledged) acknowledged")
            #expect(kept.notes.isEmpty, "\(kept.notes)")
            #expect(!SmallFileSystem.tree(cache).contains { $0.contains("corrupt") || $0.contains(".tmp-") }, "\(SmallFileSystem.tree(cache))")

            disk.makeRoom()
            try runtime.saveStatistics()
            #expect(runtime.lastStorageError == nil)
            let saved = try Self.savedStore(in: cache)
            #expect(saved.totals.lifetime.pages == acknowledged + 1 && saved.totals.lifetime.trackersBlocked == 1, "\(saved.totals.lifetime)")
            withExtendedLifetime(runtime) {}
        }
    }
}

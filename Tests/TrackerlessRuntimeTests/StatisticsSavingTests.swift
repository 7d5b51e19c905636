import Foundation
import PrivacyStatsKit
import Testing
import TrackerDataKit
import TrackerlessRuntime

/// The totals reach the disk without the host asking: soon after a page ends, and within a while
/// of any count; the host's own save (going to the background, quitting) writes the rest.
@Suite("Runtime: the statistics' totals are saved by themselves")
struct StatisticsSavingTests {
    /// The totals the store files of `directory` hold, read from copies (the runtime holds the
    /// originals' lock).
    static func savedTotals(in directory: String) throws -> TotalsSnapshot {
        let copy = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: copy) }
        for name in ["privacy-totals", "privacy-totals.journal"] {
            try FileManager.default.copyItem(atPath: directory + "/" + name, toPath: copy + "/" + name)
        }
        return try StatsStore(path: copy + "/privacy-totals").totals
    }

    /// Waits up to `seconds` for the journal of `directory` to hold a record.
    static func waitForRecord(in directory: String, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            let size = (try? FileManager.default.attributesOfItem(atPath: directory + "/privacy-totals.journal")[.size] as? Int) ?? 0
            if size > 0 { return true }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        return false
    }

    @Test("a page's end writes the totals, with no flush by the host")
    func savedAfterPageEnd() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let runtime = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory)
        runtime.didCommitNavigation(tab: "1", url: "https://news.example/")
        #expect(runtime.didObserve(NativeObservation(url: "https://social.example/widget.js", type: .script, outcome: .blocked), tab: "1"))
        #expect(try Self.savedTotals(in: directory).lifetime.pages == 0)
        runtime.didCommitNavigation(tab: "1", url: "https://news.example/next")
        #expect(Self.waitForRecord(in: directory, seconds: 20), "no record written after the page ended")
        let saved = try Self.savedTotals(in: directory)
        #expect(saved.lifetime.pages == 2)
        #expect(saved.lifetime.trackersBlocked == 1)
        withExtendedLifetime(runtime) {}
    }

    @Test("a closed tab's page is written too")
    func savedAfterTabClosed() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let runtime = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory)
        runtime.didCommitNavigation(tab: "7", url: "https://news.example/")
        runtime.didCloseTab("7")
        #expect(Self.waitForRecord(in: directory, seconds: 20), "no record written after the tab closed")
        #expect(try Self.savedTotals(in: directory).lifetime.pages == 1)
        withExtendedLifetime(runtime) {}
    }

    @Test("a count within a page is written within the schedule's delay, without the page ending")
    func savedAfterCount() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let resolver = TrackerResolver(trackerData: try TrackerData(parsing: Array(TrackerData.sampleDocument.utf8), file: "tds.json"))
        let stats = PrivacyStats(
            resolver: resolver, secrets: [], store: try StatsStore(path: directory + "/privacy-totals"),
            saving: SavingSchedule(afterPageEnd: nil, afterCount: 0.2))
        stats.didCommitNavigation(tab: "1", url: "https://news.example/")
        #expect(Self.waitForRecord(in: directory, seconds: 20), "no record written after a count")
        #expect(stats.lastSavingError == nil)
    }

    @Test("the manual schedule writes only on flush")
    func manual() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let resolver = TrackerResolver(trackerData: try TrackerData(parsing: Array(TrackerData.sampleDocument.utf8), file: "tds.json"))
        let stats = PrivacyStats(resolver: resolver, secrets: [], store: try StatsStore(path: directory + "/privacy-totals"), saving: .manual)
        stats.didCommitNavigation(tab: "1", url: "https://news.example/")
        stats.didCommitNavigation(tab: "1", url: "https://news.example/2")
        #expect(!Self.waitForRecord(in: directory, seconds: 1.5))
        #expect(stats.hasUnflushedTotals)
        try stats.flush()
        #expect(!stats.hasUnflushedTotals)
        #expect(Self.waitForRecord(in: directory, seconds: 0))
    }

    @Test("saveStatistics writes what the schedule has not yet")
    func hostSaves() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let runtime = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory)
        runtime.didCommitNavigation(tab: "1", url: "https://news.example/")
        try runtime.saveStatistics()
        #expect(try Self.savedTotals(in: directory).lifetime.pages == 1)
        #expect(runtime.lastStorageError == nil)
    }
}

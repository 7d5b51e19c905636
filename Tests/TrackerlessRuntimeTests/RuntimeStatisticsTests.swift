import Foundation
import PrivacyStatsKit
import Testing
import TrackerlessRuntime

@Suite("Runtime statistics: tabs and totals survive an update")
struct RuntimeStatisticsTests {
    @Test("a tab open across an update keeps its counts, its page still reports, and the next page is classified by the new set")
    func tabAcrossUpdate() async throws {
        let directory = try RuntimeFixture.directory()
        let page = "https://news.example/today"
        do {
            let runtime = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory)
            runtime.didCommitNavigation(tab: "1", url: page)
            let first = RuntimeFixture.message(
                secret: runtime.secret, page: page, requests: [("https://social.example/widget.js", "script", "failed")])
            #expect(runtime.receive(.json(first), tab: "1").isAccepted)
            #expect(runtime.stats.snapshot(tab: "1").trackers.blocked == 1)

            try await runtime.update(trackerData: RuntimeFixture.updatedInputs.trackerData)

            // The page loaded before the update: counts kept, its scripts' next message counted.
            #expect(runtime.stats.snapshot(tab: "1").trackers.blocked == 1)
            let second = RuntimeFixture.message(
                secret: runtime.currentSet.secret, page: page, sequence: 1,
                requests: [("https://ads.example/banner.png", "image", "failed")])
            #expect(runtime.receive(.json(second), tab: "1").isAccepted)
            #expect(runtime.stats.snapshot(tab: "1").trackers.blocked == 2)
            // pixel.example is a tracker of the new set only; the open page was classified by
            // the old one, the next page by the new one.
            let pixel = [("https://pixel.example/p.gif", "image", "failed")]
            _ = runtime.receive(.json(RuntimeFixture.message(secret: runtime.secret, page: page, sequence: 2, requests: pixel)), tab: "1")
            #expect(runtime.stats.snapshot(tab: "1").trackers.blocked == 2)
            runtime.didCommitNavigation(tab: "1", url: page)
            _ = runtime.receive(.json(RuntimeFixture.message(secret: runtime.secret, page: page, document: "fedcba9876543210", requests: pixel)), tab: "1")
            #expect(runtime.stats.snapshot(tab: "1").trackers.blocked == 1)
            #expect(runtime.stats.snapshot(tab: "1").companies.map(\.company.displayName) == ["Example Pixel"])

            // A message with another secret is refused.
            let forged = RuntimeFixture.message(secret: .random(), page: page, document: "fedcba9876543210", sequence: 1, requests: pixel)
            #expect(runtime.receive(.json(forged), tab: "1") == .rejected(.wrongSecret))

            runtime.didCloseTab("1")
            #expect(runtime.stats.tabIDs().isEmpty)
            #expect(runtime.stats.totals().lifetime.pages == 2)
            #expect(runtime.stats.totals().lifetime.trackersBlocked == 3)
            try runtime.stats.flush()
        }
        // Totals are in the crash-safe store of the cache directory.
        let relaunched = try ProtectionRuntime(inputs: RuntimeFixture.updatedInputs, cacheDirectory: directory)
        #expect(relaunched.stats.totals().lifetime.pages == 2)
        #expect(relaunched.stats.totals().lifetime.trackersBlocked == 3)
    }
}

import PrivacyStatsKit
import Testing
import TrackerDataKit

@Suite("PrivacyStats.setResolver: a new blocklist without losing tabs or totals")
struct ResolverReplacementTests {
    @Test("open pages keep their counts and resolver; the next page is classified by the new one")
    func replaceResolver() throws {
        let stats = PrivacyStats(resolver: StatsFixture.resolver, secrets: [StatsFixture.secret])
        stats.didCommitNavigation(tab: "1", url: "https://site.test/")
        let newcomer = StatsFixture.request("https://newcomer.test/n.js")
        _ = stats.receive(StatsFixture.message([newcomer]), tab: "1")
        #expect(stats.snapshot(tab: "1").trackers.blocked == 0)   // not a tracker of the fixture

        // The same blocklist with newcomer.test as a blocked tracker.
        let text = StatsFixture.trackerData.replacingOccurrences(
            of: #""fp.test": {"#,
            with: #""newcomer.test": {"domain": "newcomer.test", "owner": {"name": "Newcomer"}, "default": "block"}, "fp.test": {"#)
        let updated = TrackerResolver(trackerData: try TrackerData(parsing: Array(text.utf8)), surrogates: StatsFixture.resolver.surrogates)
        stats.setResolver(updated)
        #expect(stats.resolver.trackerData.trackers["newcomer.test"] != nil)

        // The open page: same counts, still classified by the resolver it started with.
        _ = stats.receive(StatsFixture.message([newcomer], sequence: 1), tab: "1")
        #expect(stats.snapshot(tab: "1").requests.observed == 1)
        #expect(stats.snapshot(tab: "1").trackers.blocked == 0)
        // The next page: the new resolver.
        stats.didCommitNavigation(tab: "1", url: "https://site.test/")
        _ = stats.receive(StatsFixture.message([newcomer], document: "bbbbbbbbbbbbbbbb"), tab: "1")
        #expect(stats.snapshot(tab: "1").trackers.blocked == 1)
        #expect(stats.totals().lifetime.pages == 2)
    }
}

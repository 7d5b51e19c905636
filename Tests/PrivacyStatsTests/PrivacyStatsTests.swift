import Foundation
import PrivacyStatsKit
import Testing
import TrackerlessCore

@Suite("PrivacyStats: tabs, pages, secrets and totals")
struct PrivacyStatsTests {
    /// 2026-11-18 (a Wednesday of ISO week 2026-W47), noon UTC.
    static let wednesday: Double = 1_795_003_200

    func stats(store: StatsStore? = nil) -> PrivacyStats {
        PrivacyStats(resolver: StatsFixture.resolver, secrets: [StatsFixture.secret], store: store) { Self.wednesday }
    }

    @Test("a message for a tab without a page is rejected; one with the wrong secret too; both are counted")
    func rejections() {
        let stats = stats()
        let message = StatsFixture.message([StatsFixture.request("https://ads.tracker.test/x.js")])
        #expect(stats.receive(StatsFixture.body(message), tab: "1") == .rejected(.unknownTab))
        stats.didCommitNavigation(tab: "1", url: "https://site.test/")
        let forged = StatsFixture.message(
            [StatsFixture.request("https://ads.tracker.test/x.js")], secret: "ffffffffffffffffffffffffffffffff")
        #expect(stats.receive(StatsFixture.body(forged), tab: "1") == .rejected(.wrongSecret))
        #expect(stats.receive(.json("{"), tab: "1") == .rejected(.malformedJSON))
        #expect(stats.snapshot(tab: "1").requests.observed == 0)
        #expect(stats.receive(StatsFixture.body(message), tab: "1") == .accepted(events: 1))
        let counts = stats.rejections()
        #expect(counts[.unknownTab] == 1)
        #expect(counts[.wrongSecret] == 1)
        #expect(counts[.malformedJSON] == 1)
        #expect(counts[.oversized] == 0)
    }

    @Test("a main-frame navigation resets the page; late messages of the old document count on the page that ended, not the new one")
    func navigationResets() {
        let stats = stats()
        stats.didCommitNavigation(tab: "1", url: "https://site.test/")
        let first = StatsFixture.message([StatsFixture.request("https://ads.tracker.test/x.js")], document: "1111111111111111")
        #expect(stats.receive(StatsFixture.body(first), tab: "1").isAccepted)
        #expect(stats.snapshot(tab: "1").trackers.blocked == 1)

        stats.didCommitNavigation(tab: "1", url: "https://site.test/next")
        #expect(stats.snapshot(tab: "1").trackers.blocked == 0)
        #expect(stats.snapshot(tab: "1").url == "https://site.test/next")
        let late = StatsFixture.message(
            [StatsFixture.request("https://pixel.tracker.test/p.gif", .image)], document: "1111111111111111", sequence: 1)
        // What the old document sends while it goes away (its unload beacon) completes its own
        // page's snapshot.
        #expect(stats.pageNumber(tab: "1") == 2)
        #expect(stats.receive(StatsFixture.body(late), tab: "1") == .accepted(events: 1))
        #expect(stats.snapshot(tab: "1").requests.observed == 0)
        #expect(stats.snapshot(tab: "1", page: 1)?.requests.observed == 2)
        #expect(stats.snapshot(tab: "1", page: 1)?.url == "https://site.test/")
        #expect(stats.snapshot(tab: "1", page: 2)?.url == "https://site.test/next")
        #expect(stats.snapshot(tab: "1", page: 3) == nil)
        let second = StatsFixture.message(
            [StatsFixture.request("https://social.test/s.js")], page: "https://site.test/next", document: "2222222222222222")
        #expect(stats.receive(StatsFixture.body(second), tab: "1").isAccepted)
        let other = StatsFixture.message(
            [StatsFixture.request("https://fp.test/f.js")], page: "https://site.test/next", document: "3333333333333333")
        #expect(stats.receive(StatsFixture.body(other), tab: "1") == .rejected(.stalePage))
        #expect(stats.snapshot(tab: "1").companies.map(\.company.name) == ["Social Corp"])
    }

    @Test("back/forward cache: the earlier page's own document reporting again brings its counts back")
    func backForwardCache() {
        let stats = stats()
        stats.didCommitNavigation(tab: "1", url: "https://site.test/a")
        let first = StatsFixture.message(
            [StatsFixture.request("https://ads.tracker.test/x.js")], page: "https://site.test/a", document: "1111111111111111")
        #expect(stats.receive(StatsFixture.body(first), tab: "1").isAccepted)
        stats.didCommitNavigation(tab: "1", url: "https://site.test/b")
        let second = StatsFixture.message(
            [StatsFixture.request("https://social.test/s.js")], page: "https://site.test/b", document: "2222222222222222")
        #expect(stats.receive(StatsFixture.body(second), tab: "1").isAccepted)

        stats.didCommitNavigation(tab: "1", url: "https://site.test/a")  // back, from the page cache
        let again = StatsFixture.message(
            [StatsFixture.request("https://fp.test/f.js")], page: "https://site.test/a", document: "1111111111111111",
            sequence: 1)
        #expect(stats.receive(StatsFixture.body(again), tab: "1").isAccepted)
        #expect(stats.snapshot(tab: "1").companies.map(\.company.name).sorted() == ["FP Ltd", "Tracker Inc"])
        #expect(stats.receive(StatsFixture.body(again), tab: "1").isAccepted)
        // Page b's document is not brought back on page a's URL: it counts on page b, which ended.
        stats.didCommitNavigation(tab: "1", url: "https://site.test/a")
        #expect(stats.receive(StatsFixture.body(second), tab: "1").isAccepted)
        #expect(stats.snapshot(tab: "1").requests.observed == 0)
        #expect(stats.snapshot(tab: "1", page: 2)?.url == "https://site.test/b")
        // A document that never reported for a page is no ended page's.
        let unknown = StatsFixture.message(
            [StatsFixture.request("https://fp.test/f.js")], page: "https://old.test/b", document: "4444444444444444")
        #expect(stats.receive(StatsFixture.body(unknown), tab: "1") == .rejected(.stalePage))
    }

    @Test("the blocking and inference scripts of one document have their own ids; both count")
    func twoScripts() {
        let stats = stats()
        stats.didCommitNavigation(tab: "1", url: "https://site.test/")
        let inference = StatsFixture.message(
            [StatsFixture.request("https://ads.tracker.test/x.js")], document: "1111111111111111", script: .inference)
        let blocking = StatsFixture.message(
            [.surrogate(url: "https://analytics.test/a.js", surrogate: "analytics.js")], document: "2222222222222222",
            script: .blocking)
        #expect(stats.receive(StatsFixture.body(inference), tab: "1").isAccepted)
        #expect(stats.receive(StatsFixture.body(blocking), tab: "1").isAccepted)
        let intruder = StatsFixture.message([StatsFixture.request("https://fp.test/f.js")], document: "3333333333333333", script: .blocking)
        #expect(stats.receive(StatsFixture.body(intruder), tab: "1") == .rejected(.stalePage))
        #expect(stats.snapshot(tab: "1").surrogates.count == 1)
        #expect(stats.snapshot(tab: "1").trackers.blocked == 2)  // ads.tracker.test, and analytics.test the surrogate replaced
    }

    @Test("--block-in-script without a rule list: the surrogate ran and the script loaded too, in either order: a load")
    func surrogateAndLoad() {
        let url = "https://analytics.test/a.js"
        let blocking = StatsFixture.body(StatsFixture.message(
            [.surrogate(url: url, surrogate: "analytics.js")], document: "2222222222222222", script: .blocking))
        let inference = StatsFixture.body(StatsFixture.message(
            [StatsFixture.request(url, .script, .loaded)], document: "1111111111111111", script: .inference))
        for (order, bodies) in [("surrogate first", [blocking, inference]), ("load first", [inference, blocking])] {
            let stats = stats()
            stats.didCommitNavigation(tab: "1", url: "https://site.test/")
            for body in bodies { #expect(stats.receive(body, tab: "1").isAccepted, "\(order)") }
            let snapshot = stats.snapshot(tab: "1")
            #expect(snapshot.trackers.blocked == 0, "\(order)")
            #expect(snapshot.trackers.allowed == 1, "\(order)")
            #expect(snapshot.allowedReasons.first { $0.reason == .protectionsOff }?.trackers == 1, "\(order)")
            #expect(snapshot.surrogates == [.init(surrogate: "analytics.js", host: "analytics.test")], "\(order)")
            #expect(snapshot.companies.first?.hosts.map(\.state) == [.allowed(.protectionsOff)], "\(order)")
        }
    }

    @Test("a top-frame document of another site cannot claim the page")
    func otherSite() {
        let stats = stats()
        stats.didCommitNavigation(tab: "1", url: "https://site.test/")
        let previous = StatsFixture.message([StatsFixture.request("https://ads.tracker.test/x.js")], page: "https://old.test/")
        #expect(stats.receive(StatsFixture.body(previous), tab: "1") == .rejected(.stalePage))
    }

    @Test("iframes count towards the page that holds them, classified against the top site")
    func iframes() {
        let stats = stats()
        stats.didCommitNavigation(tab: "1", url: "https://site.test/")
        let frame = StatsFixture.message(
            [StatsFixture.request("https://ads.tracker.test/x.js"), .navigation(url: "https://frame.test/#x")],
            page: "https://site.test/", frame: "https://frame.test/", isTopFrame: false, document: "ffffffffffffffff")
        #expect(stats.receive(StatsFixture.body(frame), tab: "1").isAccepted)
        // The tracker allowlist entry applies on site.test, the top site, not on frame.test.
        let allowlisted = StatsFixture.message(
            [StatsFixture.request("https://tracker.test/widget.js", .script, .loaded)],
            page: "https://site.test/", frame: "https://frame.test/", isTopFrame: false, document: "ffffffffffffffff")
        #expect(stats.receive(StatsFixture.body(allowlisted), tab: "1").isAccepted)
        let snapshot = stats.snapshot(tab: "1")
        #expect(snapshot.trackers.blocked == 1)
        #expect(snapshot.allowedReasons.first { $0.reason == .trackerAllowlist }?.trackers == 1)
        #expect(snapshot.url == "https://site.test/")  // a frame's navigation is not the page's
        let elsewhere = StatsFixture.message(
            [StatsFixture.request("https://fp.test/f.js")], page: "https://old.test/", frame: "https://frame.test/",
            isTopFrame: false, document: "eeeeeeeeeeeeeeee")
        #expect(stats.receive(StatsFixture.body(elsewhere), tab: "1") == .rejected(.stalePage))
    }

    @Test("same-document navigations keep the page and update its URL")
    func sameDocumentNavigation() {
        let stats = stats()
        stats.didCommitNavigation(tab: "1", url: "https://site.test/")
        let message = StatsFixture.message([
            StatsFixture.request("https://ads.tracker.test/x.js"), .navigation(url: "https://site.test/page/2"),
        ])
        #expect(stats.receive(StatsFixture.body(message), tab: "1").isAccepted)
        #expect(stats.snapshot(tab: "1").url == "https://site.test/page/2")
        #expect(stats.snapshot(tab: "1").trackers.blocked == 1)
    }

    @Test("tabs are separate; closing one forgets its page")
    func tabs() {
        let stats = stats()
        stats.didCommitNavigation(tab: "1", url: "https://site.test/")
        stats.didCommitNavigation(tab: "2", url: "https://other.test/")
        _ = stats.receive(StatsFixture.body(StatsFixture.message([StatsFixture.request("https://ads.tracker.test/x.js")])), tab: "1")
        #expect(stats.snapshot(tab: "1").trackers.blocked == 1)
        #expect(stats.snapshot(tab: "2").trackers.blocked == 0)
        #expect(stats.tabIDs() == ["1", "2"])
        stats.closeTab("1")
        #expect(stats.tabIDs() == ["2"])
        #expect(stats.snapshot(tab: "1") == .empty(tab: "1"))
    }

    @Test("totals: pages and first-seen trackers, per site, per ISO week and lifetime; repeats do not add")
    func totals() {
        let stats = stats()
        stats.didCommitNavigation(tab: "1", url: "https://www.site.test/")
        let message = StatsFixture.message(
            [StatsFixture.request("https://ads.tracker.test/x.js"), StatsFixture.request("https://analytics.test/other.js", .script, .loaded)],
            page: "https://www.site.test/")
        _ = stats.receive(StatsFixture.body(message), tab: "1")
        _ = stats.receive(StatsFixture.body(message), tab: "1")
        stats.didCommitNavigation(tab: "1", url: "https://www.site.test/2")
        let totals = stats.totals()
        #expect(totals.lifetime.pages == 2)
        #expect(totals.lifetime.trackersBlocked == 1)
        #expect(totals.lifetime.trackersAllowed == 1)
        #expect(totals.lifetime.companiesBlocked == ["Tracker Inc": 1])
        #expect(totals.weeks.keys.sorted() == ["2026-W47"])
        #expect(totals.weeks["2026-W47"] == totals.lifetime)
        #expect(totals.sites["site.test"]?.trackersBlocked == 1)
        #expect(totals.sites["site.test"]?.companiesBlocked == [:])
    }

    @Test("totals follow the page's final entries: a surrogate then `loaded` for its URL counts allowed only, also on disk")
    func totalsTakeBackASurrogateBlock() throws {
        let url = "https://analytics.test/a.js"
        let path = try StatsStoreTests.directory() + "/totals"
        let clock = TestClock(Self.wednesday)
        do {
            let stats = PrivacyStats(
                resolver: StatsFixture.resolver, secrets: [StatsFixture.secret], store: try StatsStore(path: path),
                clock: clock.read)
            stats.didCommitNavigation(tab: "1", url: "https://site.test/")
            let surrogate = StatsFixture.message(
                [.surrogate(url: url, surrogate: "analytics.js")], document: "2222222222222222", script: .blocking)
            #expect(stats.receive(StatsFixture.body(surrogate), tab: "1").isAccepted)
            #expect(stats.totals().lifetime.trackersBlocked == 1)
            try stats.flush()  // the block is in the journal before the load is reported
            clock.set(Self.wednesday + 7 * 86_400)  // the load arrives in the next ISO week
            let load = StatsFixture.message([StatsFixture.request(url, .script, .loaded)], document: "1111111111111111")
            #expect(stats.receive(StatsFixture.body(load), tab: "1").isAccepted)
            try stats.flush()
            let totals = stats.totals()
            #expect(totals.lifetime.trackersBlocked == 0)
            #expect(totals.lifetime.trackersAllowed == 1)
            #expect(totals.lifetime.companiesBlocked == [:])
            // The block leaves the week it was counted in; the load counts in its own week.
            #expect(totals.weeks["2026-W47"]?.trackersBlocked == 0)
            #expect(totals.weeks["2026-W48"]?.trackersAllowed == 1)
            #expect(totals.sites["site.test"]?.trackersBlocked == 0)
            #expect(totals.sites["site.test"]?.trackersAllowed == 1)
        }
        let reopened = try StatsStore(path: path)  // replays the journal: +1 blocked, then -1 blocked +1 allowed
        #expect(reopened.recoveryNotes.isEmpty)
        #expect(reopened.totals.lifetime.trackersBlocked == 0)
        #expect(reopened.totals.lifetime.trackersAllowed == 1)
        #expect(reopened.totals.lifetime.companiesBlocked == [:])
        #expect(reopened.totals.weeks["2026-W48"]?.trackersAllowed == 1)
    }

    @Test("ISO weeks at year boundaries", arguments: [
        ("2026-01-01T00:00:00Z", "2026-W01"), ("2027-01-01T00:00:00Z", "2026-W53"), ("2024-12-30T00:00:00Z", "2025-W01"),
        ("2021-01-03T23:59:59Z", "2020-W53"), ("2026-11-22T12:00:00Z", "2026-W47"), ("2026-11-23T00:00:00Z", "2026-W48"),
    ])
    func isoWeeks(date: String, week: String) throws {
        let seconds = try #require(ISO8601DateFormatter().date(from: date)).timeIntervalSince1970
        let stats = PrivacyStats(resolver: StatsFixture.resolver, secrets: []) { seconds }
        stats.didCommitNavigation(tab: "1", url: "https://site.test/")
        #expect(stats.totals().weeks.keys.sorted() == [week])
    }

    @Test("concurrent messages from many threads give the snapshot of sequential ones")
    func concurrency() async {
        let stats = stats()
        let tabs: [TabID] = (0..<8).map { TabID("\($0)") }
        for tab in tabs { stats.didCommitNavigation(tab: tab, url: "https://site.test/") }
        let hosts = ["ads.tracker.test", "pixel.tracker.test", "social.test", "fp.test", "analytics.test", "cdn.example"]
        await withTaskGroup(of: Void.self) { group in
            for tab in tabs {
                for part in 0..<10 {
                    group.addTask {
                        let events = (0..<50).map { index in
                            StatsFixture.request("https://\(hosts[(part + index) % hosts.count])/\(part)-\(index).js")
                        }
                        _ = stats.receive(StatsFixture.body(StatsFixture.message(events, sequence: part)), tab: tab)
                        _ = stats.snapshot(tab: tab)
                    }
                }
            }
        }
        let sequential = self.stats()
        sequential.didCommitNavigation(tab: "0", url: "https://site.test/")
        for part in 0..<10 {
            let events = (0..<50).map { index in
                StatsFixture.request("https://\(hosts[(part + index) % hosts.count])/\(part)-\(index).js")
            }
            _ = sequential.receive(StatsFixture.body(StatsFixture.message(events, sequence: part)), tab: "0")
        }
        var expected = sequential.snapshot(tab: "0")
        for tab in tabs {
            expected.tab = tab
            #expect(stats.snapshot(tab: tab) == expected)
        }
        #expect(stats.totals().lifetime.trackersBlocked == 8 * sequential.totals().lifetime.trackersBlocked)
    }
}

/// A clock a test moves by hand.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var seconds: Double

    init(_ seconds: Double) { self.seconds = seconds }

    func set(_ seconds: Double) {
        lock.lock()
        defer { lock.unlock() }
        self.seconds = seconds
    }

    @Sendable func read() -> Double {
        lock.lock()
        defer { lock.unlock() }
        return seconds
    }
}

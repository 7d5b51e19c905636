import PrivacyStatsKit
import Testing
import TrackerDataKit
import TrackerlessCore

@Suite("PageStats: reasons, dedup and categories")
struct PageStatsTests {
    func page(_ events: [ObservedEvent]) -> PageSnapshot { page("https://site.test/", events) }

    func page(_ url: String, _ events: [ObservedEvent]) -> PageSnapshot {
        var page = PageStats(url: url, resolver: StatsFixture.resolver)
        for event in events { page.record(event) }
        return page.snapshot()
    }

    func states(_ snapshot: PageSnapshot) -> [String] {
        snapshot.companies.flatMap { company in company.hosts.map { "\($0.host) \($0.state)" } }
    }

    @Test("a tracker that failed to load is blocked; one that loaded despite the block: protections off")
    func blockedAndProtectionsOff() {
        let blocked = page([StatsFixture.request("https://ads.tracker.test/x.js", .script, .failed)])
        #expect(states(blocked) == ["ads.tracker.test blocked"])
        #expect(blocked.trackers.blocked == 1)
        #expect(blocked.trackers.companiesBlocked == 1)
        let loaded = page([StatsFixture.request("https://ads.tracker.test/x.js", .script, .loaded)])
        #expect(states(loaded) == ["ads.tracker.test allowed (protections off)"])
    }

    @Test("each allowed reason, from the resolver's decision", arguments: [
        ("https://site.test/", "https://cdn.owned.test/w.js", "cdn.owned.test allowed (same entity)"),
        ("https://www.tracker.test/", "https://ads.tracker.test/x.js", "ads.tracker.test allowed (same entity)"),
        ("https://www.host.test/", "https://widgets.host.test/w.js", "widgets.host.test allowed (first party)"),
        ("https://mine.test/", "https://ads.tracker.test/x.js", "ads.tracker.test allowed (user allowlist)"),
        ("https://www.broken.test/", "https://ads.tracker.test/x.js", "ads.tracker.test allowed (unprotected site)"),
        ("https://site.test/", "https://ads.tracker.test/excepted.js", "ads.tracker.test allowed (rule exception)"),
        ("https://other.test/", "https://ads.tracker.test/ignored.js", "ads.tracker.test allowed (rule exception)"),
        ("https://other.test/", "https://analytics.test/other.js", "analytics.test allowed (rule exception)"),
        ("https://site.test/", "https://tracker.test/widget.js", "tracker.test allowed (tracker allowlist)"),
    ])
    func reasons(site: String, request: String, expected: String) {
        let snapshot = page(site, [StatsFixture.request(request, .script, .loaded)])
        #expect(states(snapshot) == [expected])
        #expect(snapshot.trackers.allowed == 1)
        #expect(snapshot.trackers.blocked == 0)
    }

    @Test("a non-tracker counts as a request, never as a tracker")
    func nonTracker() {
        let snapshot = page([
            StatsFixture.request("https://cdn.example/lib.js", .script, .loaded),
            StatsFixture.request("https://site.test/app.js", .script, .loaded),
        ])
        #expect(snapshot.requests.observed == 2)
        #expect(snapshot.requests.thirdParty == 1)
        #expect(snapshot.requests.trackers == 0)
        #expect(snapshot.companies.isEmpty)
    }

    @Test("a CNAME-cloaked tracker is counted under the tracker's company")
    func cname() {
        let snapshot = page([StatsFixture.request("https://metrics.site.test/p.gif", .image, .failed)])
        #expect(snapshot.companies.map(\.company.name) == ["Tracker Inc"])
        #expect(states(snapshot) == ["metrics.site.test blocked"])
    }

    @Test("dedup: the same (company, host, state) once, however many URLs and repeats")
    func dedup() {
        let snapshot = page([
            StatsFixture.request("https://ads.tracker.test/1.js"),
            StatsFixture.request("https://ads.tracker.test/2.js"),
            StatsFixture.request("https://ads.tracker.test/2.js"),
            StatsFixture.request("https://ads.tracker.test/2.gif", .image),
            StatsFixture.request("https://pixel.tracker.test/p.gif", .image),
        ])
        #expect(states(snapshot) == ["ads.tracker.test blocked", "pixel.tracker.test blocked"])
        #expect(snapshot.trackers.blocked == 2)
        #expect(snapshot.trackers.companiesBlocked == 1)
        #expect(snapshot.requests.observed == 4)
        #expect(snapshot.companies[0].hosts.map(\.requests) == [3, 1])
        #expect(snapshot.counters.duplicateEvents == 1)
    }

    @Test("a block outranks a load in either order")
    func blockOutranksLoad() {
        for order in [[ObservedState.loaded, .failed], [.failed, .loaded], [.loaded, .blocked], [.blocked, .loaded]] {
            let snapshot = page(order.map { StatsFixture.request("https://ads.tracker.test/x.js", .script, $0) })
            #expect(states(snapshot) == ["ads.tracker.test blocked"], "\(order)")
        }
    }

    /// Every order of `events`.
    static func orders(_ events: [ObservedEvent]) -> [[ObservedEvent]] {
        guard events.count > 1 else { return [events] }
        return events.indices.flatMap { index in
            var rest = events
            let first = rest.remove(at: index)
            return orders(rest).map { [first] + $0 }
        }
    }

    @Test("a surrogate counts as a surrogate; its script counts as blocked unless it was reported loaded, in any order",
          arguments: [
            // The blocking script ran the surrogate and stopped the load (in JS, or nothing else was seen).
            ([nil], "analytics.test blocked"),
            ([.pending], "analytics.test blocked"),
            // The content blocker stopped the script: the inference script saw it fail.
            ([.failed], "analytics.test blocked"),
            ([.failed, .loaded], "analytics.test blocked"),
            ([.blocked, .loaded], "analytics.test blocked"),
            // Nothing stopped it: the surrogate ran and the real script loaded too.
            ([.loaded], "analytics.test allowed (protections off)"),
            ([.pending, .loaded], "analytics.test allowed (protections off)"),
          ] as [([ObservedState?], String)])
    func surrogateAndOutcome(reported: [ObservedState?], expected: String) {
        let url = "https://analytics.test/a.js"
        let events = [ObservedEvent.surrogate(url: url, surrogate: "analytics.js")]
            + reported.compactMap { $0.map { StatsFixture.request(url, .script, $0) } }
        for order in Self.orders(events) {
            let snapshot = page(order)
            #expect(states(snapshot) == [expected], "\(order)")
            #expect(snapshot.surrogates == [.init(surrogate: "analytics.js", host: "analytics.test")], "\(order)")
            #expect(snapshot.requests.observed == 1)
            #expect(snapshot.companies.first?.hosts.first?.requests == 1)
        }
    }

    @Test("dedup: a request that goes pending -> loaded moves to its new state; pending never undoes an outcome")
    func stateMoves() {
        let moved = page([
            StatsFixture.request("https://ads.tracker.test/x.js", .script, .pending),
            StatsFixture.request("https://ads.tracker.test/x.js", .script, .loaded),
        ])
        #expect(states(moved) == ["ads.tracker.test allowed (protections off)"])
        let kept = page([
            StatsFixture.request("https://ads.tracker.test/x.js", .script, .failed),
            StatsFixture.request("https://ads.tracker.test/x.js", .script, .pending),
        ])
        #expect(states(kept) == ["ads.tracker.test blocked"])
        #expect(kept.counters.duplicateEvents == 1)
    }

    @Test("dedup: blocked and allowed requests to one host are two entries")
    func twoStates() {
        let snapshot = page("https://site.test/", [
            StatsFixture.request("https://tracker.test/x.js"),
            StatsFixture.request("https://tracker.test/widget.js", .script, .loaded),
        ])
        #expect(states(snapshot) == ["tracker.test blocked", "tracker.test allowed (tracker allowlist)"])
        #expect(snapshot.companies[0].blocked == 1)
        #expect(snapshot.companies[0].allowed == 1)
    }

    @Test("surrogates count when the resolver redirects that URL to that surrogate")
    func surrogates() {
        let snapshot = page([
            .surrogate(url: "https://analytics.test/a.js", surrogate: "analytics.js"),
            .surrogate(url: "https://analytics.test/a.js", surrogate: "analytics.js"),
            .surrogate(url: "https://analytics.test/a.js", surrogate: "gpt.js"),
            .surrogate(url: "https://example.com/a.js", surrogate: "analytics.js"),
        ])
        #expect(snapshot.surrogates == [.init(surrogate: "analytics.js", host: "analytics.test")])
        #expect(snapshot.counters.unverifiedSurrogates == 2)
    }

    @Test("categories: Firefox buckets from tds categories and fingerprinting")
    func categories() {
        let snapshot = page([
            StatsFixture.request("https://ads.tracker.test/x.js"),
            StatsFixture.request("https://analytics.test/collect", .xmlhttprequest),
            StatsFixture.request("https://fp.test/f.js"),
            StatsFixture.request("https://social.test/s.js"),
        ])
        let blocked = Dictionary(uniqueKeysWithValues: snapshot.categories.map { ($0.category, $0.blocked) })
        #expect(blocked == [
            .cryptomining: 0, .fingerprinting: 1, .social: 1, .advertising: 1, .analytics: 1, .content: 0, .other: 0,
        ])
        #expect(snapshot.categories.map(\.category) == FirefoxCategory.dashboardOrder)
    }

    @Test("companies: blocked first, then by prevalence; major network at prevalence >= 25")
    func companies() {
        let snapshot = page([
            StatsFixture.request("https://analytics.test/collect", .xmlhttprequest),
            StatsFixture.request("https://social.test/s.js"),
            StatsFixture.request("https://ads.tracker.test/ignored.js", .script, .loaded),
        ])
        #expect(snapshot.companies.map(\.company.name) == ["Social Corp", "Analytics Co", "Tracker Inc"])
        #expect(snapshot.companies.map(\.company.isMajorNetwork) == [false, false, true])
    }

    @Test("the site's owner and protection status")
    func siteOwner() {
        #expect(page("https://www.site.test/", []).siteOwner?.name == "Site Owner")
        #expect(page("https://www.site.test/", []).isProtected)
        #expect(!page("https://mine.test/", []).isProtected)
        #expect(!page("https://broken.test/", []).isProtected)
    }

    @Test("a flood: requests beyond the cap are dropped and counted, memory stays bounded")
    func flood() {
        var limits = PrivacyStats.Limits()
        limits.maxRequestsPerPage = 100
        var page = PageStats(url: "https://site.test/", resolver: StatsFixture.resolver, limits: limits)
        for index in 0..<1000 { page.record(StatsFixture.request("https://ads.tracker.test/\(index).js")) }
        let snapshot = page.snapshot()
        #expect(snapshot.requests.observed == 100)
        #expect(snapshot.counters.eventsDroppedByHost == 900)
        #expect(snapshot.trackers.blocked == 1)
    }

    @Test("the request blocklist: a non-tracker it blocks counts as blocked, under its registrable domain")
    func requestBlocklist() throws {
        let rule = try #require(RequestBlocklist.Rule(rule: "shop.example/api/*/track", domains: ["<all>"]))
        let configuration = PrivacyConfiguration(
            features: ["contentBlocking": .init(state: .enabled), "requestBlocklist": .init(state: .enabled)],
            requestBlocklist: RequestBlocklist(blockedRequests: ["shop.example": [rule]]))
        let resolver = TrackerResolver(
            trackerData: StatsFixture.resolver.trackerData, privacyConfiguration: configuration)
        var page = PageStats(url: "https://shop.example/", resolver: resolver)
        page.record(StatsFixture.request("https://shop.example/api/v2/track", .xmlhttprequest, .failed))
        page.record(StatsFixture.request("https://shop.example/api/v2/cart", .xmlhttprequest, .loaded))
        let snapshot = page.snapshot()
        #expect(states(snapshot) == ["shop.example blocked"])
        #expect(snapshot.companies.map(\.company.name) == ["shop.example"])
        #expect(snapshot.companies[0].hosts[0].tracker == nil)
        #expect(snapshot.requests.observed == 2)
    }

    @Test("an unparseable URL is observed, not a tracker")
    func unparseable() {
        let snapshot = page([StatsFixture.request("not a url")])
        #expect(snapshot.requests.observed == 1)
        #expect(snapshot.counters.unparseableURLs == 1)
        #expect(snapshot.companies.isEmpty)
    }
}

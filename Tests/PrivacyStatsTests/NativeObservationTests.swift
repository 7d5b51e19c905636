import PrivacyStatsKit
import Testing
import TrackerDataKit

/// One request reported by two sources: the host's own observations (``NativeObservation``:
/// WebKitGTK's loads, a request hook) and the scripts' events, in any order.
@Suite("PageStats: one request from two sources, the host's outcome first")
struct NativeObservationTests {
    /// `analytics.test/collect` is blocked by a rule of a tracker that is ignored by default.
    static let beacon = "https://analytics.test/collect?v=1"
    static let pixel = "https://ads.tracker.test/p.gif"

    /// A report of any source, applied to a page.
    typealias Report = @Sendable (inout PageStats) -> Void

    static func event(_ event: ObservedEvent) -> Report { { $0.record(event) } }
    static func native(_ url: String, _ outcome: NativeObservation.Outcome = .allowed, type: RequestType? = nil) -> Report {
        { $0.record(NativeObservation(url: url, type: type, outcome: outcome)) }
    }

    static func page(_ reports: [Report], resolver: TrackerResolver = StatsFixture.resolver) -> PageSnapshot {
        var page = PageStats(url: "https://site.test/", resolver: resolver)
        for report in reports { report(&page) }
        return page.snapshot()
    }

    static func hosts(_ snapshot: PageSnapshot) -> [String] {
        snapshot.companies.flatMap { company in company.hosts.map { "\($0.host) \($0.state) \($0.requests)" } }
    }

    /// Every order of `reports`.
    static func orders(_ reports: [Report]) -> [[Report]] {
        guard reports.count > 1 else { return [reports] }
        return reports.indices.flatMap { index in
            var rest = reports
            let first = rest.remove(at: index)
            return orders(rest).map { [first] + $0 }
        }
    }

    @Test("a beacon the blocking script reports as ping and the inference script as other (its timing entry) is one request")
    func beaconOfTwoScripts() {
        for reports in Self.orders([
            Self.event(.request(url: Self.beacon, type: .ping, state: .pending)),
            Self.event(.request(url: Self.beacon, type: .other, state: .loaded)),
        ]) {
            let snapshot = Self.page(reports)
            #expect(snapshot.requests.observed == 1)
            #expect(snapshot.requests.trackers == 1)
            #expect(Self.hosts(snapshot) == ["analytics.test allowed (protections off) 1"])
        }
    }

    @Test("WebKit's report of a load it let through outweighs the scripts' failed or blocked, in any order")
    func nativeLoadWins() {
        for state in [ObservedState.failed, .blocked, .pending] {
            for reports in Self.orders([
                Self.native(Self.pixel),
                Self.event(.request(url: Self.pixel, type: .image, state: state)),
                Self.event(.request(url: Self.pixel, type: .other, state: .loaded)),
            ]) {
                let snapshot = Self.page(reports)
                #expect(snapshot.requests.observed == 1, "\(state)")
                #expect(Self.hosts(snapshot) == ["ads.tracker.test allowed (protections off) 1"], "\(state)")
                #expect(snapshot.trackers.blocked == 0)
            }
        }
    }

    @Test("a request the scripts saw attempted that the host never saw load is blocked, once, beside the loads the host saw")
    func attemptWithoutNativeLoad() {
        let snapshot = Self.page([
            Self.native("https://site.test/app.js"),
            Self.native("https://cdn.example/lib.js"),
            Self.event(.request(url: "https://cdn.example/lib.js", type: .script, state: .loaded)),
            Self.event(.request(url: Self.pixel, type: .image, state: .pending)),
            Self.event(.request(url: Self.pixel, type: .image, state: .failed)),
        ])
        #expect(snapshot.requests.observed == 3)
        #expect(snapshot.requests.thirdParty == 2)
        #expect(Self.hosts(snapshot) == ["ads.tracker.test blocked 1"])
    }

    @Test("a request hook's block outweighs a script's load; a load of the same URL that reached the network outweighs the block")
    func nativeBlock() {
        for reports in Self.orders([
            Self.native(Self.pixel, .blocked, type: .image),
            Self.event(.request(url: Self.pixel, type: .image, state: .loaded)),
        ]) {
            #expect(Self.hosts(Self.page(reports)) == ["ads.tracker.test blocked 1"])
        }
        for reports in Self.orders([Self.native(Self.pixel, .blocked, type: .image), Self.native(Self.pixel, type: .image)]) {
            #expect(Self.hosts(Self.page(reports)) == ["ads.tracker.test allowed (protections off) 1"])
        }
    }

    @Test("the page itself (main_frame) is not one of its requests")
    func mainFrame() {
        let snapshot = Self.page([Self.native("https://site.test/", type: .mainFrame)])
        #expect(snapshot.requests.observed == 0)
    }

    @Test("a surrogate's script that WebKit saw load counts as a load, in any order")
    func surrogateAndNativeLoad() {
        let script = "https://analytics.test/a.js"
        for reports in Self.orders([
            Self.event(.surrogate(url: script, surrogate: "analytics.js")),
            Self.native(script),
            Self.event(.request(url: script, type: .script, state: .failed)),
        ]) {
            let snapshot = Self.page(reports)
            #expect(Self.hosts(snapshot) == ["analytics.test allowed (protections off) 1"])
            #expect(snapshot.surrogates.map(\.surrogate) == ["analytics.js"])
        }
    }

    /// A tracker ignored by default whose rule blocks scripts only.
    static let typedResolver: TrackerResolver = {
        let tds = """
            {"trackers": {"typed.test": {"domain": "typed.test", "owner": {"name": "Typed Inc", "displayName": "Typed"},
              "default": "ignore", "rules": [{"rule": "typed\\\\.test/x", "options": {"types": ["script"]}}]}},
             "entities": {"Typed Inc": {"displayName": "Typed", "domains": ["typed.test"], "prevalence": 1}},
             "domains": {"typed.test": "Typed Inc"}, "cnames": {}}
            """
        // The literal is valid; a failure here is a broken fixture.
        let trackerData = try! TrackerData(parsing: Array(tds.utf8), file: "typed tds.json")
        return TrackerResolver(trackerData: trackerData, surrogates: Surrogates(parsing: ""))
    }()

    @Test("a request first reported without a type (WebKit's, a timing entry's other) takes the first type reported and is classified with it")
    func unknownTypeTakesTheKnownOne() {
        let url = "https://typed.test/x.js"
        for reports in Self.orders([
            Self.native(url, .blocked),
            Self.event(.request(url: url, type: .other, state: .failed)),
            Self.event(.request(url: url, type: .script, state: .failed)),
        ]) {
            let snapshot = Self.page(reports, resolver: Self.typedResolver)
            #expect(snapshot.requests.observed == 1)
            #expect(snapshot.requests.trackers == 1)
            #expect(Self.hosts(snapshot) == ["typed.test blocked 1"])
        }
        let untyped = Self.page([Self.native(url)], resolver: Self.typedResolver)
        #expect(Self.hosts(untyped) == ["typed.test allowed (rule exception) 1"])
    }

    @Test("PrivacyStats.observe records in the tab's page and moves the totals with the outcome")
    func privacyStatsObserve() {
        let stats = PrivacyStats(resolver: StatsFixture.resolver, secrets: [StatsFixture.secret])
        #expect(stats.observe(NativeObservation(url: Self.pixel, outcome: .allowed), tab: "1") == false)
        stats.didCommitNavigation(tab: "1", url: "https://site.test/")
        let failed = StatsFixture.message([.request(url: Self.pixel, type: .image, state: .failed)])
        #expect(stats.receive(StatsFixture.body(failed), tab: "1").isAccepted)
        #expect(stats.totals().lifetime.trackersBlocked == 1)
        #expect(stats.observe(NativeObservation(url: Self.pixel, outcome: .allowed), tab: "1"))
        let snapshot = stats.snapshot(tab: "1")
        #expect(Self.hosts(snapshot) == ["ads.tracker.test allowed (protections off) 1"])
        #expect(stats.totals().lifetime.trackersBlocked == 0)
        #expect(stats.totals().lifetime.trackersAllowed == 1)
    }
}

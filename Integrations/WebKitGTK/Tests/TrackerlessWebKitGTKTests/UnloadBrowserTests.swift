import Foundation
import Testing
import TrackerDataKit

/// `trackerless-browser` in each mode on pages that send their last hits as they go away
/// (Tests/Sites/unload.example): in `pagehide`, a `sendBeacon` and a
/// `fetch(…, {keepalive: true})` to trackers. One run a mode leaves such a page three ways: for
/// another site, by navigating itself away (`location.href`), and for a site whose protection
/// is off. No tracker request may reach the server, and each page has its own snapshot, written
/// when it ended, that counts its beacons blocked.
@Suite("Unload beacons in the WebKitGTK browser", .serialized, .enabled(if: BrowserProcess.canRun, BrowserProcess.skipMessage))
struct UnloadBrowserTests {
    static let site = "https://unload.example/"
    static let pages = ["cross", "away", "off"].map { site + $0 + ".html" }
    static let modes = ["rules", "engine", "script"]
    /// The headless run's URLs: each unload page, then the page it is left for (away.html leaves
    /// by itself for https://landing.example/?from=away).
    static let arguments = [
        pages[0], "https://landing.example/?load=cross", pages[1], pages[2], "--protection-off", "landing.example",
        "https://landing.example/?load=off",
    ]
    /// The pages the tab commits, in order: one snapshot each.
    static let committed = [
        pages[0], "https://landing.example/?load=cross", pages[1], "https://landing.example/?from=away", pages[2],
        "https://landing.example/?load=off",
    ]

    /// One mode's run: its snapshots (their URLs, in order, whether each page was protected,
    /// the dashboard of each) and the URLs the server saw.
    struct Run {
        var status: Int32
        var standardError: String
        var snapshotURLs: [String] = []
        var protected: [Bool?] = []
        var dashboards: [String: PageRequests.Dashboard] = [:]
        var served: [String]
    }

    static let runs: Result<[String: Run], any Error> = Result {
        let proxy = try BrowserProcess.SiteProxy()
        var runs: [String: Run] = [:]
        for mode in modes {
            let result = try ModeEquivalenceTests.run(mode, urls: arguments, proxy: proxy)
            var run = Run(status: result.status, standardError: result.standardError, served: result.requests.map(\.url))
            for snapshot in result.snapshots {
                let url = snapshot["url"] as? String ?? "?"
                run.snapshotURLs.append(url)
                run.protected.append(snapshot["isProtected"] as? Bool)
                run.dashboards[url] = PageRequests.dashboard(of: snapshot)
            }
            runs[mode] = run
        }
        return runs
    }

    static var cases: [(String, String)] { modes.flatMap { mode in pages.map { (mode, $0) } } }

    @Test("no unload beacon to a tracker reaches the server, and the page's own snapshot counts each blocked", arguments: cases)
    func beacons(mode: String, page: String) throws {
        let resolver = try #require(BrowserTests.resolver)
        let run = try #require(try Self.runs.get()[mode])
        #expect(run.status == 0, "\(mode): \(run.standardError)")
        let name = page.dropFirst(Self.site.count).prefix { $0 != "." }
        // The page ran to its end and its pagehide handler ran.
        #expect(run.served.contains(Self.site + "report.gif?page=\(name)"), "\(mode): \(page) did not load: \(run.served)")
        #expect(run.served.contains(Self.site + "report.gif?pagehide=\(name)"), "\(mode): \(page)'s pagehide did not run: \(run.served)")
        let list = try PageRequests(page: page)
        #expect(list.unlisted.isEmpty, "listed but not in the page: \(list.unlisted)")
        let listed = Set(list.requests.map(\.url))
        let types = Dictionary(list.requests.map { ($0.url, RequestType(rawValue: $0.type)) }, uniquingKeysWith: { first, _ in first })
        let expected = list.expected(resolver: resolver, served: run.served.filter { listed.contains($0) }, typeOf: { types[$0] ?? .other })
        #expect(expected.blockedButServed.isEmpty, "\(mode): reached the server: \(expected.blockedButServed)")
        let dashboard = try #require(run.dashboards[page], "\(mode): no snapshot of \(page)")
        #expect(dashboard == expected.dashboard, "\(mode): \(page)")
    }

    @Test("one snapshot per page the tab committed, in order: the page that navigated itself away has its own")
    func snapshotPerPage() throws {
        for mode in Self.modes {
            let run = try #require(try Self.runs.get()[mode])
            #expect(run.snapshotURLs == Self.committed, "\(mode)")
            // The site whose protection is off loads unprotected, its own page included.
            #expect(run.protected.last == false, "\(mode): \(run.protected)")
            #expect(run.served.contains("https://landing.example/report.gif?load=off"), "\(mode): \(run.served)")
        }
    }

    @Test("the pages are what the tests say: the resolver blocks every tracker request they make")
    func pagesHoldWhatTheySay() throws {
        let resolver = try #require(BrowserTests.resolver)
        for page in Self.pages {
            let requests = try PageRequests(page: page).requests
            #expect(requests.count == 3)
            for request in requests {
                let decision = resolver.decision(forRequestURL: request.url, topURL: page, type: RequestType(rawValue: request.type))
                #expect(decision?.isBlocked == true, "\(request.url)")
            }
        }
    }
}

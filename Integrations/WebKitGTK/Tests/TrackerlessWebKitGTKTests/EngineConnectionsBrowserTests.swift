import Foundation
import Testing
import TrackerDataKit

/// `trackerless-browser --mode engine` on pages that reach trackers the ways WebKitGTK's
/// `send-request` never sees (Tests/Sites/connections.example): a
/// tracker's WebSocket, a SharedWorker and a service worker of the site's own that each fetch a
/// tracker, and `<link rel=preconnect>` and `dns-prefetch` hints to trackers (in the markup and
/// added by script). One browser run a mode loads them all, in engine mode and in rules mode
/// (content filters, which stop them all already), and in script mode, where what the blocking
/// script alone cannot stop is pinned; the truth is the proxy's log: the requests it
/// served and the tunnels (CONNECT) it was asked to open, a preconnect's only trace.
@Suite("Engine mode: what send-request cannot see", .serialized, .enabled(if: BrowserProcess.canRun, BrowserProcess.skipMessage))
struct EngineConnectionsBrowserTests {
    static let site = "https://connections.example/"
    static let pages = ["socket.html", "workers.html", "preconnect.html"].map { site + $0 }
    /// The modes that must let nothing of a tracker through.
    static let modes = ["engine", "rules"]

    static let runs = Result { try ModeRun.runs(modes: modes + ["script"], pages: pages) }

    static func run(_ mode: String) throws -> ModeRun { try #require(try runs.get()[mode]) }

    static var cases: [(String, String)] { modes.flatMap { mode in pages.map { (mode, $0) } } }

    /// Whether the resolver blocks `host` on the site's pages: what must never be connected to.
    static func isBlocked(host: String, resolver: TrackerResolver) -> Bool {
        resolver.decision(forRequestURL: "https://\(host)/", topURL: site, type: .other)?.isBlocked == true
    }

    @Test("no tunnel to a tracker is opened: no WebSocket handshake, no worker's request, no preconnect", arguments: modes)
    func noConnectionToATracker(mode: String) throws {
        let resolver = try #require(BrowserTests.resolver)
        let run = try Self.run(mode)
        // The hints and the socket name these hosts: the test could not fail if they were allowed.
        for host in ["www.hotjar.com", "static.hotjar.com", "script.hotjar.com"] {
            #expect(Self.isBlocked(host: host, resolver: resolver), "\(host)")
        }
        #expect(run.connections.contains("connections.example:443"), "\(mode): the pages' own tunnel is missing: \(run.connections)")
        let trackers = run.connections.filter { target in
            Self.isBlocked(host: String(target.prefix { $0 != ":" }), resolver: resolver)
        }
        #expect(trackers.isEmpty, "\(mode): tunnels to trackers: \(trackers)")
    }

    @Test("each page ran to its end and no tracker URL reached the server", arguments: cases)
    func page(mode: String, page: String) throws {
        let run = try Self.run(mode)
        let served = try #require(run.served[page], "the server never saw \(page)")
        let name = page.dropFirst(Self.site.count).prefix { $0 != "." }
        #expect(served.contains { $0.hasPrefix(Self.site + "report.gif?page=\(name)") }, "\(mode): \(page) did not run to its end: \(run.served)")
        let trackers = served.filter { $0.contains("hotjar.com") }
        #expect(trackers.isEmpty, "\(mode): reached the server from \(page): \(trackers)")
    }

    @Test("engine mode: the socket failed (error, as a content blocker leaves it), and the page had no SharedWorker or service worker")
    func whatThePagesSaw() throws {
        let served = try Self.run("engine").served
        #expect(served[Self.pages[0]]?.contains(Self.site + "report.gif?page=socket&seen=error") == true, "\(served[Self.pages[0]] ?? [])")
        #expect(
            served[Self.pages[1]]?.contains(Self.site + "report.gif?page=workers&seen=no-service-worker,no-shared-worker") == true,
            "\(served[Self.pages[1]] ?? [])")
        // The worker scripts of the site were never asked for either.
        #expect(served[Self.pages[1]]?.contains { $0.hasSuffix("/shared.js") || $0.hasSuffix("/sw.js") } == false)
    }

    @Test("each page's dashboard says what the server and the page's list say happened: the socket blocked, and in rules mode the hints the content filter stopped", arguments: cases)
    func dashboard(mode: String, page: String) throws {
        let resolver = try #require(BrowserTests.resolver)
        let run = try Self.run(mode)
        let served = try #require(run.served[page])
        let dashboard = try #require(run.dashboards[page], "no snapshot of \(page)")
        var list = try PageRequests(page: page)
        #expect(list.unlisted.isEmpty, "listed but not in the page: \(list.unlisted)")
        if mode == "rules", page == Self.pages[2] {
            // WebKit's content filter decides each preconnect and dns-prefetch hint as a load of
            // the origin and says so in the console, as for a request: blocked attempts to reach
            // the tracker. Engine mode turns the hints off, so there is none to count.
            let hints = ["https://www.hotjar.com/", "https://static.hotjar.com/", "https://script.hotjar.com/"]
            list.requests += hints.map { PageRequests.Request(url: $0, type: "other") }
        }
        let expected = list.expected(resolver: resolver, served: served)
        #expect(dashboard == expected.dashboard, "\(mode): \(page)")
        if page == Self.pages[0] { #expect(dashboard.blocked == 1, "\(mode): \(dashboard)") }
    }

    @Test("script mode: the blocking script stops the socket and the preconnect script adds, not the workers' requests nor the markup's preconnect (what it leaves)")
    func scriptModeLeaves() throws {
        let run = try Self.run("script")
        let served = Set(run.served.values.joined().filter { $0.contains("hotjar.com") })
        #expect(served == ["https://www.hotjar.com/from-shared", "https://www.hotjar.com/from-sw"], "\(served.sorted())")
        let tunnels = Set(run.connections.filter { $0.contains("hotjar.com") })
        // The hint script adds has no href: a blocked URL given a link is withheld.
        #expect(tunnels == ["www.hotjar.com:443"], "\(tunnels.sorted())")
    }

    @Test("engine mode on a site the user turned off: SharedWorker and service workers are there again, and their requests load")
    func protectionOff() throws {
        let proxy = try BrowserProcess.SiteProxy()
        let page = Self.pages[1]
        let result = try ModeEquivalenceTests.run("engine", urls: [page, "--protection-off", "connections.example", page], proxy: proxy)
        try #require(result.status == 0, "\(result.standardError)")
        let loads = SiteToggleBrowserTests.loads(result.requests.map(\.url), pages: [page])
        try #require(loads.count == 2, "\(result.requests.map(\.url))")
        #expect(loads[0].contains(Self.site + "report.gif?page=workers&seen=no-service-worker,no-shared-worker"), "\(loads[0])")
        #expect(loads[1].contains(Self.site + "report.gif?page=workers&seen=shared-fetched,sw-registered"), "\(loads[1])")
        #expect(loads[1].contains("https://www.hotjar.com/from-shared"), "\(loads[1])")
    }
}

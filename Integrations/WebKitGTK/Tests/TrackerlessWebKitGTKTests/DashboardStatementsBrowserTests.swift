import Foundation
import Testing
import TrackerDataKit

/// `trackerless-browser` in each mode on pages whose dashboard once stated what did not happen
/// (Tests/Sites/statements.example): a tracker's `<audio>` and
/// `<object>`, a `<video><source>` never requested, a tracker's `<base href>`, and requests that
/// redirect (first party to tracker, tracker to tracker, first party to a tracker the blocklist
/// lets load). One browser run a mode loads them all;
/// each page's snapshot must equal what its own list of requests (and where the proxy redirects
/// them) and the server's log say happened: each request once, blocked when the server never saw
/// it, allowed when it did.
@Suite("What the WebKitGTK browser's dashboard states", .serialized, .enabled(if: BrowserProcess.canRun, BrowserProcess.skipMessage))
struct DashboardStatementsBrowserTests {
    static let site = "https://statements.example/"
    static let pages = ["audio.html", "object.html", "source.html", "base.html", "redirects.html"].map { site + $0 }
    static let modes = ["rules", "engine", "script"]

    /// One mode's run: each page's dashboard (from its snapshot) and the URLs the server saw
    /// while it was loaded.
    struct Run {
        var dashboards: [String: PageRequests.Dashboard] = [:]
        var served: [String: [String]] = [:]
    }

    static let runs: Result<[String: Run], any Error> = Result {
        let proxy = try BrowserProcess.SiteProxy()
        var runs: [String: Run] = [:]
        for mode in modes {
            let result = try ModeEquivalenceTests.run(mode, urls: pages, proxy: proxy)
            try #require(result.status == 0, "\(mode): \(result.standardError)")
            var run = Run()
            for snapshot in result.snapshots {
                if let url = snapshot["url"] as? String { run.dashboards[url] = PageRequests.dashboard(of: snapshot) }
            }
            let loads = SiteToggleBrowserTests.loads(result.requests.map(\.url), pages: pages)
            for (page, load) in zip(pages, loads) { run.served[page] = load }
            runs[mode] = run
        }
        return runs
    }

    static var cases: [(String, String)] { modes.flatMap { mode in pages.map { (mode, $0) } } }

    @Test("each page's dashboard says what the server and the page's list say happened, each request once", arguments: cases)
    func statements(mode: String, page: String) throws {
        let resolver = try #require(BrowserTests.resolver)
        let run = try #require(try Self.runs.get()[mode])
        let served = try #require(run.served[page], "\(mode): the server never saw \(page)")
        let name = page.dropFirst(Self.site.count).prefix { $0 != "." }
        #expect(served.contains(Self.site + "report.gif?page=\(name)"), "\(mode): \(page) did not run to its end: \(served)")
        let dashboard = try #require(run.dashboards[page], "\(mode): no snapshot of \(page)")
        var list = try PageRequests(page: page)
        #expect(list.unlisted.isEmpty, "listed but not in the page: \(list.unlisted)")
        if mode == "rules" {
            // WebKit names no redirect its content filter stopped (the load fails with
            // WebKitPolicyError 104): in rules mode, where it led is on no dashboard.
            let targets = Set(list.requests.flatMap { PageRequests.redirectTargets(of: $0) }.map(\.url))
            list.requests.removeAll { targets.contains($0.url) && !served.contains($0.url) }
        }
        let types = Dictionary(list.requests.map { ($0.url, RequestType(rawValue: $0.type)) }, uniquingKeysWith: { first, _ in first })
        let expected = list.expected(resolver: resolver, served: served, typeOf: { types[$0] ?? .other })
        if mode != "script" {
            #expect(expected.blockedButServed.isEmpty, "\(mode): reached the server: \(expected.blockedButServed)")
        }
        #expect(dashboard == expected.dashboard, "\(mode): \(page)")
    }

    @Test("the pages are what the tests say: trackers the resolver blocks, a source never requested, redirects the server answered")
    func pagesHoldWhatTheySay() throws {
        let resolver = try #require(BrowserTests.resolver)
        let runs = try Self.runs.get()
        // The audio, object and base pages' trackers are blocked, or no test above could fail.
        for page in [Self.pages[0], Self.pages[1], Self.pages[3]] {
            for request in try PageRequests(page: page).requests {
                let decision = resolver.decision(forRequestURL: request.url, topURL: page, type: RequestType(rawValue: request.type))
                #expect(decision?.isBlocked == true, "\(request.url)")
            }
        }
        // No mode requests the unplayable source.
        for mode in Self.modes {
            let served = runs[mode]?.served[Self.pages[2]] ?? []
            #expect(!served.contains("https://www.hotjar.com/c/never.webm"), "\(mode)")
        }
        // Each redirect's first URL reached the server in every mode; where it leads is a tracker
        // the resolver blocks, reached in script mode only.
        let redirects = try PageRequests(page: Self.pages[4]).requests
        let targets = redirects.filter { $0.url.hasPrefix("https://www.hotjar.com/") }.map(\.url)
        #expect(targets.count == 3, "\(redirects.map(\.url))")
        #expect(resolver.decision(forRequestURL: "https://disqus.com/widget.gif", topURL: Self.pages[4], type: .image)?.tracker != nil)
        for mode in Self.modes {
            let served = runs[mode]?.served[Self.pages[4]] ?? []
            for first in [
                "https://statements.example/to-tracker.gif", "https://statements.example/to-tracker-fetched", "https://disqus.com/hop.gif",
                "https://statements.example/to-allowed.gif", "https://disqus.com/widget.gif",
            ] {
                #expect(served.contains(first), "\(mode): \(first)")
            }
            for target in targets {
                #expect(served.contains(target) == (mode == "script"), "\(mode): \(target)")
            }
        }
    }
}

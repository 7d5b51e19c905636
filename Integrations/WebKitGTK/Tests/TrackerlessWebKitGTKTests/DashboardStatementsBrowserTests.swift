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

    static let runs = Result { try ModeRun.runs(modes: modes, pages: pages) }

    static var cases: [(String, String)] { modes.flatMap { mode in pages.map { (mode, $0) } } }

    @Test("each page's dashboard says what the server and the page's list say happened, each request once", arguments: cases)
    func statements(mode: String, page: String) throws {
        let resolver = try #require(BrowserTests.resolver)
        let run = try #require(try Self.runs.get()[mode])
        let served = try #require(run.served[page], "\(mode): the server never saw \(page)")
        let name = page.dropFirst(Self.site.count).prefix { $0 != "." }
        #expect(served.contains(Self.site + "report.gif?page=\(name)"), "\(mode): \(page) did not run to its end: \(served)")
        let dashboard = try #require(run.dashboards[page], "\(mode): no snapshot of \(page)")
        // In rules mode too a redirect the content filter stopped is counted where it led: the
        // load fails without naming it, but WebKit's console message of the block names it.
        let list = try PageRequests(page: page)
        #expect(list.unlisted.isEmpty, "listed but not in the page: \(list.unlisted)")
        let expected = list.expected(resolver: resolver, served: served)
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

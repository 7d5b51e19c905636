import Foundation
import Testing
import TrackerDataKit

/// `trackerless-browser` in rules mode (and engine mode beside it) on pages whose trackers load
/// where neither script sees them (Tests/Sites/unseen.example): a style sheet's `@import`,
/// `url()` and font, a video's poster, an SVG image, a clicked link's ping, a form posted into a
/// frame, a dedicated worker's `importScripts` and `fetch`, a module `import()`, a `Link`
/// preload header and a Content-Security-Policy report. Rules mode counts them from the console
/// message WebKit adds for each load its content filter blocked, which the web-process extension
/// reports (`ContentBlockerMessage`); before it did, rules mode counted none of these 12 trackers
/// (0 blocked on each page; engine mode, 12). A page that prints WebKit's words itself
/// (hostile.html) must count nothing. One browser run a mode loads every page.
@Suite("Rules mode counts every load the content filters blocked", .serialized, .enabled(if: BrowserProcess.canRun, BrowserProcess.skipMessage))
struct ContentBlockerCountBrowserTests {
    static let site = "https://unseen.example/"
    static let pages = ["css.html", "markup.html", "workers.html", "headers.html", "hostile.html"].map { site + $0 }
    static let modes = ["rules", "engine"]

    static let runs = Result { try ModeRun.runs(modes: modes, pages: pages) }

    static var cases: [(String, String)] { modes.flatMap { mode in pages.map { (mode, $0) } } }

    /// Every file of the site: where the pages' lists name their URLs (a style sheet, a worker,
    /// response headers hold some of them).
    static func siteFiles() throws -> String {
        let directory = BrowserProcess.packageRoot.appendingPathComponent("Tests/Sites/unseen.example")
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            .compactMap { try? String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8) }.joined(separator: "\n")
    }

    @Test("each page ran to its end, no tracker reached the server, and the dashboard counts each blocked load once", arguments: cases)
    func counts(mode: String, page: String) throws {
        let resolver = try #require(BrowserTests.resolver)
        let run = try #require(try Self.runs.get()[mode])
        let served = try #require(run.served[page], "\(mode): the server never saw \(page)")
        let name = page.dropFirst(Self.site.count).prefix { $0 != "." }
        #expect(served.contains { $0.hasPrefix(Self.site + "report.gif?page=\(name)") }, "\(mode): \(page) did not run to its end: \(served)")
        let dashboard = try #require(run.dashboards[page], "\(mode): no snapshot of \(page)")
        let list = try PageRequests(page: page)
        let expected = list.expected(resolver: resolver, served: served)
        #expect(expected.blockedButServed.isEmpty, "\(mode): reached the server: \(expected.blockedButServed)")
        #expect(dashboard == expected.dashboard, "\(mode): \(page)")
    }

    @Test("the pages hold what the tests say: 12 trackers of 12 companies the resolver blocks, named in the site's files")
    func pagesHoldWhatTheySay() throws {
        let resolver = try #require(BrowserTests.resolver)
        let files = try Self.siteFiles()
        var companies: Set<String> = []
        var count = 0
        for page in Self.pages {
            for request in try PageRequests(page: page).requests {
                #expect(files.contains(request.url), "\(request.url) is in none of the site's files")
                let decision = resolver.decision(forRequestURL: request.url, topURL: page, type: RequestType(rawValue: request.type))
                #expect(decision?.isBlocked == true, "\(request.url)")
                companies.insert(decision?.tracker?.owner?.name ?? request.url)
                count += 1
            }
        }
        #expect(count == 12 && companies.count == 12, "\(count) requests of \(companies.count) companies")
        // The hostile page's forged tracker is one the resolver blocks: counting it would show.
        let forged = resolver.decision(forRequestURL: "https://forged.adroll.com/info.gif", topURL: Self.pages[4], type: .image)
        #expect(forged?.isBlocked == true)
    }

    @Test("rules mode: a page printing WebKit's words (console API at each level, a thrown string, a frame, a worker) counts nothing, and its own list is empty")
    func forgedMessagesCountNothing() throws {
        let run = try #require(try Self.runs.get()["rules"])
        let dashboard = try #require(run.dashboards[Self.pages[4]])
        #expect(dashboard.entries.isEmpty && dashboard.trackerRequests == 0, "\(dashboard)")
        #expect(try PageRequests(page: Self.pages[4]).requests.isEmpty)
    }

    @Test("rules mode counts what engine mode counts on every page")
    func rulesCountWhatEngineCounts() throws {
        let runs = try Self.runs.get()
        for page in Self.pages {
            #expect(runs["rules"]?.dashboards[page] == runs["engine"]?.dashboards[page], "\(page)")
        }
        let blocked = Self.pages.compactMap { runs["rules"]?.dashboards[$0]?.blocked }.reduce(0, +)
        #expect(blocked == 12, "\(blocked)")
    }
}

import Foundation
import Testing
import TrackerDataKit

/// `trackerless-browser --mode rules|engine|script` on the same pages: what reaches the server.
///
/// Rules mode blocks with WebKit's content filters, engine mode with the compiled engine in the
/// web-process extension's `send-request` (which knows no resource type and no frame: it reads
/// them from `Sec-Fetch-Dest`), script mode with the blocking script alone. Rules and engine must
/// let the same requests through; where they cannot (see ``knownDifferences``), each case is
/// named. Script mode's leaks are pinned, one by one.
@Suite("The WebKitGTK browser's three modes", .serialized, .enabled(if: BrowserProcess.canRun, BrowserProcess.skipMessage))
struct ModeEquivalenceTests {
    /// Cases where rules and engine modes answer differently for a real reason, by request URL,
    /// with the reason. Empty: on every page below and every reference suite
    /// (``ReferenceSuiteModeTests``) they let the same requests through.
    static let knownDifferences: [String: String] = [:]

    /// One headless run in `mode`: its status, standard error, snapshots and what the server saw.
    static func run(
        _ mode: String, urls: [String], proxy: BrowserProcess.SiteProxy, extraArguments: [String] = []
    ) throws -> (status: Int32, standardError: String, snapshots: [[String: Any]], requests: [BrowserProcess.SiteProxy.Request]) {
        let cache = try BrowserProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        _ = proxy.takeRequests()
        let run = try BrowserProcess.runHeadless(urls: urls, proxy: proxy, cache: cache, extraArguments: ["--mode", mode] + extraArguments)
        return (run.status, run.standardError, run.snapshots, proxy.takeRequests())
    }

    /// The URLs that reached the server in one mode only, but the known differences. Sets, not
    /// counts: WebKit may fetch one URL twice (a preload, then the element).
    static func differences(_ rules: [BrowserProcess.SiteProxy.Request], _ engine: [BrowserProcess.SiteProxy.Request]) -> [String] {
        let rules = Set(rules.map(\.url)), engine = Set(engine.map(\.url))
        return rules.symmetricDifference(engine).filter { knownDifferences[$0] == nil }.sorted()
            .map { "\($0): reached the server in \(rules.contains($0) ? "rules" : "engine") mode only" }
    }

    @Test("real-world tracker pages: rules and engine modes let the same requests reach the server, and the dashboards are the same",
          arguments: ["https://news.example/", "https://hostile.example/"])
    func trackerPages(page: String) throws {
        let proxy = try BrowserProcess.SiteProxy()
        let rules = try Self.run("rules", urls: [page], proxy: proxy)
        let engine = try Self.run("engine", urls: [page], proxy: proxy)
        #expect(rules.status == 0, "\(rules.standardError)")
        #expect(engine.status == 0, "\(engine.standardError)")
        #expect(!engine.standardError.contains("web-process extension:"), "\(engine.standardError)")
        #expect(rules.requests.contains { $0.url == page } && engine.requests.contains { $0.url == page })
        let differences = Self.differences(rules.requests, engine.requests)
        #expect(differences.isEmpty, "\(differences)")
        // The engine blocked what the content filters blocked (the page's own list says what it
        // attempted), and the dashboard counts each request once, blocked or allowed.
        let snapshots = try (#require(rules.snapshots.first), #require(engine.snapshots.first))
        #expect(PageRequests.dashboard(of: snapshots.0) == PageRequests.dashboard(of: snapshots.1))
        #expect(PageRequests.dashboard(of: snapshots.1).blocked >= 3, "\(PageRequests.dashboard(of: snapshots.1))")
        let requestCounts = (snapshots.0["requests"] as? [String: Any], snapshots.1["requests"] as? [String: Any])
        #expect(requestCounts.0?["observed"] as? Int == requestCounts.1?["observed"] as? Int, "\(requestCounts)")
    }

    @Test("script mode lets through exactly the loads the HTML parser starts on news.example (a script cannot stop them)")
    func scriptModeLeaks() throws {
        let resolver = try #require(BrowserTests.resolver)
        let proxy = try BrowserProcess.SiteProxy()
        let page = "https://news.example/"
        let script = try Self.run("script", urls: [page], proxy: proxy)
        #expect(script.status == 0, "\(script.standardError)")
        let leaked = Set(script.requests.map(\.url)).filter {
            resolver.decision(forRequestURL: $0, topURL: page, type: BrowserTests.requestType(of: $0))?.isBlocked == true
        }
        #expect(leaked.sorted() == [
            // <iframe src> of the ad slot, and the image its document loads.
            "https://googleads.g.doubleclick.net/pagead/ads?client=ca-pub-0000&format=728x90",
            // <script async src>: the surrogate ran and the real script loaded too.
            "https://securepubads.g.doubleclick.net/tag/js/gpt.js",
            "https://tpc.googlesyndication.com/simgad/0000",
            "https://www.googletagmanager.com/gtag/js?id=G-EXAMPLE",
        ])
        // The rest of the page's trackers (made by script: fetch, XHR, beacons, new Image()) were
        // blocked in the page.
        let rules = try Self.run("rules", urls: [page], proxy: proxy)
        let blockedByRules = try PageRequests(page: page).requests.map(\.url).filter { !rules.requests.map(\.url).contains($0) }
        #expect(blockedByRules.count > leaked.count)
    }

    @Test("engine mode: a site switched off is unprotected from its next navigation, then protected again (the running web process gets the new configuration)")
    func engineSiteToggle() throws {
        let resolver = try #require(BrowserTests.resolver)
        let proxy = try BrowserProcess.SiteProxy()
        let pages = (1...3).map { "https://news.example/?load=\($0)" }
        let run = try Self.run(
            "engine", urls: [pages[0], "--protection-off", "news.example", pages[1], "--protection-on", "news.example", pages[2]],
            proxy: proxy)
        #expect(run.status == 0, "\(run.standardError)")
        let loads = SiteToggleBrowserTests.loads(run.requests.map(\.url), pages: pages)
        try #require(loads.count == 3, "page loads seen by the server: \(loads.count)")
        func blocked(_ load: [String], page: String) -> [String] {
            load.filter { resolver.decision(forRequestURL: $0, topURL: page, type: BrowserTests.requestType(of: $0))?.isBlocked == true }
        }
        #expect(blocked(loads[0], page: pages[0]).isEmpty, "protected: \(blocked(loads[0], page: pages[0]))")
        #expect(blocked(loads[1], page: pages[1]).count >= 5, "protection off: \(loads[1])")
        #expect(blocked(loads[2], page: pages[2]).isEmpty, "protected again: \(blocked(loads[2], page: pages[2]))")
    }
}

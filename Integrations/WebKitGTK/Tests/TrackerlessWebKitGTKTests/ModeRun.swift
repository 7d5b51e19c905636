import Foundation
import Testing

/// One headless run of `trackerless-browser` in one mode that loads test pages in turn: each
/// page's dashboard (from its snapshot), the URLs the server saw while it was loaded, and every
/// tunnel (CONNECT) opened during the run.
struct ModeRun {
    var dashboards: [String: PageRequests.Dashboard] = [:]
    var served: [String: [String]] = [:]
    var connections: [String] = []

    /// One run for each of `modes`, each loading `pages`, through one loopback proxy.
    static func runs(modes: [String], pages: [String]) throws -> [String: ModeRun] {
        let proxy = try BrowserProcess.SiteProxy()
        var runs: [String: ModeRun] = [:]
        for mode in modes {
            _ = proxy.takeConnections()
            let result = try ModeEquivalenceTests.run(mode, urls: pages, proxy: proxy)
            try #require(result.status == 0, "\(mode): \(result.standardError)")
            var run = ModeRun()
            for snapshot in result.snapshots {
                if let url = snapshot["url"] as? String { run.dashboards[url] = PageRequests.dashboard(of: snapshot) }
            }
            for (page, load) in zip(pages, SiteToggleBrowserTests.loads(result.requests.map(\.url), pages: pages)) { run.served[page] = load }
            run.connections = proxy.takeConnections()
            runs[mode] = run
        }
        return runs
    }
}

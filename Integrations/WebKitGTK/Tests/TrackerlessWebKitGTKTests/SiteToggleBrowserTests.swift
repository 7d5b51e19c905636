import Foundation
import Testing
import TrackerDataKit

/// The site toggle in one run of the browser: news.example protected, then off, then on again,
/// each change in effect from the site's next navigation (`--protection-off/on` between URLs do
/// what the window's switch does: `ProtectionRuntime.setProtection(_:forSite:)`).
@Suite("The WebKitGTK browser's site toggle", .serialized, .enabled(if: BrowserProcess.canRun, BrowserProcess.skipMessage))
struct SiteToggleBrowserTests {
    /// The requests of each page load, split at each load of the page itself (the browser loads
    /// one page at a time and waits until it has settled).
    static func loads(_ urls: [String], pages: [String]) -> [[String]] {
        var loads: [[String]] = []
        for url in urls {
            if pages.contains(url) { loads.append([]) } else if !loads.isEmpty { loads[loads.count - 1].append(url) }
        }
        return loads
    }

    @Test("off, then on: the next navigation of the site is unprotected (its trackers reach the server), then protected again")
    func offThenOn() throws {
        let resolver = try #require(BrowserTests.resolver)
        let proxy = try BrowserProcess.SiteProxy()
        let cache = try BrowserProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let pages = (1...3).map { "https://news.example/?load=\($0)" }

        let run = try BrowserProcess.runHeadless(
            urls: [pages[0], "--protection-off", "news.example", pages[1], "--protection-on", "news.example", pages[2]],
            proxy: proxy, cache: cache)
        #expect(run.status == 0, "\(run.standardError)")
        let loads = Self.loads(proxy.takeURLs(), pages: pages)
        try #require(loads.count == 3, "page loads seen by the server: \(loads.count)")
        func blockedReachingServer(_ load: [String], page: String) -> [String] {
            load.filter { resolver.decision(forRequestURL: $0, topURL: page, type: BrowserTests.requestType(of: $0))?.isBlocked == true }
        }
        #expect(blockedReachingServer(loads[0], page: pages[0]).isEmpty, "protected: \(blockedReachingServer(loads[0], page: pages[0]))")
        #expect(blockedReachingServer(loads[1], page: pages[1]).count >= 5, "protection off: \(loads[1])")
        #expect(blockedReachingServer(loads[2], page: pages[2]).isEmpty, "protected again: \(blockedReachingServer(loads[2], page: pages[2]))")

        try #require(run.snapshots.count == 3)
        let protected = run.snapshots.map { $0["isProtected"] as? Bool }
        #expect(protected == [true, false, true])
        let blocked = run.snapshots.map { ($0["trackers"] as? [String: Any])?["blocked"] as? Int ?? -1 }
        #expect(blocked[0] > 0 && blocked[1] == 0 && blocked[2] > 0, "trackers blocked per load: \(blocked)")
        // Every tracker of the unprotected load allowed for one reason: the user's switch.
        let reasons = (run.snapshots[1]["allowedReasons"] as? [[String: Any]] ?? [])
            .filter { ($0["trackers"] as? Int ?? 0) > 0 }.compactMap { $0["reason"] as? String }
        #expect(reasons == ["user allowlist"], "the unprotected load's reasons: \(reasons)")
        // The toggle is persisted: the cache holds it for the next launch.
        let toggles = try String(contentsOf: cache.appendingPathComponent("protection-off.json"), encoding: .utf8)
        #expect(!toggles.contains("news.example"))
    }

    @Test("persisted in the cache: a site switched off stays off at the next launch, which names no toggle")
    func offAcrossLaunches() throws {
        let resolver = try #require(BrowserTests.resolver)
        let proxy = try BrowserProcess.SiteProxy()
        let cache = try BrowserProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let page = BrowserTests.page

        let first = try BrowserProcess.runHeadless(urls: ["--protection-off", "news.example", page], proxy: proxy, cache: cache)
        #expect(first.status == 0, "\(first.standardError)")
        _ = proxy.takeURLs()
        let relaunch = try BrowserProcess.runHeadless(urls: [page], proxy: proxy, cache: cache)
        #expect(relaunch.status == 0, "\(relaunch.standardError)")
        let blocked = proxy.takeURLs().filter {
            resolver.decision(forRequestURL: $0, topURL: page, type: BrowserTests.requestType(of: $0))?.isBlocked == true
        }
        #expect(blocked.count >= 5, "the relaunch protected the site the first launch switched off: \(blocked)")
        #expect(relaunch.snapshots.map { $0["isProtected"] as? Bool } == [false])
    }
}

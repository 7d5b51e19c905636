import Foundation
import Testing

/// Click-to-Load in the browser, with apple-tds's Click-to-Load rules (`block-ctl-yt`,
/// `block-ctl-fb`): embeds.example embeds a YouTube player and a Facebook post (Tests/Sites).
/// The embeds show placeholders and are not fetched; a page script's click on a placeholder loads
/// nothing; the user's click (a real pointer event through Xvfb, `--click`) posts the blocking
/// script's click message, the host removes that action's list for the page and answers it, and
/// the embed loads; another page of the site is blocked again.
@Suite("The WebKitGTK browser: Click-to-Load", .serialized, .enabled(if: BrowserProcess.canRun, BrowserProcess.skipMessage))
struct ClickToLoadBrowserTests {
    static let youtube = "https://www.youtube.com/embed/abc123"
    static let facebook = "https://www.facebook.com/plugins/post.php?href=https%3A%2F%2Fwww.facebook.com%2Fexample%2Fposts%2F1&width=320"
    static let youtubeButton = #"[data-trackerless-click-to-load="block-ctl-yt"] button"#

    @Test("placeholders and no fetch before the user's click (a script's click loads nothing); the click loads that embed on that page only")
    func clickToLoad() throws {
        let proxy = try BrowserProcess.SiteProxy()
        let cache = try BrowserProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let pages = [
            "https://embeds.example/?scriptclick", "https://embeds.example/", "https://embeds.example/other.html",
            "https://embeds.example/?again", "https://embeds.example/other.html?via=link",
        ]
        // The last page is reached by the user following a link of the clicked page: a
        // navigation the page makes, not the host.
        let run = try BrowserProcess.runHeadless(
            urls: [pages[0], pages[1], "--click", Self.youtubeButton, pages[2], pages[3], "--click", Self.youtubeButton, "--click", "#next"],
            proxy: proxy, cache: cache)
        #expect(run.status == 0, "\(run.standardError)")
        let loads = SiteToggleBrowserTests.loads(proxy.takeURLs(), pages: pages)
        try #require(loads.count == 5, "page loads seen by the server: \(loads)")

        // A placeholder for each embed, neither fetched, not even after the page clicked them.
        #expect(loads[0].contains("https://embeds.example/report.gif?placeholders=2&scriptclick=1"), "\(loads[0])")
        #expect(!loads[0].contains(Self.youtube) && !loads[0].contains(Self.facebook), "\(loads[0])")
        // The user's click on the video's placeholder: the video loads, the post stays blocked.
        #expect(loads[1].contains("https://embeds.example/report.gif?placeholders=2"), "\(loads[1])")
        #expect(loads[1].contains(Self.youtube), "the clicked embed reached the server: \(loads[1])")
        #expect(!loads[1].contains(Self.facebook), "\(loads[1])")
        // Another page of the same site: both blocked again, and the video's thumbnail, which
        // only the block-ctl-yt list stops, too.
        #expect(loads[2].contains("https://embeds.example/report.gif?page=other&placeholders=2"), "\(loads[2])")
        #expect(!loads[2].contains { $0.contains("www.youtube.com") || $0.contains("www.facebook.com") }, "\(loads[2])")

        // Clicked again, then a link followed: the next page is blocked again.
        #expect(loads[3].contains(Self.youtube), "\(loads[3])")
        #expect(loads[4].contains("https://embeds.example/report.gif?page=other&placeholders=2"), "\(loads[4])")
        #expect(!loads[4].contains { $0.contains("www.youtube.com") || $0.contains("www.facebook.com") }, "\(loads[4])")

        // One snapshot per page, the page the link led to as well: the clicked page's dashboard
        // counts the video it loaded; the others load no tracker.
        try #require(run.snapshots.count == 5)
        let dashboards = run.snapshots.map(PageRequests.dashboard(of:))
        #expect(dashboards[1].entries.keys.contains { $0.hasPrefix("Google LLC www.youtube.com allowed") }, "\(dashboards[1])")
        #expect(dashboards[0].allowed == 0 && dashboards[2].allowed == 0, "\(dashboards[0]); \(dashboards[2])")
        #expect(run.snapshots[3]["url"] as? String == pages[3] && dashboards[3].entries.keys.contains { $0.hasPrefix("Google LLC www.youtube.com allowed") },
                "\(dashboards[3])")
        #expect(run.snapshots[4]["url"] as? String == pages[4] && dashboards[4].allowed == 0, "\(dashboards[4])")
        // The embeds behind placeholders count as blocked; the clicked one as allowed by the click.
        let hosts = run.snapshots.map(Self.hostStates)
        #expect(hosts[0].contains("www.youtube.com blocked") && hosts[0].contains("www.facebook.com blocked"), "\(hosts[0])")
        #expect(hosts[1].contains("www.youtube.com allowed (click to load)") && hosts[1].contains("www.facebook.com blocked"), "\(hosts[1])")
        #expect(hosts[2].contains("www.youtube.com blocked") && hosts[2].contains("www.facebook.com blocked"), "\(hosts[2])")
    }

    /// "host state" or "host allowed (reason)" for each host of a snapshot's companies.
    static func hostStates(_ snapshot: [String: Any]) -> [String] {
        (snapshot["companies"] as? [[String: Any]] ?? []).flatMap { company in
            (company["hosts"] as? [[String: Any]] ?? []).map { host in
                let name = host["host"] as? String ?? "?"
                let state = host["state"] as? String ?? "?"
                return (host["reason"] as? String).map { "\(name) \(state) (\($0))" } ?? "\(name) \(state)"
            }
        }
    }

    @Test("the Facebook-style embed: its placeholder, then the post after the user's click, the video still blocked; counted by the dashboard")
    func facebookEmbed() throws {
        let proxy = try BrowserProcess.SiteProxy()
        let cache = try BrowserProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let page = "https://embeds.example/?facebook"
        let run = try BrowserProcess.runHeadless(
            urls: [page, "--click", #"[data-trackerless-click-to-load="block-ctl-fb"] button"#], proxy: proxy, cache: cache)
        #expect(run.status == 0, "\(run.standardError)")
        let loads = SiteToggleBrowserTests.loads(proxy.takeURLs(), pages: [page])
        try #require(loads.count == 1, "page loads seen by the server: \(loads)")
        #expect(loads[0].contains("https://embeds.example/report.gif?placeholders=2"), "\(loads[0])")
        #expect(loads[0].contains(Self.facebook), "the clicked post reached the server: \(loads[0])")
        #expect(!loads[0].contains(Self.youtube), "\(loads[0])")
        try #require(run.snapshots.count == 1)
        let hosts = Self.hostStates(run.snapshots[0])
        #expect(hosts.contains("www.facebook.com allowed (click to load)") && hosts.contains("www.youtube.com blocked"), "\(hosts)")
    }

    @Test("--click on a selector that matches nothing fails the run and says so")
    func missingElement() throws {
        let proxy = try BrowserProcess.SiteProxy()
        let cache = try BrowserProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let run = try BrowserProcess.runHeadless(urls: ["https://embeds.example/", "--click", "#missing"], proxy: proxy, cache: cache)
        #expect(run.status == 1)
        #expect(run.standardError.contains("https://embeds.example/: no element matches #missing"), "\(run.standardError)")
        _ = proxy.takeURLs()
    }
}

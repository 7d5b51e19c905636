import Foundation
import Testing

/// The navigation decision in the browser, with a privacy configuration that strips `utm_source`
/// and `fbclid`, resolves Google's AMP links and upgrades to https where DuckDuckGo's reference
/// Smarter Encryption filter (../shared/data) says so: what the loopback server sees.
@Suite("The WebKitGTK browser: navigation protections", .serialized, .enabled(if: BrowserProcess.canRun, BrowserProcess.skipMessage))
struct NavigationBrowserTests {
    static let configuration = #"""
        {"features": {
           "contentBlocking": {"state": "enabled", "exceptions": []},
           "https": {"state": "enabled", "exceptions": []},
           "trackingParameters": {"state": "enabled", "exceptions": [], "settings": {"parameters": ["utm_source", "fbclid"]}},
           "ampLinks": {"state": "enabled", "exceptions": [],
             "settings": {"linkFormats": ["^https?:\\/\\/(?:w{3}\\.)?google\\.\\S{2,}\\/amp\\/s\\/(\\S+)$"], "keywords": []}}},
         "unprotectedTemporary": []}
        """#

    @Test("a link with tracking parameters loads without them, typed or followed in the page; an AMP link loads its page; http goes to https where the filter says; a frame's URL is left alone")
    func navigations() throws {
        let proxy = try BrowserProcess.SiteProxy()
        let cache = try BrowserProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let configuration = cache.appendingPathComponent("privacy-config.json")
        try Data(Self.configuration.utf8).write(to: configuration)
        // The reference filter names firsttest.com (the loopback proxy serves every host).
        let filter = cache.appendingPathComponent("https")
        try FileManager.default.createDirectory(at: filter, withIntermediateDirectories: true)
        for (reference, name) in [("https_bloomfilter_reference.bin", "https_bloomfilter.bin"),
                                  ("https_bloomfilter_spec_reference.json", "https_bloomfilter_spec.json")] {
            try FileManager.default.copyItem(
                at: BrowserProcess.sharedData.appendingPathComponent("privacy-reference-tests/https-upgrades/" + reference),
                to: filter.appendingPathComponent(name))
        }
        let run = try BrowserProcess.runHeadless(
            urls: ["https://news.example/?utm_source=mail&id=7", "https://www.google.com/amp/s/news.example/?load=amp",
                   "http://firsttest.com/?utm_source=x&load=upgrade", "https://links.example/"],
            proxy: proxy, cache: cache, extraArguments: ["--privacy-config", configuration.path, "--https-filter", filter.path])
        #expect(run.status == 0, "\(run.standardError)")
        let seen = proxy.takeURLs()
        let pages = seen.filter {
            $0.hasPrefix("https://news.example/?") || $0.hasPrefix("https://links.example/") || $0.contains("google.com/amp") || $0.contains("firsttest.com")
        }
        #expect(pages == ["https://news.example/?id=7", "https://news.example/?load=amp", "https://firsttest.com/?load=upgrade",
                          "https://links.example/", "https://news.example/?load=link"],
                "the pages the server was asked for: \(pages)")
        #expect(!seen.contains { $0.contains("fbclid") || $0.contains("utm_source=mail") || $0.contains("www.google.com") }, "\(seen)")
        // The dashboard's page is the URL loaded.
        #expect(run.snapshots.first?["url"] as? String == "https://news.example/?id=7")
        // The frame of links.example: a frame's navigation is not the page's, and keeps its URL.
        #expect(seen.contains("https://news.example/report.gif?utm_source=frame"), "\(seen)")
    }
}

import Foundation
import Testing
import TrackerDataKit

/// `trackerless-browser --headless` on news.example (Tests/Sites: real tracker snippets and
/// stand-ins for the trackers' scripts), every host served by the loopback site proxy.
@Suite("The WebKitGTK browser", .serialized, .enabled(if: BrowserProcess.canRun, BrowserProcess.skipMessage))
struct BrowserTests {
    static let page = "https://news.example/"

    /// The type of each request the page makes, as the resolver classifies loads.
    static func requestType(of url: String) -> RequestType {
        if url == page { return .mainFrame }
        if url.contains("/pagead/ads") { return .subdocument }
        if url.hasSuffix(".js") || url.contains("/gtag/js") { return .script }
        if url.contains("bat.bing.com") || url.contains("/g/collect?v=2&tid") || url.contains("headlines.json") { return .xmlhttprequest }
        if url.hasSuffix("/collect") { return .ping }
        return .image
    }

    /// The browser's "rule lists: N compiled, M found in the store" line.
    static func listCounts(_ standardError: String) -> (compiled: Int, found: Int)? {
        guard let line = standardError.split(separator: "\n").first(where: { $0.contains("rule lists: ") }) else { return nil }
        let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        return numbers.count == 2 ? (numbers[0], numbers[1]) : nil
    }

    static let resolver: TrackerResolver? = {
        let path = BrowserProcess.sharedData.appendingPathComponent("tds/apple-tds.json").path
        guard let trackerData = try? TrackerData(contentsOfFile: path) else { return nil }
        return TrackerResolver(trackerData: trackerData, surrogates: .bundled)
    }()

    @Test("protected: no request the resolver blocks reaches the server, the surrogates keep the page's callbacks running, and a relaunch compiles nothing")
    func protectedPage() throws {
        let resolver = try #require(Self.resolver)
        let proxy = try BrowserProcess.SiteProxy()
        let cache = try BrowserProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }

        let first = try BrowserProcess.runHeadless(urls: [Self.page], proxy: proxy, cache: cache)
        #expect(first.status == 0, "\(first.standardError)")
        let firstCounts = try #require(Self.listCounts(first.standardError), "\(first.standardError)")
        #expect(firstCounts.compiled >= 1 && firstCounts.found == 0)
        let seen = proxy.takeURLs()
        #expect(seen.contains(Self.page))
        for url in seen {
            let decision = resolver.decision(forRequestURL: url, siteURL: Self.page, type: Self.requestType(of: url))
            #expect(decision?.isBlocked != true, "\(url) reached the server: \(String(describing: decision?.reason))")
        }
        #expect(seen.contains("https://news.example/report.gif?callbacks=ga%2Cgpt"), "the page reported: \(seen.filter { $0.contains("report") })")
        let snapshot = try #require(first.snapshots.first)
        #expect(snapshot["url"] as? String == Self.page)
        let trackers = try #require(snapshot["trackers"] as? [String: Any])
        #expect((trackers["blocked"] as? Int ?? 0) > 0)

        let relaunch = try BrowserProcess.runHeadless(urls: [Self.page], proxy: proxy, cache: cache)
        #expect(relaunch.status == 0, "\(relaunch.standardError)")
        let relaunchCounts = try #require(Self.listCounts(relaunch.standardError), "\(relaunch.standardError)")
        #expect(relaunchCounts.compiled == 0 && relaunchCounts.found == firstCounts.compiled)
        _ = proxy.takeURLs()
    }

    @Test("unprotected (the site in the user allowlist): the same page's trackers reach the server, so the protected test can fail")
    func unprotectedPage() throws {
        let resolver = try #require(Self.resolver)
        let proxy = try BrowserProcess.SiteProxy()
        let cache = try BrowserProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let allowlist = cache.appendingPathComponent("allowlist.json")
        try Data(#"["news.example"]"#.utf8).write(to: allowlist)
        let run = try BrowserProcess.runHeadless(urls: [Self.page], proxy: proxy, cache: cache, extraArguments: ["--allowlist", allowlist.path])
        #expect(run.status == 0, "\(run.standardError)")
        let blockedButSeen = proxy.takeURLs().filter {
            resolver.decision(forRequestURL: $0, siteURL: Self.page, type: Self.requestType(of: $0))?.isBlocked == true
        }
        #expect(blockedButSeen.count >= 5, "\(blockedButSeen)")
    }
}

@Suite("The WebKitGTK browser's window", .enabled(if: BrowserProcess.canRunWithoutSharedData, "needs xvfb-run (set TRACKERLESS_REQUIRE_WEBKIT=1 to fail instead)"))
struct BrowserWindowTests {
    @Test("trackerless-browser URL opens a window that loads the page and keeps running until it is closed")
    func window() throws {
        let proxy = try BrowserProcess.SiteProxy()
        let cache = try BrowserProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xvfb-run")
        process.arguments = ["-a", BrowserProcess.executable.path, "--cache", cache.path, "http://127.0.0.1:\(proxy.port)/"]
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var seen: [String] = []
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, !seen.contains(where: { $0.contains("/report.gif") }) {
            Thread.sleep(forTimeInterval: 0.5)
            seen += proxy.takeURLs()
        }
        #expect(seen.contains("http://127.0.0.1:\(proxy.port)/"), "\(seen)")
        #expect(seen.contains { $0.contains("/report.gif") }, "the page's script ran to its end: \(seen)")
        #expect(process.isRunning, "the window is still open")
    }
}

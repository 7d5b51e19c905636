import Foundation
import PrivacyStatsKit
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
            let decision = resolver.decision(forRequestURL: url, topURL: Self.page, type: Self.requestType(of: url))
            #expect(decision?.isBlocked != true, "\(url) reached the server: \(String(describing: decision?.reason))")
        }
        #expect(seen.contains("https://news.example/report.gif?callbacks=ga%2Cgpt"), "the page reported: \(seen.filter { $0.contains("report") })")
        let snapshot = try #require(first.snapshots.first)
        #expect(snapshot["url"] as? String == Self.page)
        // The dashboard counts what the page attempted (its own list) and what the server saw:
        // every request once, blocked or allowed as it happened.
        let list = try PageRequests(page: Self.page)
        #expect(list.unlisted.isEmpty, "listed but not in the page: \(list.unlisted)")
        let expected = list.expected(resolver: resolver, served: seen, typeOf: Self.requestType(of:))
        #expect(expected.blockedButServed.isEmpty && expected.allowedButNotServed.isEmpty, "\(expected)")
        // The package's README: "8 trackers blocked from 4 companies".
        #expect(expected.dashboard.blocked == 8 && expected.dashboard.companiesBlocked == 4, "\(expected.dashboard)")
        #expect(PageRequests.dashboard(of: snapshot) == expected.dashboard)
        // The run's totals were saved in the cache directory when the browser quit: its store,
        // read after the process ended, holds the page and its blocked trackers.
        let totals = try StatsStore(path: cache.appendingPathComponent("privacy-totals").path).totals.lifetime
        let shown = (snapshot["trackers"] as? [String: Any])?["blocked"] as? Int
        #expect(totals.pages == 1 && totals.trackersBlocked > 0 && totals.trackersBlocked == shown, "\(totals), the page showed \(shown ?? -1)")

        // The extension copied into <cache>/web-process-extension/lib, its configuration written
        // as one FileSet at <cache>/web-process-extension/data/set, once per set (the package's README).
        let library = cache.appendingPathComponent("web-process-extension/lib")
        let libraries = (try? FileManager.default.contentsOfDirectory(atPath: library.path)) ?? []
        #expect(libraries.contains { $0.hasSuffix(".so") }, "no .so in \(library.path): \(libraries)")
        let extensionSet = cache.appendingPathComponent("web-process-extension/data/set")
        let written = extensionSet.resolvingSymlinksInPath()
        #expect(FileManager.default.fileExists(atPath: written.path), "no \(extensionSet.path)")
        let writtenDate = try? FileManager.default.attributesOfItem(atPath: written.path)[.modificationDate] as? Date

        let relaunch = try BrowserProcess.runHeadless(urls: [Self.page], proxy: proxy, cache: cache)
        #expect(relaunch.status == 0, "\(relaunch.standardError)")
        #expect(extensionSet.resolvingSymlinksInPath() == written
                && (try? FileManager.default.attributesOfItem(atPath: written.path)[.modificationDate] as? Date) == writtenDate,
                "the relaunch with the same set wrote the extension's configuration again")
        let relaunchCounts = try #require(Self.listCounts(relaunch.standardError), "\(relaunch.standardError)")
        #expect(relaunchCounts.compiled == 0 && relaunchCounts.found == firstCounts.compiled)
        _ = proxy.takeURLs()
        // The cache directory holds WebKit's compiled lists, the statistics' totals and the web
        // view's persistent network session (the package's README).
        let filters = (try? FileManager.default.contentsOfDirectory(atPath: cache.appendingPathComponent("webkit-content-filters").path)) ?? []
        #expect(!filters.isEmpty, "no compiled list in <cache>/webkit-content-filters")
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: cache.appendingPathComponent("network-session").path, isDirectory: &isDirectory)
                && isDirectory.boolValue, "no <cache>/network-session directory")
    }

    @Test("unprotected (the site in the user allowlist): the same page's trackers reach the server, so the protected test can fail, and the dashboard counts each of them allowed")
    func unprotectedPage() throws {
        let resolver = try #require(Self.resolver)
        let proxy = try BrowserProcess.SiteProxy()
        let cache = try BrowserProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let allowlist = cache.appendingPathComponent("allowlist.json")
        try Data(#"["news.example"]"#.utf8).write(to: allowlist)
        let run = try BrowserProcess.runHeadless(urls: [Self.page], proxy: proxy, cache: cache, extraArguments: ["--allowlist", allowlist.path])
        #expect(run.status == 0, "\(run.standardError)")
        let seen = proxy.takeURLs()
        let blockedButSeen = seen.filter {
            resolver.decision(forRequestURL: $0, topURL: Self.page, type: Self.requestType(of: $0))?.isBlocked == true
        }
        #expect(blockedButSeen.count >= 5, "\(blockedButSeen)")
        // Everything loaded, the trackers' own requests too: the dashboard counts each of them
        // once, allowed.
        let expected = try PageRequests(page: Self.page).expected(resolver: resolver, served: seen, typeOf: Self.requestType(of:))
        #expect(expected.allowedButNotServed.isEmpty, "\(expected.allowedButNotServed)")
        #expect(expected.dashboard.blocked == 0 && expected.dashboard.allowed >= 5, "\(expected.dashboard)")
        // The package's README: "9 trackers from 4 companies", allowed.
        #expect(expected.dashboard.allowed == 9 && expected.dashboard.companiesAllowed == 4, "\(expected.dashboard)")
        let snapshot = try #require(run.snapshots.first)
        #expect(PageRequests.dashboard(of: snapshot) == expected.dashboard)
    }
}

/// `trackerless-browser --headless` on hostile.example: a page that hooks every key of the
/// message protocol on `Object.prototype` and `Array.prototype` and replaces built-ins before the
/// scripts' first use of them, forges messages (no secret, wrong ones, any 32-hex string its hooks
/// were given) and floods the handler with them, and overflows the blocking script's queue after
/// its own tracker requests. Its dashboard counts what it really requested, no more, no less.
@Suite("The WebKitGTK browser under a hostile page", .serialized, .enabled(if: BrowserProcess.canRun, BrowserProcess.skipMessage))
struct HostileBrowserTests {
    static let page = "https://hostile.example/"

    @Test("forged messages, hooked prototypes and a flooded queue change no count")
    func hostilePage() throws {
        let resolver = try #require(BrowserTests.resolver)
        let proxy = try BrowserProcess.SiteProxy()
        let cache = try BrowserProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let run = try BrowserProcess.runHeadless(urls: [Self.page], proxy: proxy, cache: cache)
        #expect(run.status == 0, "\(run.standardError)")
        let seen = proxy.takeURLs()
        #expect(seen.contains("https://hostile.example/report.gif?secrets=0"), "the page found a secret: \(seen)")
        let rejected = run.standardError.split(separator: "\n").first { $0.contains("messages rejected: wrongSecret") }
        let forged = rejected.flatMap { $0.split(separator: " ").last }.flatMap { Int($0) } ?? 0
        #expect(forged >= 4000, "the forged messages reached the host and were refused: \(run.standardError)")

        let list = try PageRequests(page: Self.page)
        #expect(list.unlisted.isEmpty, "listed but not in the page: \(list.unlisted)")
        let expected = list.expected(resolver: resolver, served: seen, typeOf: BrowserTests.requestType(of:))
        #expect(expected.blockedButServed.isEmpty, "\(expected.blockedButServed)")
        #expect(expected.dashboard.blocked >= 3 && expected.dashboard.companiesBlocked >= 3, "\(expected.dashboard)")
        let snapshot = try #require(run.snapshots.first)
        #expect(PageRequests.dashboard(of: snapshot) == expected.dashboard)
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
        func end() {
            BrowserProcess.killTree(process.processIdentifier)
            process.waitUntilExit()
        }
        defer { end() }
        var seen: [String] = []
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, !seen.contains(where: { $0.contains("/report.gif") }) {
            Thread.sleep(forTimeInterval: 0.5)
            seen += proxy.takeURLs()
        }
        #expect(seen.contains("http://127.0.0.1:\(proxy.port)/"), "\(seen)")
        #expect(seen.contains { $0.contains("/report.gif") }, "the page's script ran to its end: \(seen)")
        #expect(process.isRunning, "the window is still open")
        // Closed by the test: nothing it started is left (its cache path names its browser).
        end()
        #expect(BrowserProcess.processes(mentioning: cache.path).isEmpty, "processes left running: \(BrowserProcess.processes(mentioning: cache.path))")
    }
}

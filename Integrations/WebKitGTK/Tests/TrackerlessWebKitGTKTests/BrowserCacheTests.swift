import Foundation
import Testing
import TrackerDataKit

/// The browser's cache directory damaged between two launches.
@Suite("The WebKitGTK browser's cache", .serialized, .enabled(if: BrowserProcess.canRun, BrowserProcess.skipMessage))
struct BrowserCacheTests {
    @Test("a cache file cut short: the relaunch detects it, writes the set again, and the page is still protected")
    func cutCacheFile() throws {
        let resolver = try #require(BrowserTests.resolver)
        let proxy = try BrowserProcess.SiteProxy()
        let cache = try BrowserProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let page = BrowserTests.page

        let first = try BrowserProcess.runHeadless(urls: [page], proxy: proxy, cache: cache)
        #expect(first.status == 0, "\(first.standardError)")
        _ = proxy.takeURLs()

        // The set's files, through its link; the largest one checked at launch is cut to half its
        // size (the engine's rule sources are checked when first read, not at launch).
        let set = cache.appendingPathComponent("set").resolvingSymlinksInPath()
        let files = try FileManager.default.contentsOfDirectory(atPath: set.path)
            .filter { $0 != "engine.sources.json" }.map { set.appendingPathComponent($0) }
        let sizes = try files.map { ($0, try #require(try FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? Int)) }
        let (largest, size) = try #require(sizes.max { $0.1 < $1.1 })
        let handle = try FileHandle(forWritingTo: largest)
        try handle.truncate(atOffset: UInt64(size / 2))
        try handle.close()

        let relaunch = try BrowserProcess.runHeadless(urls: [page], proxy: proxy, cache: cache)
        #expect(relaunch.status == 0, "\(relaunch.standardError)")
        for url in proxy.takeURLs() {
            let decision = resolver.decision(forRequestURL: url, topURL: page, type: BrowserTests.requestType(of: url))
            #expect(decision?.isBlocked != true, "\(url) reached the server after the cache was cut")
        }
        let rewritten = cache.appendingPathComponent("set").resolvingSymlinksInPath().appendingPathComponent(largest.lastPathComponent)
        let newSize = try FileManager.default.attributesOfItem(atPath: rewritten.path)[.size] as? Int
        #expect(newSize == size, "\(largest.lastPathComponent): \(newSize ?? -1) bytes after the relaunch, \(size) before the cut")
        let snapshot = try #require(relaunch.snapshots.first)
        #expect(((snapshot["trackers"] as? [String: Any])?["blocked"] as? Int ?? 0) > 0)
    }

    @Test("another set's lists are removed from WebKit's store: a relaunch with another privacy configuration keeps only its own")
    func staleListsRemoved() throws {
        let proxy = try BrowserProcess.SiteProxy()
        let cache = try BrowserProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let store = cache.appendingPathComponent("webkit-content-filters").path
        let first = try BrowserProcess.runHeadless(urls: [BrowserTests.page], proxy: proxy, cache: cache)
        #expect(first.status == 0, "\(first.standardError)")
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: store))
        try #require(!before.isEmpty, "the first run compiled no list into \(store)")

        // The README's smallest configuration: another set, so other list identifiers.
        let configuration = BrowserProcess.packageRoot.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Examples/privacy-config.json").path
        let second = try BrowserProcess.runHeadless(urls: [BrowserTests.page], proxy: proxy, cache: cache,
                                                    extraArguments: ["--privacy-config", configuration])
        #expect(second.status == 0, "\(second.standardError)")
        _ = proxy.takeURLs()
        let after = Set(try FileManager.default.contentsOfDirectory(atPath: store))
        try #require(after != before, "the second set's lists are the first's: the test proves nothing")

        // What the second set alone leaves in a fresh cache: the store must hold that, no more.
        let fresh = try BrowserProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: fresh) }
        let alone = try BrowserProcess.runHeadless(urls: [BrowserTests.page], proxy: proxy, cache: fresh,
                                                   extraArguments: ["--privacy-config", configuration])
        #expect(alone.status == 0, "\(alone.standardError)")
        _ = proxy.takeURLs()
        let expected = Set(try FileManager.default.contentsOfDirectory(atPath: fresh.appendingPathComponent("webkit-content-filters").path))
        #expect(!expected.isEmpty)
        #expect(after == expected, "left of the first set: \(after.subtracting(expected).sorted()); missing: \(expected.subtracting(after).sorted())")
    }

    @Test("without --cache the cache is $XDG_CACHE_HOME/trackerless-browser: the set and WebKit's compiled lists are there")
    func defaultDirectory() throws {
        let proxy = try BrowserProcess.SiteProxy()
        let home = try BrowserProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let run = try BrowserProcess.runHeadless(
            urls: [BrowserTests.page], proxy: proxy, cache: home, passesCache: false, environment: ["XDG_CACHE_HOME": home.path])
        #expect(run.status == 0, "\(run.standardError)")
        let cache = home.appendingPathComponent("trackerless-browser")
        let set = cache.appendingPathComponent("set").resolvingSymlinksInPath()
        #expect(!((try? FileManager.default.contentsOfDirectory(atPath: set.path)) ?? []).isEmpty, "no set in \(cache.path)")
        let store = cache.appendingPathComponent("webkit-content-filters").path
        #expect(!((try? FileManager.default.contentsOfDirectory(atPath: store)) ?? []).isEmpty, "no compiled list in \(store)")
    }
}

import Foundation
import NavigationProtections
import RequestHookKit
import Testing
import TrackerDataKit
import TrackerlessCore
import TrackerlessRuntime
import TrackerlessWebKitGTK

/// The web-process extension's headers come from the set's navigation data, which the one build
/// writes: the same Sec-GPC and Referer as the navigation protections composed from the whole
/// inputs (`ProtectionInputs.navigationProtector`), with no tds.json or configuration parsed in
/// the web process.
@Suite("RequestHook: the navigation data of the set decides as the inputs")
struct NavigationDataHookTests {
    /// GPC and referrer trimming on, each with an excepted site, an unprotected site.
    static let configuration = #"""
        {"features": {
           "contentBlocking": {"state": "enabled", "exceptions": []},
           "referrer": {"state": "enabled", "exceptions": [{"domain": "blog.example"}, {"domain": "wikipedia.org"}]},
           "gpc": {"state": "enabled", "exceptions": [{"domain": "bank.example"}, {"domain": "amazon.com"}]}},
         "unprotectedTemporary": [{"domain": "unprotected.example"}]}
        """#

    static let sampleURLs = [
        "https://news.example/story", "https://ads.example/tag.js", "https://edge.ads.example/p", "https://stats.news.example/c",
        "https://track.shop.example/t", "https://shop.example/item", "https://metrics.example/m", "https://social.example/share",
        "https://blog.example/post", "https://bank.example/login", "https://unprotected.example/a", "https://allowed.example/",
    ]

    /// The number of requests whose headers from the hook differ from those of the inputs'
    /// composition, each pair of `urls` as page and request, as a script, an image and a
    /// navigation.
    static func differences(trackerData: InputDocument, urls: [String]) throws -> Int {
        let directory = try BrowserProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var inputs = ProtectionInputs(trackerData: trackerData)
        inputs.privacyConfiguration = .bytes(Array(configuration.utf8), name: "privacy-config.json")
        inputs.userAllowlist = .bytes(Array(#"["allowed.example"]"#.utf8), name: "allowlist.json")
        let runtime = try ProtectionRuntime(inputs: inputs, cacheDirectory: directory.appendingPathComponent("cache").path)
        let configuration = RequestHookConfiguration.current(
            of: runtime, blocksRequests: false, directory: directory.appendingPathComponent("data").path)
        let hook = try RequestHook(configuration: configuration)
        let expected = try inputs.navigationProtector(gpcHeaderScope: .everyRequest)
        let sitesOff = try UserAllowlist(parsing: Array(#"["allowed.example"]"#.utf8))
        var differences = 0
        for page in urls {
            for url in urls {
                for destination in ["script", "image", "document"] {
                    let request = HookedRequest(url: url, topURL: page, fetchDestination: destination, referrer: page)
                    let top = request.isMainDocument ? url : page
                    var gpc: String?
                    var referrer: String?
                    if let host = CanonicalURL(top)?.host, !sitesOff.contains(host: host) {
                        gpc = expected.globalPrivacyControl.headerValue(topURL: top)
                        let trimmed = request.isMainDocument
                            ? expected.referrerTrimming.navigationReferrer(page, from: page, to: url)
                            : expected.referrerTrimming.subrequestReferrer(page, topURL: top, requestURL: url)
                        referrer = trimmed == page ? nil : trimmed
                    }
                    let verdict = hook.verdict(for: request)
                    if verdict.globalPrivacyControl != gpc || verdict.trimmedReferrer != referrer {
                        differences += 1
                        Issue.record("\(destination) \(url) on \(page): \(verdict), expected Sec-GPC \(gpc ?? "none"), Referer \(referrer ?? "kept")")
                    }
                }
            }
        }
        return differences
    }

    @Test("the bundled sample: the extension's Sec-GPC and Referer as the inputs'")
    func sample() throws {
        #expect(try Self.differences(trackerData: ProtectionInputs.sample.trackerData, urls: Self.sampleURLs) == 0)
    }

    @Test("apple-tds.json: the extension's headers as the inputs' on real trackers and sites",
          .enabled(if: FileManager.default.fileExists(atPath: BrowserProcess.sharedData.appendingPathComponent("tds/apple-tds.json").path)
              || ProcessInfo.processInfo.environment["TRACKERLESS_REQUIRE_SHARED_DATA"] == "1",
              "needs ../shared/data/tds/apple-tds.json (set TRACKERLESS_REQUIRE_SHARED_DATA=1 to fail instead)"))
    func appleTDS() throws {
        let urls = [
            "https://www.google-analytics.com/analytics.js", "https://connect.facebook.net/en_US/fbevents.js",
            "https://www.facebook.com/plugins/post.php", "https://www.instagram.com/p/1", "https://www.youtube.com/embed/abc",
            "https://www.google.com/search", "https://doubleclick.net/x", "https://securepubads.g.doubleclick.net/tag/js/gpt.js",
            "https://www.amazon.com/dp/1", "https://m.media-amazon.com/images/a.jpg", "https://en.wikipedia.org/wiki/A",
            "https://www.nytimes.com/", "https://static01.nyt.com/a.js", "https://sb.scorecardresearch.com/beacon.js",
            "https://www.bing.com/", "https://bat.bing.com/bat.js", "https://twitter.com/x", "https://analytics.twitter.com/i",
        ] + Self.sampleURLs
        #expect(try Self.differences(
            trackerData: .file(BrowserProcess.sharedData.appendingPathComponent("tds/apple-tds.json").path), urls: urls) == 0)
    }

    @Test("the headers are set: Sec-GPC where GPC applies, a Referer cut to its origin toward another owner's tracker")
    func applied() throws {
        let directory = try BrowserProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var inputs = ProtectionInputs.sample
        inputs.privacyConfiguration = .bytes(Array(Self.configuration.utf8), name: "privacy-config.json")
        let runtime = try ProtectionRuntime(inputs: inputs, cacheDirectory: directory.appendingPathComponent("cache").path)
        let hook = try RequestHook(configuration: RequestHookConfiguration.current(
            of: runtime, blocksRequests: false, directory: directory.appendingPathComponent("data").path))
        let verdict = hook.verdict(for: HookedRequest(
            url: "https://ads.example/tag.js", topURL: "https://news.example/story", fetchDestination: "script",
            referrer: "https://news.example/story"))
        #expect(verdict == RequestVerdict(isBlocked: false, globalPrivacyControl: "1", trimmedReferrer: "https://news.example/"))
        let excepted = hook.verdict(for: HookedRequest(
            url: "https://ads.example/tag.js", topURL: "https://bank.example/", fetchDestination: "script"))
        #expect(excepted.globalPrivacyControl == nil)
    }
}

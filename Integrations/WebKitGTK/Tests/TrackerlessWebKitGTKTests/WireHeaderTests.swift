import Foundation
import Testing

/// The headers the navigation protections set, as the server receives them, in every mode: the
/// web-process extension adds `Sec-GPC: 1` where Global Privacy Control applies and trims
/// `Referer` where referrer trimming says so (../shared/data/privacy-reference-tests).
///
/// The pages ask for full referrers (`<meta name="referrer" content="unsafe-url">`), and the
/// browser's network session is persistent, where WebKit sends the `Referer` the extension
/// leaves, across sites too (in an ephemeral session WebKit 2.50.6's network process cuts every
/// cross-site `Referer` to the origin after the extension has seen it). The suite's CNAME case
/// runs on a page of its own (``cnamePage``/``cnameTracker``): a tracker that is same site for
/// WebKit.
@Suite("The WebKitGTK browser's Sec-GPC and Referer headers", .serialized, .enabled(if: BrowserProcess.canRun, BrowserProcess.skipMessage))
struct WireHeaderTests {
    static let folder = ReferenceSuitePages.root.appendingPathComponent("referrer-trimming")
    static let page = "https://super.safe1.com/path/to/something.html?cool=123"
    static let frame = "https://super.safe2.com/frame.html"
    /// What the frame loads: a request from super.safe2.com's document to super.safe1.com.
    static let fromFrame = "https://super.safe1.com/from-frame.gif"
    /// A page whose subdomain is a CNAME of a tracker (the suite's tds: tracker.cname.com →
    /// bad.tracker.com): same site for WebKit, a tracker for referrer trimming.
    static let cnamePage = "https://cname.com/path/to/something.html?cool=123"
    static let cnameTracker = "https://tracker.cname.com/script.js"
    /// The suite's subrequest cases made by this page with its own URL as referrer:
    /// request URL → the Referer it expects.
    static func subrequestCases() throws -> [String: String?] {
        let data = try Data(contentsOf: folder.appendingPathComponent("tests.json"))
        let suite = try #require(try JSONSerialization.jsonObject(with: data) as? [String: [String: Any]])
        let tests = try #require(suite["refererHeaderSubrequests"]?["tests"] as? [[String: Any]])
        var cases: [String: String?] = [:]
        for test in tests where test["siteURL"] as? String == page && test["referrerValue"] as? String == page {
            if let request = test["requestURL"] as? String { cases[request] = test["expectReferrerHeaderValue"] as? String }
        }
        return cases
    }

    /// The page, its frame and the inputs: the suite's tds, its configuration with `gpc` on.
    static func setUp(in directory: URL, requests: [String]) throws -> (sites: URL, arguments: [String]) {
        let sites = directory.appendingPathComponent("sites")
        func write(_ text: String, _ path: String) throws {
            let file = sites.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        let scripts = requests.sorted().map { "<script src=\"\($0)\"></script>" }.joined(separator: "\n")
        // Each document says what page script reads of navigator.globalPrivacyControl.
        func gpcReport(_ host: String, _ frame: String) -> String {
            "<script>new Image().src = 'https://\(host)/gpc.gif?frame=\(frame)&value=' + navigator.globalPrivacyControl;</script>"
        }
        try write(
            "<!doctype html><meta name=\"referrer\" content=\"unsafe-url\">\n\(gpcReport("super.safe1.com", "top"))\n\(scripts)\n<iframe src=\"\(frame)\"></iframe>\n",
            "super.safe1.com/path/to/something.html")
        try write(
            "<!doctype html><meta name=\"referrer\" content=\"unsafe-url\"><img src=\"\(fromFrame)\">\(gpcReport("super.safe2.com", "cross-origin"))\n",
            "super.safe2.com/frame.html")
        try write(
            "<!doctype html><meta name=\"referrer\" content=\"unsafe-url\"><script src=\"\(cnameTracker)\"></script>\n",
            "cname.com/path/to/something.html")
        let configData = try Data(contentsOf: folder.appendingPathComponent("config_reference.json"))
        var configuration = try #require(try JSONSerialization.jsonObject(with: configData) as? [String: Any])
        var features = configuration["features"] as? [String: Any] ?? [:]
        features["gpc"] = ["state": "enabled", "exceptions": [] as [Any]]
        features["contentBlocking"] = ["state": "enabled", "exceptions": [] as [Any]]
        configuration["features"] = features
        let configFile = directory.appendingPathComponent("privacy-config.json")
        try JSONSerialization.data(withJSONObject: configuration).write(to: configFile)
        return (sites, ["--tds", folder.appendingPathComponent("tracker_radar_reference.json").path, "--privacy-config", configFile.path])
    }

    @Test("Sec-GPC: 1 on the document, its subresources, its iframe and the iframe's requests, navigator.globalPrivacyControl true in the page and its frame; Referer trimmed as the referrer-trimming suite says",
          arguments: ["rules", "engine", "script"])
    func headers(mode: String) throws {
        let cases = try Self.subrequestCases()
        try #require(cases.count >= 4, "the suite's cases for \(Self.page): \(cases)")
        let directory = try BrowserProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (sites, arguments) = try Self.setUp(in: directory, requests: Array(cases.keys))
        let proxy = try BrowserProcess.SiteProxy(sites: sites)
        let run = try ModeEquivalenceTests.run(mode, urls: [Self.page, Self.cnamePage], proxy: proxy, extraArguments: arguments)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(!run.standardError.contains("web-process extension:"), "\(run.standardError)")
        let seen = Dictionary(run.requests.map { ($0.url, $0.headers) }, uniquingKeysWith: { first, _ in first })

        for url in [Self.page, Self.frame, Self.fromFrame] {
            #expect(seen[url]?["sec-gpc"] == "1", "\(mode): \(url): \(String(describing: seen[url]))")
        }
        #expect(seen[Self.frame]?["referer"] == "https://super.safe1.com/", "\(mode): the iframe's Referer")
        // navigator.globalPrivacyControl in the page and in its cross-origin frame.
        for report in ["https://super.safe1.com/gpc.gif?frame=top&value=true", "https://super.safe2.com/gpc.gif?frame=cross-origin&value=true"] {
            #expect(seen[report] != nil, "\(mode): \(report) not seen; GPC reports: \(seen.keys.filter { $0.contains("gpc.gif") }.sorted())")
        }
        #expect(seen[Self.fromFrame]?["referer"] == "https://super.safe2.com/", "\(mode): the frame's request's Referer")
        var checked = 0
        for (request, expected) in cases.sorted(by: { $0.key < $1.key }) {
            guard let headers = seen[request] else { continue }  // blocked in this mode
            checked += 1
            #expect(headers["sec-gpc"] == "1", "\(mode): \(request)")
            #expect(headers["referer"] == expected, "\(mode): \(request): Referer \(headers["referer"] ?? "none"), expected \(expected ?? "none")")
        }
        #expect(checked >= 3, "\(mode): the suite's requests that reached the server: \(checked)")
        // The CNAME'd tracker: blocked by the rules and the engine; the parser loads it in script
        // mode, and then with the Referer cut to the page's origin by the extension.
        if mode == "script" {
            #expect(seen[Self.cnameTracker]?["referer"] == "https://cname.com/", "\(String(describing: seen[Self.cnameTracker]))")
            #expect(seen[Self.cnameTracker]?["sec-gpc"] == "1")
        } else {
            #expect(seen[Self.cnameTracker] == nil, "\(mode): \(Self.cnameTracker) reached the server")
        }
    }

    @Test("without a privacy configuration no header is added or trimmed (so the test above can fail): the CNAME'd tracker gets the page's full URL")
    func withoutConfiguration() throws {
        let cases = try Self.subrequestCases()
        let directory = try BrowserProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (sites, arguments) = try Self.setUp(in: directory, requests: Array(cases.keys))
        let proxy = try BrowserProcess.SiteProxy(sites: sites)
        let run = try ModeEquivalenceTests.run(
            "script", urls: [Self.page, Self.cnamePage], proxy: proxy, extraArguments: Array(arguments.prefix(2)))
        #expect(run.status == 0, "\(run.standardError)")
        let seen = Dictionary(run.requests.map { ($0.url, $0.headers) }, uniquingKeysWith: { first, _ in first })
        #expect(run.requests.allSatisfy { $0.headers["sec-gpc"] == nil })
        #expect(!seen.keys.contains { $0.contains("gpc.gif") && $0.hasSuffix("value=true") }, "\(seen.keys.filter { $0.contains("gpc.gif") })")
        #expect(seen[Self.cnameTracker]?["referer"] == Self.cnamePage, "\(String(describing: seen[Self.cnameTracker]))")
    }
}

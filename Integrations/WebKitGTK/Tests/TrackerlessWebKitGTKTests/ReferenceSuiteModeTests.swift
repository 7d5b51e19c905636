import Foundation
import Testing

/// The reference suites' cases as pages (``ReferenceSuitePages``), under rules and engine modes:
/// the same requests reach the server, case by case, page by page.
@Suite("The WebKitGTK browser's modes on the reference suites", .serialized, .enabled(if: BrowserProcess.canRun, BrowserProcess.skipMessage))
struct ReferenceSuiteModeTests {
    /// A site's URL as the server receives its document: no fragment, path `/` when empty.
    static func documentURL(_ site: String) -> String {
        guard var components = URLComponents(string: site) else { return site }
        components.fragment = nil
        if components.path.isEmpty { components.path = "/" }
        return components.string ?? site
    }

    /// The requests of each page, by the page's document URL: the browser loads one page at a
    /// time, so a page's requests are those between its document (`Sec-Fetch-Dest: document`;
    /// for http pages, which get no fetch metadata, the next page's URL) and the next one.
    static func requestsByPage(_ requests: [BrowserProcess.SiteProxy.Request], pages documents: [String]) -> [String: [String]] {
        var pages: [String: [String]] = [:]
        var current: String?
        var next = 0
        for request in requests {
            let destination = request.headers["sec-fetch-dest"]
            let isDocument = destination == "document" || (destination == nil && next < documents.count && request.url == documents[next])
            if isDocument {
                if let index = documents[next...].firstIndex(of: request.url) { next = index + 1 }
                current = request.url
                pages[request.url, default: []] = []
            } else if let current {
                pages[current, default: []].append(request.url)
            }
        }
        return pages
    }

    @Test("rules and engine modes let the same requests reach the server", arguments: ReferenceSuitePages.all)
    func sameRequests(suite: ReferenceSuitePages) throws {
        let directory = try BrowserProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let sites = directory.appendingPathComponent("sites")
        try suite.writeSites(to: sites)
        let arguments = try suite.arguments(writingTo: directory)
        let proxy = try BrowserProcess.SiteProxy(sites: sites)
        let rules = try ModeEquivalenceTests.run("rules", urls: suite.sites, proxy: proxy, extraArguments: arguments)
        let engine = try ModeEquivalenceTests.run("engine", urls: suite.sites, proxy: proxy, extraArguments: arguments)
        #expect(rules.status == 0 && engine.status == 0, "\(suite.name): \(rules.standardError)\n\(engine.standardError)")
        #expect(!engine.standardError.contains("web-process extension:"), "\(engine.standardError)")
        let documents = suite.sites.map(Self.documentURL)
        let rulesPages = Self.requestsByPage(rules.requests, pages: documents)
        let enginePages = Self.requestsByPage(engine.requests, pages: documents)
        var blocked = 0
        for test in suite.cases {
            let page = Self.documentURL(test.site)
            guard let rulesLoads = rulesPages[page], let engineLoads = enginePages[page] else {
                Issue.record("\(suite.name): \(page) not loaded (rules: \(rulesPages[page] != nil), engine: \(enginePages[page] != nil))")
                continue
            }
            // Whether it reached the server, not how often: WebKit may fetch a URL twice (a
            // preload, then the element), and did so differently in the two modes where a page
            // requests one URL as two types and one of them is blocked.
            let reached = (rulesLoads.contains(test.request), engineLoads.contains(test.request))
            if !reached.0 { blocked += 1 }
            if let reason = ModeEquivalenceTests.knownDifferences[test.request] {
                #expect(reached.0 != reached.1, "\(suite.name): \(test.name): a known difference (\(reason)) is gone: remove it")
                continue
            }
            #expect(reached.0 == reached.1, "\(suite.name): \(test.name): \(test.request) on \(test.site): reached the server in rules mode \(reached.0), in engine mode \(reached.1)")
        }
        // The suite blocks something (else the comparison proves nothing).
        #expect(blocked > 0, "\(suite.name): no case was blocked")
    }
}

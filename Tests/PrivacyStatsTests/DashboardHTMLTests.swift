import Foundation
import PrivacyStatsKit
import Testing
import TrackerDataKit
import TrackerlessCore

@Suite("Dashboard output: JSON snapshot and HTML")
struct DashboardHTMLTests {
    static func snapshot() -> PageSnapshot {
        var page = PageStats(url: "https://site.test/", resolver: StatsFixture.resolver)
        page.record(StatsFixture.request("https://ads.tracker.test/x.js"))
        page.record(StatsFixture.request("https://social.test/s.js"))
        page.record(StatsFixture.request("https://analytics.test/other.js", .script, .loaded))
        page.record(.surrogate(url: "https://analytics.test/a.js", surrogate: "analytics.js"))
        return page.snapshot(tab: "7")
    }

    @Test("the JSON snapshot: schema, version and the counts, in a fixed order")
    func json() throws {
        let text = Self.snapshot().jsonString()
        #expect(text.hasPrefix(#"{"schema":"trackerless-dashboard","schemaVersion":2,"tab":"7","url":"https://site.test/""#))
        guard case .object(let object) = try JSONParser.parse(text) else {
            Issue.record("the snapshot is not a JSON object")
            return
        }
        #expect(object.keys == [
            "schema", "schemaVersion", "tab", "url", "committedURL", "site", "isProtected", "siteOwner", "requests",
            "trackers", "allowedReasons", "categories", "companies", "surrogates", "counters",
        ])
        #expect(text.contains(#""trackers":{"blocked":3,"allowed":1,"companiesBlocked":3,"companiesAllowed":1}"#))
        #expect(text.contains(#"{"host":"analytics.test","tracker":"analytics.test","state":"allowed","reason":"rule exception","category":"analytics","requests":1,"decidedBy":[{"kind":"trackerDefault","tracker":"analytics.test","default":"ignore"}]}"#))
        #expect(Self.snapshot().jsonString() == text)
    }

    @Test("each host names what decided its requests: the tds rule (its index and text) or default, in the JSON and in a <details> of the HTML")
    func decidedBy() throws {
        let snapshot = Self.snapshot()
        let hosts = snapshot.companies.flatMap(\.hosts)
        let analytics = try #require(hosts.first { $0.host == "analytics.test" && $0.state == .blocked })
        let rule = try #require(StatsFixture.resolver.trackerData.trackers["analytics.test"]?.rules[0])
        #expect(analytics.decidedBy == [.trackerRule(.init(trackerDomain: "analytics.test", index: 0, rule: rule))])
        #expect(snapshot.jsonString().contains(
            #""requests":1,"decidedBy":[{"kind":"trackerRule","tracker":"analytics.test","index":0,"rule":"analytics\\.test/a\\.js","surrogate":"analytics.js"}]}"#))
        let html = DashboardHTML.render(snapshot)
        #expect(html.contains(
            #"analytics.test: <span class="blocked-text">blocked</span><details><summary>Decided by</summary><ul class="decided-by"><li>rule 0 of analytics.test in the blocklist: <code>analytics\.test/a\.js</code></li></ul></details>"#))
        #expect(html.contains("<li>the default of social.test in the blocklist: <code>block</code></li>"))
    }

    @Test("a request that changes state takes its deciding entry along; a host without one writes no decidedBy")
    func decidedByMoves() throws {
        var page = PageStats(url: "https://site.test/", resolver: StatsFixture.resolver)
        page.record(StatsFixture.request("https://ads.tracker.test/x.js", .script, .pending))
        #expect(page.snapshot().companies.flatMap(\.hosts).map(\.state) == [.blocked])
        page.record(StatsFixture.request("https://ads.tracker.test/x.js", .script, .loaded))
        let hosts = page.snapshot().companies.flatMap(\.hosts)
        #expect(hosts.map(\.state) == [.allowed(.protectionsOff)])
        #expect(hosts.map(\.decidedBy) == [[.trackerDefault(trackerDomain: "tracker.test", defaultAction: .block)]])
        var empty = Self.snapshot()
        empty.companies[0].hosts[0].decidedBy = []
        #expect(!empty.jsonString().contains(#""requests":1,"decidedBy":[{"kind":"trackerDefault","tracker":"tracker.test""#))
        #expect(Self.snapshot().jsonString().contains(#""requests":1,"decidedBy":[{"kind":"trackerDefault","tracker":"tracker.test""#))
    }

    @Test("HTML: the deciding entry's text is escaped")
    func decidedByEscaped() {
        var snapshot = Self.snapshot()
        let rule = Tracker.Rule(rule: "</code><script>alert(1)</script>")
        snapshot.companies[0].hosts[0].decidedBy = [.trackerRule(.init(trackerDomain: "a<b", index: 0, rule: rule))]
        let html = DashboardHTML.render(snapshot)
        #expect(!html.contains("<script>alert"))
        #expect(html.contains("rule 0 of a&lt;b in the blocklist: <code>&lt;/code&gt;&lt;script&gt;alert(1)&lt;/script&gt;</code>"))
    }

    @Test("HTML: self-contained, semantic, accessible")
    func structure() {
        let html = DashboardHTML.render(Self.snapshot())
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        #expect(!html.contains("<script"))
        #expect(!html.contains("src="))
        #expect(!html.contains("href="))
        #expect(!html.contains("url("))
        #expect(html.contains("<caption>"))
        #expect(html.contains("<th scope=\"col\">Company</th>"))
        #expect(html.contains("<th scope=\"row\">Social</th>"))
        #expect(html.contains("role=\"img\" aria-label=\"Advertising: 1 blocked, 0 allowed\""))
        #expect(html.contains("<code>analytics.js</code> for analytics.test"))
        #expect(html.contains("major tracker network"))
    }

    @Test("HTML: every string from the data is escaped")
    func escaping() {
        var snapshot = Self.snapshot()
        snapshot.url = "https://site.test/?q=</title><script>alert(1)</script>&x='\""
        snapshot.companies[0].company.displayName = "<img src=x onerror=alert(1)>"
        snapshot.companies[0].hosts[0].host = "a\"b'c<d>e&f"
        let html = DashboardHTML.render(snapshot)
        #expect(!html.contains("<script>alert"))
        #expect(!html.contains("<img"))
        #expect(html.contains("&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;x=&#39;&quot;"))
        #expect(html.contains("a&quot;b&#39;c&lt;d&gt;e&amp;f"))
    }

    @Test("HTML of an empty page says no trackers were found")
    func empty() {
        let html = DashboardHTML.render(.empty(tab: nil))
        #expect(html.contains("No trackers were found on this page."))
    }
}

/// Renders the dashboard in WebKitGTK (Tests/PrivacyStatsTests/screenshot/render_dashboard.py)
/// and checks the screenshot is a page, not a blank window. Skipped when WebKitGTK is absent,
/// unless TRACKERLESS_REQUIRE_WEBKIT=1.
@Suite("Dashboard screenshot in WebKitGTK")
struct DashboardScreenshotTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("screenshot/render_dashboard.py").path

    static var isRequired: Bool { ProcessInfo.processInfo.environment["TRACKERLESS_REQUIRE_WEBKIT"] == "1" }

    static var hasWebKit: Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", "import gi; gi.require_version('WebKit2', '4.1'); from gi.repository import WebKit2"]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    @Test("the rendered dashboard is non-blank and loads nothing external",
          .enabled(if: isRequired || hasWebKit, "WebKitGTK (python3-gi, gir1.2-webkit2-4.1) not installed; set TRACKERLESS_REQUIRE_WEBKIT=1 to fail instead"))
    func screenshot() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dashboard-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let html = directory.appendingPathComponent("dashboard.html")
        let png = directory.appendingPathComponent("dashboard.png")
        try Data(DashboardHTML.render(DashboardHTMLTests.snapshot()).utf8).write(to: html)

        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Self.script, html.path, png.path]
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "render_dashboard.py failed with status \(process.terminationStatus)")
        guard case .object(let report) = try JSONParser.parse(Array(data)) else {
            Issue.record("no JSON report from render_dashboard.py")
            return
        }
        #expect(report["nonBlank"] == .bool(true))
        #expect(report["externalRequests"] == .array([]))
        if case .number(let colors)? = report["distinctColors"] { #expect(colors >= 50) }
        let bytes = try Data(contentsOf: png)
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(bytes.count > 10_000)
    }
}

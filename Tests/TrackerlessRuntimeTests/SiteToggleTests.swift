import Foundation
import PrivacyStatsKit
import Testing
import TrackerlessCore
import TrackerlessRuntime

@Suite("Site toggles: protection off and on per site, at the next navigation, without rebuilding")
struct SiteToggleTests {
    /// What the inference script reports on `page`: a tracker script (social.example, blocked
    /// by default) seen `state`.
    static func trackerReport(_ runtime: ProtectionRuntime, page: String, state: String, document: String) -> MessageBody {
        .json(RuntimeFixture.message(
            secret: runtime.secret, page: page, document: document,
            requests: [("https://social.example/widget.js", "script", state)]))
    }

    @Test("off: the navigation gets no rule list and no blocking script, and the dashboard says the user turned it off; on again: protected")
    func offThenOn() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let runtime = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory)
        let set = runtime.currentSet
        let page = "https://news.example/today"

        let protected = runtime.navigationPlan(for: page)
        #expect(protected.isProtected)
        #expect(protected.ruleLists == set.ruleLists)
        #expect(protected.scripts.map(\.name) == ["blocking.js", "inference.js"])

        try runtime.setProtection(false, forSite: "news.example")
        #expect(!runtime.isProtectionEnabled(forSite: "news.example"))
        #expect(runtime.sitesWithProtectionOff == ["news.example"])
        let off = runtime.navigationPlan(for: page)
        #expect(!off.isProtected)
        #expect(off.ruleLists.isEmpty)
        #expect(off.scripts.map(\.name) == ["inference.js"])
        #expect(off.messageHandlerName == "trackerless")
        #expect(off.protectionSet === set)   // nothing rebuilt
        // www. is the same site, as in DuckDuckGo's toggle; another site and another subdomain
        // keep protection.
        #expect(!runtime.navigationPlan(for: "https://www.news.example/").isProtected)
        #expect(!runtime.isProtectionEnabled(forSite: "www.news.example"))
        #expect(runtime.navigationPlan(for: "https://shop.example/").isProtected)
        #expect(runtime.navigationPlan(for: "https://m.news.example/").isProtected)

        runtime.didCommitNavigation(tab: "1", url: page)
        #expect(runtime.receive(Self.trackerReport(runtime, page: page, state: "loaded", document: "1111111111111111"), tab: "1").isAccepted)
        let unprotected = runtime.stats.snapshot(tab: "1")
        #expect(!unprotected.isProtected)
        #expect(unprotected.trackers.allowed == 1 && unprotected.trackers.blocked == 0)
        #expect(unprotected.allowedReasons.filter { $0.trackers > 0 }.map(\.reason) == [.userAllowlist])

        try runtime.setProtection(true, forSite: "news.example")
        #expect(runtime.isProtectionEnabled(forSite: "news.example"))
        #expect(runtime.navigationPlan(for: page).isProtected)
        #expect(runtime.currentSet === set)
        runtime.didCommitNavigation(tab: "1", url: page)
        #expect(runtime.receive(Self.trackerReport(runtime, page: page, state: "failed", document: "2222222222222222"), tab: "1").isAccepted)
        let protectedAgain = runtime.stats.snapshot(tab: "1")
        #expect(protectedAgain.isProtected)
        #expect(protectedAgain.trackers.blocked == 1 && protectedAgain.trackers.allowed == 0)
    }

    @Test("toggles are saved atomically as a user allowlist in the cache directory and read at the next launch")
    func persisted() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            let runtime = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory)
            try runtime.setProtection(false, forSite: "News.Example")
            try runtime.setProtection(false, forSite: "shop.example")
            try runtime.setProtection(true, forSite: "shop.example")
            let saved = String(decoding: try FileIO.read(path: runtime.siteTogglesPath), as: UTF8.self)
            #expect(saved == #"["news.example"]"#)
        }
        let relaunched = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory)
        #expect(relaunched.sitesWithProtectionOff == ["news.example"])
        #expect(!relaunched.navigationPlan(for: "https://news.example/").isProtected)
        #expect(relaunched.lastStorageError == nil)
    }

    @Test("a damaged toggles file: protection on everywhere (the safe side), and the runtime says why")
    func damagedToggles() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data(#"["news.example""#.utf8).write(to: URL(fileURLWithPath: directory + "/protection-off.json"))
        let runtime = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory)
        #expect(runtime.navigationPlan(for: "https://news.example/").isProtected)
        #expect(runtime.sitesWithProtectionOff.isEmpty)
        let error = try #require(runtime.lastStorageError)
        #expect(error.input == .userAllowlist)
        #expect(error.description.contains("protection-off.json"))
        // The next toggle writes the file whole again.
        try runtime.setProtection(false, forSite: "shop.example")
        #expect(String(decoding: try FileIO.read(path: runtime.siteTogglesPath), as: UTF8.self) == #"["shop.example"]"#)
    }

    @Test("a site in the inputs' user allowlist is off, and the plan says so")
    func inputAllowlist() throws {
        var inputs = RuntimeFixture.inputs
        inputs.userAllowlist = .bytes(Array(#"["blog.example"]"#.utf8), name: "allowlist.json")
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let runtime = try ProtectionRuntime(inputs: inputs, cacheDirectory: directory)
        #expect(!runtime.navigationPlan(for: "https://blog.example/post").isProtected)
        #expect(!runtime.isProtectionEnabled(forSite: "blog.example"))
        // A web process is told both kinds, the allowlist as the build parsed it.
        try runtime.setProtection(false, forSite: "news.example")
        #expect(runtime.sitesWithProtectionOff == ["news.example"])
        #expect(runtime.allSitesWithProtectionOff == ["blog.example", "news.example"])
    }

    @Test("a toggle of www.host is the toggle of host, both ways, in the plan, the list and the statistics' resolver")
    func wwwIsTheBareDomain() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let runtime = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory)
        try runtime.setProtection(false, forSite: "www.news.example")
        #expect(runtime.sitesWithProtectionOff == ["news.example"])
        #expect(!runtime.navigationPlan(for: "https://news.example/").isProtected)
        #expect(!runtime.navigationPlan(for: "https://www.news.example/").isProtected)
        runtime.didCommitNavigation(tab: "1", url: "https://news.example/")
        #expect(runtime.receive(Self.trackerReport(runtime, page: "https://news.example/", state: "loaded", document: "3333333333333333"), tab: "1").isAccepted)
        #expect(runtime.stats.snapshot(tab: "1").allowedReasons.filter { $0.trackers > 0 }.map(\.reason) == [.userAllowlist])
        try runtime.setProtection(true, forSite: "news.example")
        #expect(runtime.sitesWithProtectionOff.isEmpty)
        #expect(runtime.navigationPlan(for: "https://www.news.example/").isProtected)
    }
}

@Suite("Runtime: site toggles take hosts only")
struct SiteToggleHostTests {
    @Test("a URL, spaces, an empty string or 100 MB are refused naming the toggle; nothing is saved")
    func refused() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let runtime = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory)
        let huge = String(repeating: "a", count: 100 << 20)
        for host in ["https://news.example/", "news example", "", "news..example", "a/b", String(repeating: "x", count: 64) + ".example", huge] {
            let error = try #require(throws: ProtectionError.self) { try runtime.setProtection(false, forSite: host) }
            #expect("\(error)".hasPrefix("user allowlist: site toggle \""), "\(error)")
            #expect("\(error)".utf8.count < 400)
            #expect("\(error)".contains("not a host name or IP address"))
        }
        #expect(runtime.sitesWithProtectionOff.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: runtime.siteTogglesPath))
    }

    @Test("host names, IP addresses and internationalized names are taken, normalized (a final dot dropped)")
    func accepted() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let runtime = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory)
        for host in ["News.Example", "127.0.0.1", "[::1]", "bücher.example", "under_score.example", "fqdn.example."] {
            try runtime.setProtection(false, forSite: host)
        }
        // The normal form (DomainName) drops a final dot: the site is the same with or without it.
        #expect(runtime.sitesWithProtectionOff == ["127.0.0.1", "[::1]", "fqdn.example", "news.example", "under_score.example", "xn--bcher-kva.example"])
        #expect(!runtime.navigationPlan(for: "https://bücher.example/").isProtected)
        #expect(!runtime.navigationPlan(for: "https://fqdn.example./").isProtected)
        #expect(!runtime.navigationPlan(for: "https://fqdn.example/").isProtected)
    }
}

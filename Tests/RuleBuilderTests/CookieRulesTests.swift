import ContentRuleList
import Foundation
import RuleBuilder
import Testing
import TrackerDataKit
import TrackerlessCore

/// Cookie rules built from a blocklist and a configuration, evaluated with ``ReferenceEvaluator``
/// (WebKit's semantics) and cross-checked with ``CookieProtection`` (the meaning the rules must
/// have).
private struct CookieRulesFixture {
    let build: RuleListBuild
    let evaluator: ReferenceEvaluator
    /// For the oldest target, the lists in WebKitGTK 2.44 and 2.54, which decide third party otherwise.
    let otherEvaluators: [ReferenceEvaluator]
    let protection: CookieProtection

    init(
        trackerData: TrackerData, configuration: PrivacyConfiguration? = nil, userAllowlist: [String] = [],
        settings: RuleListBuilder.Settings = RuleListBuilder.Settings()
    ) throws {
        let allowlist = UserAllowlist(domains: userAllowlist)
        build = CookieRules(trackerData: trackerData, configuration: configuration, userAllowlist: allowlist, settings: settings).build()
        evaluator = try ReferenceEvaluator(ruleLists: build.ruleLists, target: settings.target)
        otherEvaluators = settings.target == .oldest
            ? [try ReferenceEvaluator(ruleLists: build.ruleLists, target: .webKitGTK2_44),
               try ReferenceEvaluator(ruleLists: build.ruleLists, target: .webKitGTK2_54)] : []
        protection = CookieProtection(trackerData: trackerData, configuration: configuration, userAllowlist: allowlist)
    }

    init(configuration: String? = nil, userAllowlist: [String] = [], settings: RuleListBuilder.Settings = RuleListBuilder.Settings()) throws {
        try self.init(
            trackerData: CookieRulesTests.trackerData,
            configuration: configuration.map { try PrivacyConfiguration(parsing: Array($0.utf8), file: "test config") },
            userAllowlist: userAllowlist, settings: settings)
    }

    /// Whether WebKit strips the load's cookies; records an issue when ``CookieProtection``
    /// disagrees. A child-document load is the frame's document (its `document.cookie` decision).
    func blocksCookies(
        _ url: String, on site: String, _ type: ResourceType = .image, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        let request = type == .topDocument ? Request.mainDocument(url) : Request(url: url, topURL: site, resourceType: type)
        let webKit = evaluator.actions(for: request).blocksCookies
        for other in otherEvaluators {
            let otherWebKit = other.actions(for: request).blocksCookies
            #expect(otherWebKit == webKit, "\(other.target) \(otherWebKit) but \(evaluator.target) \(webKit) for \(url) on \(site)",
                    sourceLocation: sourceLocation)
        }
        let decision = type == .childDocument
            ? protection.decision(forFrameURL: url, topURL: site)
            : protection.decision(forRequestURL: url, topURL: type == .topDocument ? url : site)
        let expected = decision?.blocksCookies ?? false
        #expect(webKit == expected, "WebKit \(webKit) but CookieProtection \(expected) (\(decision?.reason.rawValue ?? "nil")) for \(url) on \(site)",
                sourceLocation: sourceLocation)
        return webKit
    }
}

extension CookieRulesFixture: CustomTestStringConvertible {
    /// Keeps failure messages short: the evaluator's tables are large.
    var testDescription: String { "cookie rules (\(build.ruleCount) rules)" }
}

@Suite("Cookie rules: tracking-cookie protection in WebKit rules")
struct CookieRulesTests {
    /// `tracker.example` (Tracker Inc, which also owns `tracker-owned.example`),
    /// `ignored.example` (default ignore), `sub.tracker.example` nested in tracker.example but
    /// owned by Other Co (owner of `other.example`), and `metrics.news.example` cloaking
    /// `t.tracker.example`.
    static let trackerData = TrackerData(
        trackers: [
            "tracker.example": Tracker(domain: "tracker.example", owner: .init(name: "Tracker Inc"), defaultAction: .block),
            "ignored.example": Tracker(domain: "ignored.example", owner: .init(name: "Ignore Co"), defaultAction: .ignore),
            "sub.tracker.example": Tracker(domain: "sub.tracker.example", owner: .init(name: "Other Co"), defaultAction: .block),
        ],
        domains: [
            "tracker.example": "Tracker Inc", "tracker-owned.example": "Tracker Inc", "ignored.example": "Ignore Co",
            "other.example": "Other Co",
        ],
        cnames: ["metrics.news.example": "t.tracker.example", "cdn.tracker.example": "ignored.example"])

    @Test("a third-party tracker's loads go without cookies, on every subdomain and whatever its default")
    func thirdParty() throws {
        let rules = try CookieRulesFixture()
        #expect(rules.blocksCookies("https://tracker.example/p.gif", on: "https://news.example/"))
        #expect(rules.blocksCookies("https://a.b.tracker.example:8443/p", on: "https://news.example/", .script))
        #expect(rules.blocksCookies("https://ignored.example/p", on: "https://news.example/", .fetch))
        #expect(!rules.blocksCookies("https://nottracker.example/p", on: "https://news.example/"))
        #expect(!rules.blocksCookies("https://news.example/?u=https://tracker.example/", on: "https://news.example/"))
    }

    @Test("first party: same site, the tracker's company, navigations")
    func firstParty() throws {
        let rules = try CookieRulesFixture()
        #expect(!rules.blocksCookies("https://cdn.tracker.example/p", on: "https://www.tracker.example/"))
        #expect(!rules.blocksCookies("https://tracker.example/p", on: "https://shop.tracker-owned.example/"))
        #expect(rules.blocksCookies("https://ignored.example/p", on: "https://tracker-owned.example/"))
        #expect(!rules.blocksCookies("https://tracker.example/", on: "https://news.example/", .topDocument))
    }

    @Test("a nested tracker of another company is first party only to its own company")
    func nested() throws {
        let rules = try CookieRulesFixture()
        #expect(!rules.blocksCookies("https://sub.tracker.example/p", on: "https://other.example/"))
        #expect(rules.blocksCookies("https://sub.tracker.example/p", on: "https://tracker-owned.example/"))
        #expect(!rules.blocksCookies("https://x.tracker.example/p", on: "https://tracker-owned.example/"))
        #expect(rules.blocksCookies("https://x.tracker.example/p", on: "https://other.example/"))
    }

    @Test("a cloaked host loses its cookies on its own site, but not as the page itself; a direct match wins")
    func cloaked() throws {
        let rules = try CookieRulesFixture()
        #expect(rules.blocksCookies("https://metrics.news.example/c", on: "https://www.news.example/"))
        #expect(!rules.blocksCookies("https://metrics.news.example/c", on: "https://metrics.news.example/"))
        #expect(!rules.blocksCookies("https://metrics.news.example/", on: "https://metrics.news.example/", .topDocument))
        #expect(!rules.blocksCookies("https://metrics.news.example/c", on: "https://tracker-owned.example/"))
        #expect(!rules.blocksCookies("https://a.metrics.news.example/c", on: "https://www.news.example/"))
        // cdn.tracker.example is tracker.example's, not the CNAME target's.
        #expect(!rules.blocksCookies("https://cdn.tracker.example/c", on: "https://tracker-owned.example/"))
        #expect(rules.blocksCookies("https://cdn.tracker.example/c", on: "https://ignored.example/"))
    }

    @Test("frames: a tracker frame's document load goes without cookies")
    func frames() throws {
        let rules = try CookieRulesFixture()
        #expect(rules.blocksCookies("https://tracker.example/frame", on: "https://news.example/", .childDocument))
        #expect(!rules.blocksCookies("https://news.example/frame", on: "https://news.example/", .childDocument))
    }

    @Test("configuration: feature off, site exceptions, excluded domains, the user allowlist")
    func configuration() throws {
        let off = try CookieRulesFixture(configuration: #"{"features": {"cookie": {"state": "enabled", "settings": {"trackerCookie": "disabled"}}}}"#)
        #expect(!off.blocksCookies("https://tracker.example/p", on: "https://news.example/"))
        #expect(off.build.ruleLists.count == 1)

        let rules = try CookieRulesFixture(configuration: #"""
            {"features": {"trackingCookies3p": {"state": "enabled", "exceptions": [{"domain": "news.example"}],
              "settings": {"excludedCookieDomains": [{"domain": "cdn.tracker.example"}]}}},
             "unprotectedTemporary": [{"domain": "blog.example"}]}
            """#, userAllowlist: ["shop.example"])
        #expect(!rules.blocksCookies("https://tracker.example/p", on: "https://www.news.example/"))
        #expect(!rules.blocksCookies("https://tracker.example/p", on: "https://blog.example/"))
        #expect(rules.blocksCookies("https://tracker.example/p", on: "https://badnews.example/"))
        #expect(!rules.blocksCookies("https://a.cdn.tracker.example/p", on: "https://x.example/"))
        #expect(rules.blocksCookies("https://xcdn.tracker.example/p", on: "https://x.example/"))
        #expect(!rules.blocksCookies("https://tracker.example/p", on: "https://shop.example/"))
        #expect(!rules.blocksCookies("https://tracker.example/p", on: "https://www.shop.example/"))   // www. is the same domain
        #expect(rules.blocksCookies("https://tracker.example/p", on: "https://m.shop.example/"))
    }

    @Test("both site-condition styles agree with CookieProtection on every pair of a grid",
          arguments: RuleListBuilder.Settings.SiteConditionStyle.allCases)
    func grid(_ style: RuleListBuilder.Settings.SiteConditionStyle) throws {
        let rules = try CookieRulesFixture(
            configuration: #"{"features": {"trackingCookies3p": {"state": "enabled", "settings": {"excludedCookieDomains": ["ignored.example"]}}}}"#,
            settings: RuleListBuilder.Settings(siteConditionStyle: style))
        let hosts = ["tracker.example", "www.tracker.example", "sub.tracker.example", "a.sub.tracker.example",
                     "cdn.tracker.example", "ignored.example", "x.ignored.example", "tracker-owned.example",
                     "other.example", "metrics.news.example", "news.example", "www.news.example", "unrelated.example"]
        for site in hosts {
            for request in hosts {
                for type in [ResourceType.image, .childDocument] {
                    _ = rules.blocksCookies("https://\(request)/x", on: "https://\(site)/", type)
                }
            }
        }
    }

    @Test("a company's domain inside another company's domain is reported as approximated")
    func nestedSites() {
        var trackerData = Self.trackerData
        trackerData.domains["blog.tracker-owned.example"] = "Other Co"
        let build = CookieRules(trackerData: trackerData).build()
        #expect(build.report.approximations.map(\.path) == [#"domains["blog.tracker-owned.example"]"#])
        #expect(CookieRules(trackerData: Self.trackerData).build().report.approximations.isEmpty)
    }

    @Test("the lists are valid WebKit JSON, and the build is deterministic")
    func validJSON() throws {
        let first = try CookieRulesFixture().build
        let second = try CookieRulesFixture().build
        #expect(first.ruleLists.map { $0.encoded() } == second.ruleLists.map { $0.encoded() })
        for list in first.ruleLists {
            #expect(throws: Never.self) { try RuleList(parsing: list.encoded()) }
        }
        let json = String(decoding: try #require(first.ruleLists.first).encoded(), as: UTF8.self)
        #expect(json.contains(#""block-cookies""#))
        #expect(!json.contains(#""block""#))
    }
}

/// privacy-reference-tests/block-third-party-tracking-cookies through the built rules: header
/// cases as a subresource load of the request URL, `document.cookie` cases as the frame's
/// document load. The cases are read here because this test target has no TestSupport.
@Suite("Third-party tracking-cookie reference tests through the cookie rules",
       .enabled(if: CookieSuite.shouldRun, "shared data not found beside the package (../shared/data); set TRACKERLESS_REQUIRE_SHARED_DATA=1 to fail instead"))
struct CookieRulesReferenceTests {
    @Test("the suite has 28 cases")
    func suiteSize() {
        #expect(CookieSuite.cases.count == 28)
    }

    @Test("cookies kept or blocked by the rules", arguments: CookieSuite.cases)
    func referenceCase(_ test: CookieSuite.Case) throws {
        let trackerData = try TrackerData(contentsOfFile: CookieSuite.path("tracker_radar_reference.json"))
        let configuration = try PrivacyConfiguration(contentsOfFile: CookieSuite.path("config_reference.json"))
        let rules = try CookieRulesFixture(trackerData: trackerData, configuration: configuration)
        #expect(rules.blocksCookies(test.url, on: test.topURL, test.isFrame ? .childDocument : .image) == test.expectsBlocked)
    }
}

/// The reference suite's cases, read without TestSupport.
struct CookieSuite {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var topURL: String
        /// The request URL, or the frame URL of a `document.cookie` case.
        var url: String
        var isFrame: Bool
        var expectsBlocked: Bool
        var testDescription: String { name }
    }

    static let directory: URL = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()  // package root
        .deletingLastPathComponent().appendingPathComponent("shared/data/privacy-reference-tests/block-third-party-tracking-cookies")

    static func path(_ file: String) -> String { directory.appendingPathComponent(file).path }

    /// A file of `<package root>/../shared/data`, for example `tds/apple-tds.json`.
    static func sharedPath(_ file: String) -> String {
        directory.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(file).path
    }

    static var shouldRun: Bool {
        ProcessInfo.processInfo.environment["TRACKERLESS_REQUIRE_SHARED_DATA"] == "1"
            || FileManager.default.fileExists(atPath: path("tests.json"))
    }

    static let cases: [Case] = {
        guard let data = FileManager.default.contents(atPath: path("tests.json")),
              let value = try? JSONParser.parse([UInt8](data)), let sets = try? JSONNode(value).members()
        else { return [] }
        var cases: [Case] = []
        for (key, set) in sets {
            for test in (try? set.required("tests").array()) ?? [] {
                let name = "\(key): " + ((try? test.required("name").string()) ?? "?")
                let site = (try? test.required("siteURL").string()) ?? ""
                if let removed = (try? test["expectCookieHeadersRemoved"]?.bool()) ?? (try? test["expectSetCookieHeadersRemoved"]?.bool()) {
                    let url = (try? test.required("requestURL").string()) ?? ""
                    cases.append(Case(name: name, topURL: site, url: url, isFrame: false, expectsBlocked: removed))
                } else if let stored = try? test["expectDocumentCookieSet"]?.bool() {
                    let url = (try? test["frameURL"]?.string()) ?? site
                    cases.append(Case(name: name, topURL: site, url: url, isFrame: true, expectsBlocked: !stored))
                }
            }
        }
        return cases
    }()
}

/// DuckDuckGo's real blocklists: the cookie rules are valid WebKit JSON, and for every fourth of
/// adblock-rust's 8,276 real request URLs, each on a few real pages and on its own site, WebKit's
/// answer (the reference evaluator) is CookieProtection's. (All of them agree too, in 95 s of a
/// debug build instead of 25.)
@Suite("Cookie rules on the real blocklists", .enabled(if: CookieSuite.shouldRun, "shared data not found beside the package (../shared/data)"))
struct CookieRulesRealDataTests {
    static let blocklists = ["tds/apple-tds.json", "tds/extension-tds.json"]

    static let pages = [
        "https://www.google.com/", "https://www.youtube.com/watch?v=1", "https://www.facebook.com/",
        "https://www.nytimes.com/", "https://example.com/", "https://www.amazon.co.uk/",
    ]

    static let requests: [(url: String, type: ResourceType)] = {
        guard let data = FileManager.default.contents(atPath: CookieSuite.sharedPath("requests/matching-test-requests.json")),
              let value = try? JSONParser.parse([UInt8](data)), let items = try? JSONNode(value).array()
        else { return [] }
        return items.compactMap { item in
            guard let url = try? item.required("url").string() else { return nil }
            let type: ResourceType = (try? item.required("type").string()) == "subdocument" ? .childDocument : .image
            return (url, type)
        }
    }()

    @Test("rules agree with CookieProtection on real requests", arguments: blocklists)
    func agreement(_ blocklist: String) throws {
        let trackerData = try TrackerData(contentsOfFile: CookieSuite.sharedPath(blocklist))
        let rules = try CookieRulesFixture(trackerData: trackerData)
        // In extension-tds.json two companies' trackers × sites would be 160 MB: each gets lists of its own.
        #expect(rules.build.ruleLists.count == (blocklist == "tds/extension-tds.json" ? 3 : 1))
        #expect(rules.build.report.skippedRules.isEmpty, "\(rules.build.report.skippedRules.prefix(5))")
        #expect(rules.build.report.approximations.isEmpty, "\(rules.build.report.approximations.prefix(5))")
        for list in rules.build.ruleLists {
            #expect(throws: Never.self) { try RuleList(parsing: list.encoded()) }
        }
        #expect(Self.requests.count == 8276)
        var blocked = 0
        for request in Self.requests.enumerated().filter({ $0.offset % 4 == 0 }).map(\.element) {
            var pages = Self.pages
            if let own = CanonicalURL(request.url), !own.host.isEmpty { pages.append("https://\(own.host)/") }
            for page in pages where rules.blocksCookies(request.url, on: page, request.type) {
                blocked += 1
            }
        }
        // Most of these URLs are trackers: a rule list that never fires would pass the agreement.
        #expect(blocked > 1_500)
    }
}

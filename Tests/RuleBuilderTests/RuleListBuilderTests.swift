import ContentRuleList
@testable import RuleBuilder
import Testing
import TrackerDataKit

/// Examples in WebKit's style: a blocklist, the rules built from it, a load, what WebKit does.
/// Loads are evaluated with ``ReferenceEvaluator`` (WebKit's semantics) and cross-checked with
/// ``TrackerResolver`` (the meaning the rules must have).
struct BuiltRules {
    let build: RuleListBuild
    let evaluator: ReferenceEvaluator
    /// For the oldest target, the lists as WebKits that decide third party by registrable domain
    /// (WebKitGTK 2.54; 2.44 by host under an unlisted top-level domain) evaluate them: they must
    /// mean the same there.
    let otherEvaluators: [ReferenceEvaluator]
    let resolver: TrackerResolver

    init(
        _ tds: String, configuration: String? = nil, userAllowlist: [String] = [],
        settings: RuleListBuilder.Settings = RuleListBuilder.Settings()
    ) throws {
        let trackerData = try TrackerData(parsing: Array(tds.utf8), file: "test tds")
        let config = try configuration.map { try PrivacyConfiguration(parsing: Array($0.utf8), file: "test config") }
        let allowlist = UserAllowlist(domains: userAllowlist)
        build = RuleListBuilder(trackerData: trackerData, configuration: config, userAllowlist: allowlist, settings: settings).build()
        evaluator = try ReferenceEvaluator(ruleLists: build.ruleLists, target: settings.target)
        otherEvaluators = settings.target == .oldest
            ? [try ReferenceEvaluator(ruleLists: build.ruleLists, target: .webKitGTK2_44),
               try ReferenceEvaluator(ruleLists: build.ruleLists, target: .webKitGTK2_54)] : []
        resolver = TrackerResolver(trackerData: trackerData, privacyConfiguration: config, userAllowlist: allowlist)
    }

    /// Whether WebKit blocks the load; records an issue when the resolver disagrees.
    func blocks(_ url: String, on page: String, _ type: ResourceType = .script,
                sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let request = type == .topDocument
            ? Request.mainDocument(url)
            : Request(url: url, topURL: page, resourceType: type)
        let webKit = evaluator.actions(for: request).isBlocked
        for other in otherEvaluators {
            let otherWebKit = other.actions(for: request).isBlocked
            #expect(otherWebKit == webKit, "\(other.target) \(otherWebKit) but \(evaluator.target) \(webKit) for \(url) on \(page)",
                    sourceLocation: sourceLocation)
        }
        let resolved = resolver.decision(forRequestURL: url, topURL: page, type: RequestType(webKitResourceType: type))?.isBlocked ?? false
        #expect(webKit == resolved, "WebKit \(webKit) but resolver \(resolved) for \(url) on \(page)", sourceLocation: sourceLocation)
        return webKit
    }
}

/// A tracker entry with the usual fields; `rules` is JSON for the rules array.
func tracker(_ domain: String, owner: String = "Tracker Inc.", default action: String = "block", rules: String = "[]") -> String {
    #""\#(domain)": {"domain": "\#(domain)", "owner": {"name": "\#(owner)", "displayName": "\#(owner)"}, "prevalence": 0.1, "fingerprinting": 1, "cookies": 0.1, "categories": [], "default": "\#(action)", "rules": \#(rules)}"#
}

func tds(_ trackers: [String], entities: String = "{}", domains: String = "{}", cnames: String = "{}") -> String {
    #"{"trackers": {\#(trackers.joined(separator: ","))}, "entities": \#(entities), "domains": \#(domains), "cnames": \#(cnames)}"#
}

@Suite("Rule builder: Tracker Radar semantics in WebKit rules")
struct RuleListBuilderTests {
    @Test("a default-block tracker is blocked as a third party, on every subdomain and port")
    func defaultBlock() throws {
        let rules = try BuiltRules(tds([tracker("tracker.example")]))
        #expect(rules.blocks("https://tracker.example/a.js", on: "https://news.example/"))
        #expect(rules.blocks("https://cdn.tracker.example:8443/a.js", on: "https://news.example/"))
        #expect(rules.blocks("https://tracker.example/p.gif", on: "https://news.example/", .image))
        #expect(!rules.blocks("https://nottracker.example/a.js", on: "https://news.example/"))
        #expect(!rules.blocks("https://news.example/?u=https://tracker.example/", on: "https://news.example/"))
    }

    @Test("a host is the same tracker with userinfo and its final dot; a user named like it is not it")
    func hostSpellings() throws {
        let rules = try BuiltRules(tds(
            [tracker("tracker.example", owner: "Owner"), tracker("t.example", default: "ignore", rules: #"[{"rule": "t\\.example/ads\\.js"}, {"rule": "cdn\\.t\\.example/x"}]"#)],
            entities: #"{"Owner": {"name": "Owner", "domains": ["owner.example", "tracker.example"]}}"#,
            domains: #"{"owner.example": "Owner", "tracker.example": "Owner"}"#,
            cnames: #"{"metrics.news.example": "edge.tracker.example"}"#))
        #expect(rules.build.ruleLists[0].rules.contains { $0.trigger.urlFilter == #"^[^:]+://+([^/]+[.@])?tracker\.example\.?(:[0-9]+)?/"# })
        for url in [
            "https://tracker.example./a.js", "https://www.tracker.example%2e/a.js", "https://a:b@www.tracker.example/a.js",
            "https://a@tracker.example/a.js", "https://a:b@tracker.example.:8443/a.js", "https://evil.example@tracker.example/",
            "https://t.example./ads.js", "https://u:p@cdn.t.example./x/y", "https://metrics.news.example./collect",
            "https://u@metrics.news.example/collect",
        ] {
            #expect(rules.blocks(url, on: "https://site.example/"), "\(url)")
        }
        for url in [
            "https://tracker.example@evil.example/a.js", "https://tracker.example:pw@evil.example/a.js",
            "https://x.tracker.example.:1@evil.example/", "https://evil.example/?u=a@tracker.example/a.js",
            "https://evil.example/a@tracker.example/", "https://tracker.example.evil.example/", "https://t.example./other.js",
            "https://sub.metrics.news.example./collect",
        ] {
            #expect(!rules.blocks(url, on: "https://site.example/"), "\(url)")
        }
        // The owner's pages with userinfo are the owner's pages.
        #expect(!rules.blocks("https://tracker.example./a.js", on: "https://u:p@www.owner.example/"))
    }

    @Test("first-party loads, navigations and popups are not blocked")
    func neverBlocked() throws {
        let rules = try BuiltRules(tds([tracker("tracker.example")]))
        #expect(!rules.blocks("https://cdn.tracker.example/a.js", on: "https://www.tracker.example/"))
        #expect(!rules.blocks("https://tracker.example/", on: "https://tracker.example/", .topDocument))
        #expect(!rules.evaluator.actions(for: Request(url: "https://tracker.example/", topURL: "https://news.example/", resourceType: .popup)).isBlocked)
    }

    @Test("the first matching rule wins, although WebKit lets the last one win")
    func firstMatchWins() throws {
        let rules = try BuiltRules(tds([tracker("t.example", rules: #"""
            [{"rule": "t\\.example/request", "action": "ignore"}, {"rule": "t\\.example/request-1"}]
            """#)]))
        #expect(!rules.blocks("https://t.example/request-1.js", on: "https://site.example/"))
        #expect(rules.blocks("https://t.example/other.js", on: "https://site.example/"))
    }

    @Test("a default-ignore tracker blocks only what its rules block")
    func defaultIgnore() throws {
        let rules = try BuiltRules(tds([tracker("t.example", default: "ignore", rules: #"""
            [{"rule": "t\\.example/allowed/", "action": "ignore"}, {"rule": "t\\.example/[0-9]+/pixel"}]
            """#)]))
        #expect(rules.blocks("https://t.example/42/pixel.gif", on: "https://site.example/", .image))
        #expect(!rules.blocks("https://t.example/allowed/42/pixel.gif", on: "https://site.example/", .image))
        #expect(!rules.blocks("https://t.example/x/pixel.gif", on: "https://site.example/", .image))
    }

    @Test("options that do not match fall through to the next rule")
    func optionsFallThrough() throws {
        let rules = try BuiltRules(tds([tracker("t.example", default: "ignore", rules: #"""
            [{"rule": "t\\.example/a", "options": {"domains": ["one.example"], "types": ["script"]}},
             {"rule": "t\\.example/", "action": "ignore"},
             {"rule": "t\\.example/a"}]
            """#)]))
        #expect(rules.blocks("https://t.example/a.js", on: "https://www.one.example/"))
        #expect(!rules.blocks("https://t.example/a.png", on: "https://one.example/", .image))
        #expect(!rules.blocks("https://t.example/a.js", on: "https://two.example/"))
    }

    @Test("exceptions need every listed condition; options and exceptions intersect")
    func exceptions() throws {
        let rules = try BuiltRules(tds([tracker("t.example", rules: #"""
            [{"rule": "t\\.example/x", "exceptions": {"domains": ["a.example"], "types": ["image"]}},
             {"rule": "t\\.example/y", "options": {"domains": ["b.example", "c.example"]},
              "exceptions": {"domains": ["sub.c.example"]}}]
            """#)]))
        #expect(!rules.blocks("https://t.example/x.gif", on: "https://a.example/", .image))
        #expect(rules.blocks("https://t.example/x.js", on: "https://a.example/"))
        #expect(rules.blocks("https://t.example/x.gif", on: "https://b.example/", .image))
        #expect(!rules.blocks("https://t.example/y.js", on: "https://sub.c.example/"))
        #expect(rules.blocks("https://t.example/y.js", on: "https://c.example/"))
    }

    @Test("pages of the tracker's owner load it; other pages do not")
    func sameEntity() throws {
        let rules = try BuiltRules(tds(
            [tracker("t.example", owner: "Owner")],
            entities: #"{"Owner": {"displayName": "Owner", "domains": ["t.example", "owner-site.example"]}}"#,
            domains: #"{"t.example": "Owner", "owner-site.example": "Owner"}"#))
        #expect(!rules.blocks("https://t.example/a.js", on: "https://shop.owner-site.example/"))
        #expect(rules.blocks("https://t.example/a.js", on: "https://owner-site-fake.example/"))
        #expect(rules.blocks("https://t.example/a.js", on: "https://x.example/?ref=https://owner-site.example/"))
    }

    @Test("a cloaked host is blocked even on its own site; its subdomains are not; paths are uncloaked")
    func cnameCloaking() throws {
        let rules = try BuiltRules(tds(
            [tracker("t.example", rules: #"[{"rule": "t\\.example/keep", "action": "ignore"}]"#)],
            cnames: #"{"metrics.news.example": "edge.t.example"}"#))
        #expect(rules.blocks("https://metrics.news.example/collect", on: "https://news.example/"))
        #expect(!rules.blocks("https://metrics.news.example/keep/it", on: "https://news.example/"))
        #expect(!rules.blocks("https://sub.metrics.news.example/collect", on: "https://news.example/"))
    }

    @Test("rule regexes outside WebKit's subset are expanded or reported")
    func regexTranslation() throws {
        let rules = try BuiltRules(tds([tracker("t.example", default: "ignore", rules: #"""
            [{"rule": "t\\.example/(ads|pixel)/\\d{2}\\.js"}, {"rule": "t\\.example/(?=x)"}, {"rule": "t\\.example/z", "action": "block-ctl-fb"},
             {"rule": "t\\.example/w", "action": "unknown"}]
            """#)]))
        #expect(rules.blocks("https://t.example/ads/12.js", on: "https://s.example/"))
        #expect(rules.blocks("https://t.example/pixel/99.js", on: "https://s.example/"))
        #expect(!rules.blocks("https://t.example/ads/1.js", on: "https://s.example/"))
        #expect(rules.blocks("https://t.example/z.js", on: "https://s.example/"))
        let skipped = rules.build.report.skippedRules.map(\.path)
        #expect(skipped.contains(#"trackers["t.example"].rules[1].rule"#))
        #expect(skipped.contains(#"trackers["t.example"].rules[3].action"#))
    }

    /// Found by TrackerDataFuzzer: `\0` was written into the url-filter as a NUL byte, which WebKit
    /// reads as the end of the pattern, so the list was invalid.
    @Test("a NUL in a rule regex matches nothing, and the list stays valid", arguments: [
        #"t\\.example/a\\0js"#, #"t\\.example/a[\\0]js"#, #"t\\.example/a\\0?js"#, #"t\\.example/a(\\0|b)js"#,
        #"t\\.example/a\u0000js"#,
    ])
    func nulInRegex(rule: String) throws {
        let rules = try BuiltRules(tds([tracker("t.example", default: "ignore", rules: #"[{"rule": "\#(rule)"}]"#)]))
        for list in rules.build.ruleLists {
            #expect(throws: Never.self) { try RuleList(parsing: list.encoded()) }
        }
        _ = rules.blocks("https://t.example/ajs", on: "https://s.example/")
        _ = rules.blocks("https://t.example/a%00js", on: "https://s.example/")
        _ = rules.blocks("https://t.example/abjs", on: "https://s.example/")
    }

    @Test("internationalized domains are written in punycode, as WebKit requires")
    func internationalizedDomains() throws {
        let rules = try BuiltRules(tds(
            [tracker("bücher.example", owner: "Bücher")],
            entities: #"{"Bücher": {"displayName": "Bücher", "domains": ["bücher.example", "bücherei.example"]}}"#,
            domains: #"{"bücher.example": "Bücher", "bücherei.example": "Bücher"}"#))
        let json = String(decoding: try #require(rules.build.ruleLists.first).encoded(), as: UTF8.self)
        #expect(json.contains(#"xn--bcher-kva\\.example"#))
        #expect(json.utf8.allSatisfy { $0 < 0x80 })
        #expect(rules.blocks("https://xn--bcher-kva.example/a.js", on: "https://news.example/"))
        #expect(!rules.blocks("https://xn--bcher-kva.example/a.js", on: "https://xn--bcherei-n2a.example/"))
    }

    @Test("matching rule text in the path is exact when asked for")
    func pathMatches() throws {
        let source = tds([tracker("t.example", default: "ignore", rules: #"[{"rule": "t\\.example/pixel"}]"#)])
        let exact = try BuiltRules(source, settings: .init(matchesRuleTextAfterHost: true))
        #expect(exact.blocks("https://t.example/r?u=t.example/pixel", on: "https://s.example/"))
        let compact = try BuiltRules(source)
        #expect(!compact.evaluator.actions(for: Request(url: "https://t.example/r?u=t.example/pixel", topURL: "https://s.example/", resourceType: .script)).isBlocked)
        #expect(compact.build.ruleCount < exact.build.ruleCount)
    }
}

@Suite("Rule builder: privacy configuration")
struct RuleListBuilderConfigurationTests {
    static let trackers = tds([tracker("t.example")])

    @Test("unprotected sites, content-blocking exceptions and the user allowlist turn blocking off; a user allowlist domain with www. or without is one domain")
    func unprotectedSites() throws {
        let rules = try BuiltRules(Self.trackers, configuration: #"""
            {"features": {"contentBlocking": {"state": "enabled", "exceptions": [{"domain": "broken.example"}]}},
             "unprotectedTemporary": [{"domain": "temp.example"}]}
            """#, userAllowlist: ["mine.example", "www.own.example"])
        #expect(!rules.blocks("https://t.example/a.js", on: "https://www.broken.example/"))
        #expect(!rules.blocks("https://t.example/a.js", on: "https://temp.example/"))
        #expect(!rules.blocks("https://t.example/a.js", on: "https://mine.example/"))
        #expect(!rules.blocks("https://t.example/a.js", on: "https://www.mine.example/"))
        #expect(!rules.blocks("https://t.example/a.js", on: "https://own.example/"))
        #expect(!rules.blocks("https://t.example/a.js", on: "https://www.own.example/"))
        #expect(rules.blocks("https://t.example/a.js", on: "https://sub.mine.example/"))
        #expect(rules.blocks("https://t.example/a.js", on: "https://www.www.own.example/"))
        #expect(rules.blocks("https://t.example/a.js", on: "https://other.example/"))
    }

    @Test("a configuration without contentBlocking blocks nothing, and the list is still valid")
    func contentBlockingOff() throws {
        let rules = try BuiltRules(Self.trackers, configuration: #"{"features": {}}"#)
        #expect(!rules.blocks("https://t.example/a.js", on: "https://other.example/"))
        let list = try #require(rules.build.ruleLists.first)
        #expect(throws: Never.self) { try RuleList(parsing: list.encoded()) }
    }

    @Test("the tracker allowlist lets a tracker load on the listed sites")
    func trackerAllowlist() throws {
        let rules = try BuiltRules(Self.trackers, configuration: #"""
            {"features": {"contentBlocking": {"state": "enabled", "exceptions": []},
              "trackerAllowlist": {"state": "enabled", "exceptions": [], "settings": {"allowlistedTrackers": {
                "t.example": {"rules": [{"rule": "t.example/video/", "domains": ["tv.example"], "reason": "r"},
                                        {"rule": "t.example/login.js", "domains": ["<all>"], "reason": "r"}]}}}}}}
            """#)
        #expect(!rules.blocks("https://t.example/video/player.js", on: "https://www.tv.example/"))
        #expect(rules.blocks("https://t.example/video/player.js", on: "https://radio.example/"))
        #expect(!rules.blocks("https://cdn.t.example:8443/login.js", on: "https://radio.example/"))
    }

    @Test("the request blocklist blocks first-party loads too, but not navigations")
    func requestBlocklist() throws {
        let rules = try BuiltRules(tds([]), configuration: #"""
            {"features": {"contentBlocking": {"state": "enabled", "exceptions": []},
              "requestBlocklist": {"state": "enabled", "exceptions": [{"domain": "excepted.example"}], "settings": {"blockedRequests": {
                "cdn.example": {"rules": [{"rule": "cdn.example/bad/*.js", "domains": ["<all>"], "reason": "r"}]}}}}}}
            """#)
        #expect(rules.blocks("https://cdn.example/bad/x/y.js", on: "https://cdn.example/"))
        #expect(rules.blocks("https://sub.cdn.example/bad/y.js?q=1", on: "https://site.example/"))
        #expect(!rules.blocks("https://cdn.example/BAD/y.js", on: "https://site.example/"))
        #expect(!rules.blocks("https://cdn.example/bad/y.js", on: "https://excepted.example/"))
        #expect(!rules.blocks("https://cdn.example/bad/y.js", on: "https://cdn.example/bad/y.js", .topDocument))
    }
}

@Suite("Rule builder: output")
struct RuleListBuilderOutputTests {
    static let source = tds([
        tracker("a.example"), tracker("b.example", default: "ignore", rules: #"[{"rule": "b\\.example/x"}]"#),
        tracker("c.example", rules: #"[{"rule": "c\\.example/ok", "action": "ignore"}]"#),
    ], cnames: #"{"m.site.example": "a.example"}"#)

    @Test("the lists are valid WebKit lists and encode the same bytes every time")
    func validAndDeterministic() throws {
        let first = try BuiltRules(Self.source).build
        let second = try BuiltRules(Self.source).build
        #expect(first.ruleLists.map { $0.encoded() } == second.ruleLists.map { $0.encoded() })
        for list in first.ruleLists {
            #expect(try RuleList(parsing: list.encoded()) == list)
        }
    }

    /// The smallest lists that hold the longest section beside each list's ending, and one and
    /// two rules more. The oldest target names each tracker's own site as first party and says
    /// `top-document` in two rules, so its sections and its tail are longer (5 rules). The newest
    /// takes the host-end layout: c.example's section is its block written four times and its
    /// exception, and the layout's fix-up ends each list beside the tail (7 rules).
    @Test(
        "over the rule limit, whole sections move to further lists with the same meaning",
        arguments: [(WebKitTarget.newest, 7), (.newest, 8), (.newest, 9), (.oldest, 5), (.oldest, 6), (.oldest, 7)])
    func splitting(target: WebKitTarget, maximum: Int) throws {
        let split = try BuiltRules(Self.source, settings: .init(maximumRulesPerList: maximum, target: target))
        #expect(split.build.ruleLists.count > 1)
        #expect(split.build.ruleLists.allSatisfy { $0.rules.count <= maximum })
        let whole = try BuiltRules(Self.source, settings: .init(target: target))
        for url in ["https://a.example/", "https://b.example/x", "https://c.example/ok", "https://c.example/no", "https://m.site.example/"] {
            #expect(split.blocks(url, on: "https://site.example/") == whole.blocks(url, on: "https://site.example/"), "\(url)")
        }
    }

    /// The sections are packed into lists as they end, each list's rules kept in an array of
    /// their own; a section longer than a list sits between two others of one list. Lists of two
    /// small sections beside the ending: 6 rules for the oldest target, 12 for the newest, whose
    /// host-end layout writes each block four times and ends each list with its fix-up too.
    @Test(
        "split lists hold the whole list's tracker rules in order, but a section longer than a list",
        arguments: [WebKitTarget.newest, .oldest])
    func packedSections(target: WebKitTarget) throws {
        func small(_ name: String) -> String {
            // The exception names a subdomain: one of the tracker's own host would keep its block
            // in place (``HostEndLayout``).
            tracker("\(name).example", owner: "Owner \(name)", rules: #"[{"rule": "cdn\\.\#(name)\\.example/x", "action": "ignore"}]"#)
        }
        let maximum = HostEndLayout.isUsed(for: target) ? 12 : 6
        let long = (0..<(maximum + 6)).map { #"{"rule": "m\\.example/p\#($0)"}"# }.joined(separator: ", ")
        let source = tds(["a0", "a1", "a2"].map(small) + [tracker("m.example", owner: "M", default: "ignore", rules: "[\(long)]")]
            + ["z0", "z1", "z2", "z3"].map(small))
        let whole = try BuiltRules(source, settings: .init(target: target)).build
        let split = try BuiltRules(source, settings: .init(maximumRulesPerList: maximum, target: target)).build
        func trackerRules(_ build: RuleListBuild, leavingOut name: String? = nil) -> [ContentRule] {
            zip(build.ruleLists, build.sources).flatMap { list, sources in
                zip(list.rules, sources).filter { $0.1.kind == .tracker && $0.1.name != name }.map(\.0)
            }
        }
        #expect(split.ruleLists.count > 2)
        #expect(split.ruleLists.allSatisfy { $0.rules.count <= maximum })
        #expect(split.report.skippedRules.contains { $0.path == #"trackers["m.example"]"# && $0.reason.contains("more than one list allows") })
        #expect(trackerRules(whole).count > trackerRules(whole, leavingOut: "m.example").count + maximum)
        if HostEndLayout.isUsed(for: target) {
            // Each list laid out in an order of its own: its moved blocks first.
            func counts(_ rules: [ContentRule]) -> [ContentRule: Int] { rules.reduce(into: [:]) { $0[$1, default: 0] += 1 } }
            #expect(counts(trackerRules(split)) == counts(trackerRules(whole, leavingOut: "m.example")))
        } else {
            #expect(trackerRules(split) == trackerRules(whole, leavingOut: "m.example"))
        }
        if target == .newest {
            // Two sections of two rules a list, beside the one rule of the tail: the list of a2
            // goes on after the long section with z0, its rules taken from both sides of it.
            #expect(split.sources.contains { sources in
                sources.contains { $0.name == "a2.example" } && sources.contains { $0.name == "z0.example" }
            })
        }
    }
}

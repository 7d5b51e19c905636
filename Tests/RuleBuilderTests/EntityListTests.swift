import ContentRuleList
import RuleBuilder
import Testing
import TrackerDataKit

/// An entity with many trackers and many sites gets lists of its own, ended by one
/// `ignore-previous-rules` naming its sites, instead of naming them in every tracker's section:
/// the lists grow with trackers + sites, not trackers × sites. These examples force such lists on
/// small inputs and check each trap against the resolver (``BuiltRules/blocks(_:on:_:sourceLocation:)``):
/// other companies' trackers stay blocked on the entity's sites, nested trackers in other lists
/// still cancel each other, CNAMEs, Click-to-Load lists, lowered rules and own-site naming.
@Suite("Rule builder: lists of one entity")
struct EntityListTests {
    /// Settings under which every entity with two sections or more gets lists of its own.
    static func separating(_ target: WebKitTarget = .oldest) -> RuleListBuilder.Settings {
        var settings = RuleListBuilder.Settings(target: target)
        settings.minimumBytesSavedByEntityList = -1_000_000_000
        return settings
    }

    static let entities = #"""
        {"Owner": {"domains": ["owner.example", "a.example", "b.example", "ownersite.example"]},
         "Other": {"domains": ["other.example", "c.example"]}}
        """#
    static let domains = #"""
        {"owner.example": "Owner", "a.example": "Owner", "b.example": "Owner", "ownersite.example": "Owner",
         "other.example": "Other", "c.example": "Other"}
        """#

    static let blocklist = tds(
        [
            tracker("a.example", owner: "Owner"),
            tracker("b.example", owner: "Owner", default: "ignore", rules: #"""
                [{"rule": "b\\.example/ok/", "action": "ignore"}, {"rule": "b\\.example/", "options": {"types": ["script", "subdocument"]}},
                 {"rule": "b\\.example/img/", "exceptions": {"domains": ["news.example"]}}]
                """#),
            tracker("c.example", owner: "Other"),
            tracker("d.example", owner: "Other"),
        ],
        entities: entities, domains: domains, cnames: #"{"metrics.news.example": "cdn.a.example", "m.shop.example": "c.example"}"#)

    static let pages = [
        "https://news.example/", "https://www.owner.example/", "https://a.example/", "https://ownersite.example/x",
        "https://other.example/", "https://shop.example/", "https://unlisted.test/",
    ]

    /// Every URL on every page, as a script and a frame: WebKit agrees with the resolver.
    static func checkAll(_ rules: BuiltRules, urls: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        for url in urls {
            for page in pages {
                _ = rules.blocks(url, on: page, .script, sourceLocation: sourceLocation)
                _ = rules.blocks(url, on: page, .childDocument, sourceLocation: sourceLocation)
                _ = rules.blocks(url, on: page, .image, sourceLocation: sourceLocation)
            }
        }
    }

    @Test("one exception naming the entity's sites ends its own list, and cancels none of the other companies' blocks")
    func ownList() throws {
        let rules = try BuiltRules(Self.blocklist, settings: Self.separating(.newest))
        let lists = rules.build.ruleLists
        #expect(lists.count == 3, "main, Owner, Other: \(lists.count)")
        let exceptions = lists.compactMap { list in list.rules.first { $0.trigger.urlFilter == ".*" && $0.trigger.condition != nil } }
        #expect(exceptions.compactMap { $0.trigger.condition?.values.count } == [2, 4], "Other's sites, then Owner's")
        // No tracker section names the owner's sites any more.
        #expect(lists.flatMap(\.rules).filter { ($0.trigger.condition?.values.count ?? 0) >= 2 }.count == 2)
        #expect(rules.blocks("https://c.example/x.js", on: "https://www.owner.example/"))
        #expect(!rules.blocks("https://a.example/x.js", on: "https://www.owner.example/"))
        #expect(!rules.blocks("https://b.example/x.js", on: "https://a.example/"))
        #expect(rules.blocks("https://a.example/x.js", on: "https://other.example/"))
        Self.checkAll(rules, urls: [
            "https://a.example/x.js", "https://cdn.a.example/p", "https://b.example/x.js", "https://b.example/ok/x.js",
            "https://b.example/img/1.png", "https://c.example/x.js", "https://d.example/x.js",
            "https://metrics.news.example/collect", "https://m.shop.example/collect",
        ])
    }

    @Test("the lists mean what one list means, for every target", arguments: [WebKitTarget.oldest, .newest, .webKitGTK2_44])
    func sameMeaning(target: WebKitTarget) throws {
        let separated = try BuiltRules(Self.blocklist, settings: Self.separating(target))
        let whole = try BuiltRules(Self.blocklist, settings: .init(target: target))
        #expect(separated.build.ruleLists.count > whole.build.ruleLists.count)
        let urls = ["https://a.example/x.js", "https://b.example/x.js", "https://b.example/img/1.png", "https://metrics.news.example/c"]
        for url in urls {
            for page in Self.pages {
                for type in [ResourceType.script, .childDocument, .image] {
                    #expect(separated.blocks(url, on: page, type) == whole.blocks(url, on: page, type), "\(url) on \(page) \(type)")
                }
            }
        }
    }

    @Test("nested trackers of other lists: the inner one still cancels the outer one's rules for its hosts")
    func nested() throws {
        // The outer tracker is the entity's and the inner another company's, and the other way round.
        let blocklist = tds(
            [
                tracker("a.example", owner: "Owner"), tracker("b.example", owner: "Owner"),
                tracker("ads.a.example", owner: "Other", default: "ignore", rules: #"[{"rule": "ads\\.a\\.example/pixel"}]"#),
                tracker("c.example", owner: "Other", rules: #"[{"rule": "c\\.example/free/", "action": "ignore"}]"#),
                tracker("d.example", owner: "Other"),
                tracker("sub.c.example", owner: "Owner", default: "ignore", rules: #"[{"rule": "sub\\.c\\.example/bad"}]"#),
                tracker("x.sub.c.example", owner: "Third", default: "ignore"),
            ],
            entities: Self.entities, domains: Self.domains)
        for target in [WebKitTarget.oldest, .newest] {
            let rules = try BuiltRules(blocklist, settings: Self.separating(target))
            #expect(rules.build.ruleLists.count == 3)
            #expect(!rules.blocks("https://ads.a.example/x.js", on: "https://news.example/"))
            #expect(rules.blocks("https://ads.a.example/pixel", on: "https://www.owner.example/"))
            #expect(!rules.blocks("https://sub.c.example/x.js", on: "https://news.example/"))
            #expect(rules.blocks("https://sub.c.example/bad", on: "https://other.example/"))
            #expect(!rules.blocks("https://sub.c.example/bad", on: "https://owner.example/"))
            #expect(!rules.blocks("https://x.sub.c.example/bad", on: "https://news.example/"))
            Self.checkAll(rules, urls: [
                "https://ads.a.example/pixel", "https://ads.a.example/x.js", "https://a.example/x.js", "https://c.example/free/x.js",
                "https://sub.c.example/bad", "https://sub.c.example/free/x.js", "https://y.x.sub.c.example/bad",
            ])
        }
    }

    @Test("Click-to-Load: the action's list of the entity is removable like the action's main list")
    func clickToLoad() throws {
        let blocklist = tds(
            [
                tracker("a.example", owner: "Owner", rules: #"[{"rule": "a\\.example/embed/", "action": "block-ctl-video"}]"#),
                tracker("b.example", owner: "Owner", default: "ignore", rules: #"[{"rule": "b\\.example/embed/", "action": "block-ctl-video"}]"#),
                tracker("c.example", owner: "Other", default: "ignore", rules: #"[{"rule": "c\\.example/embed/", "action": "block-ctl-video"}]"#),
            ],
            entities: Self.entities, domains: Self.domains)
        let rules = try BuiltRules(blocklist, settings: Self.separating())
        #expect(rules.build.clickToLoadActions.filter { $0 == "block-ctl-video" }.count == 2)
        let urls = ["https://a.example/embed/1", "https://b.example/embed/1", "https://c.example/embed/1", "https://a.example/x"]
        try ClickToLoadRuleListTests.checkAgreement(
            rules, unblocking: [[], ["block-ctl-video"]], requests: urls.flatMap { url in Self.pages.map { (url, $0) } })
    }

    @Test("a tracker whose own site is none of its owner's still names it where WebKit may find it third party")
    func ownSite() throws {
        // `.test` is not in the Public Suffix List: WebKitGTK 2.44 compares hosts there.
        let blocklist = tds(
            [tracker("t.test", owner: "Owner"), tracker("u.test", owner: "Owner"), tracker("c.example", owner: "Other")],
            entities: Self.entities, domains: Self.domains)
        for target in [WebKitTarget.oldest, .webKitGTK2_44, .newest] {
            let rules = try BuiltRules(blocklist, settings: Self.separating(target))
            #expect(!rules.blocks("https://cdn.t.test/x.js", on: "https://www.t.test/"))
            #expect(rules.blocks("https://cdn.t.test/x.js", on: "https://www.u.test/"))
            #expect(!rules.blocks("https://cdn.t.test/x.js", on: "https://owner.example/"))
            Self.checkAll(rules, urls: ["https://cdn.t.test/x.js", "https://u.test/x.js", "https://c.example/x.js"])
        }
    }

    @Test("with a configuration, its exceptions end the entity's lists too")
    func configuration() throws {
        let rules = try BuiltRules(Self.blocklist, configuration: #"""
            {"features": {"contentBlocking": {"state": "enabled", "exceptions": [{"domain": "shop.example"}]},
              "trackerAllowlist": {"state": "enabled", "settings": {"allowlistedTrackers": {
                "a.example": {"rules": [{"rule": "a.example/login.js", "domains": ["<all>"]}]}}}}}}
            """#, userAllowlist: ["news.example"], settings: Self.separating())
        #expect(!rules.blocks("https://a.example/login.js", on: "https://other.example/"))
        #expect(!rules.blocks("https://a.example/x.js", on: "https://news.example/"))
        #expect(!rules.blocks("https://a.example/x.js", on: "https://shop.example/"))
        #expect(rules.blocks("https://a.example/x.js", on: "https://other.example/"))
    }

    @Test("an entity exception WebKit would refuse leaves that entity's trackers out, the note naming the entity")
    func refusedException() throws {
        let site = String(repeating: "s", count: 1_100_000) + ".example"
        let blocklist = tds(
            [tracker("a.example", owner: "Owner"), tracker("b.example", owner: "Owner"), tracker("c.example", owner: "Other")],
            entities: #"{"Owner": {"domains": ["\#(site)"]}}"#, domains: #"{"\#(site)": "Owner"}"#)
        let build = RuleListBuilder(trackerData: try TrackerData(parsing: Array(blocklist.utf8)), settings: Self.separating()).build()
        for list in build.ruleLists { try list.validate() }
        let note = try #require(build.report.skippedRules.first { $0.reason.contains("WebKit would refuse") })
        #expect(note.path == "entities.Owner")
        let filters = build.ruleLists.flatMap(\.rules).map(\.trigger.urlFilter)
        #expect(filters.contains { $0.contains("c\\.example") })
        #expect(!filters.contains { $0.contains("a\\.example") })
    }

    @Test("cookie rules: the entity's lists end with one exception, and mean what one list means", arguments: [WebKitTarget.oldest, .newest])
    func cookieRules(target: WebKitTarget) throws {
        let blocklist = tds(
            [
                tracker("a.example", owner: "Owner"), tracker("b.example", owner: "Owner"), tracker("t.test", owner: "Owner"),
                tracker("c.example", owner: "Other"), tracker("sub.c.example", owner: "Owner"), tracker("d.example", owner: "Other"),
            ],
            entities: Self.entities, domains: Self.domains, cnames: #"{"metrics.news.example": "cdn.a.example"}"#)
        let trackerData = try TrackerData(parsing: Array(blocklist.utf8))
        let separated = CookieRules(trackerData: trackerData, settings: Self.separating(target)).build()
        let whole = CookieRules(trackerData: trackerData, settings: .init(target: target)).build()
        #expect(separated.ruleLists.count == 3 && whole.ruleLists.count == 1)
        let evaluators = try [separated, whole].map { try ReferenceEvaluator(ruleLists: $0.ruleLists, target: target) }
        let protection = CookieProtection(trackerData: trackerData)
        for url in ["https://a.example/p", "https://cdn.t.test/p", "https://c.example/p", "https://sub.c.example/p", "https://metrics.news.example/p"] {
            for page in Self.pages + ["https://www.t.test/"] {
                let request = Request(url: url, topURL: page, resourceType: .image)
                let answers = evaluators.map { $0.actions(for: request).blocksCookies }
                let expected = protection.decision(forRequestURL: url, topURL: page)?.blocksCookies ?? false
                #expect(answers == [expected, expected], "\(url) on \(page): entity lists, one list: \(answers), CookieProtection \(expected)")
            }
        }
    }

    @Test("without the setting, small entities stay in the main list")
    func defaultThreshold() throws {
        #expect(try BuiltRules(Self.blocklist).build.ruleLists.count == 1)
    }
}

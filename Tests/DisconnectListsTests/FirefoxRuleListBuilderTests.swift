import ContentRuleList
import DisconnectLists
import Testing
import TrackerlessCore

@Suite("Firefox's rule lists")
struct FirefoxRuleListBuilderTests {
    static func builder(target: WebKitTarget = .oldest) throws -> FirefoxRuleListBuilder {
        FirefoxRuleListBuilder(
            categoryLists: CategoryLists(try ExampleLists.parsedDisconnectList()),
            entityList: try ExampleLists.parsedEntityList(), target: target)
    }

    @Test("categories derive from Disconnect's as shavar-list-creation derives them")
    func categoryLists() throws {
        let lists = CategoryLists(try ExampleLists.parsedDisconnectList())
        #expect(lists[.advertising].map(\.description) == ["ads.example", "adserver.example", "bigco-ads.example"])
        // polite.example is tagged dnt and left out.
        #expect(lists[.analytics].map(\.description) == ["bigco-stats.example", "counter.example", "yandex.example/clck/click"])
        #expect(lists[.social].isEmpty)
        #expect(lists[.content].map(\.description) == ["videos.example"])
        #expect(lists[.cryptomining].map(\.description) == ["miner.example"])
        // Fingerprinters that are not also advertising, analytics, social or content stay out.
        #expect(lists[.fingerprinting].map(\.description) == ["counter.example"])
    }

    /// For the oldest target (Safari 15 decides third party by origin), a tracker without an
    /// owner is still first party on its own site: `unless-domain` names it.
    @Test("one rule per domain: right-anchored, third party, unless on the owner's sites (and its own)")
    func rules() throws {
        let list = try Self.builder().ruleList(for: FirefoxBlocklist(.block, .advertising))
        let json = String(decoding: list.encoded(), as: UTF8.self)
        #expect(json == #"""
            [{"trigger":{"url-filter":"^https?://([^/]+[.@])?ads\\.example\\.?(:[0-9]+)?/","load-type":["third-party"],"unless-domain":["*ads.example"]},"action":{"type":"block"}},\#
            {"trigger":{"url-filter":"^https?://([^/]+[.@])?adserver\\.example\\.?(:[0-9]+)?/","load-type":["third-party"],"unless-domain":["*adserver.example"]},"action":{"type":"block"}},\#
            {"trigger":{"url-filter":"^https?://([^/]+[.@])?bigco-ads\\.example\\.?(:[0-9]+)?/","load-type":["third-party"],"unless-domain":["*bigco-ads.example","*bigco-news.example","*bigco-shop.example","*bigco.example"]},"action":{"type":"block"}}]
            """#)
        // Where third party is by registrable domain, the tracker's own site needs no entry.
        let registrable = try Self.builder(target: .safari16).ruleList(for: FirefoxBlocklist(.block, .advertising))
        #expect(registrable.rules.map { $0.trigger.condition?.values ?? [] } == [
            ["*ads.example"], [], ["*bigco-news.example", "*bigco-shop.example", "*bigco.example"],
        ])
    }

    @Test("the owner is found by parent domain, never by substring")
    func owners() throws {
        let entities = try ExampleLists.parsedEntityList()
        #expect(entities.owner(of: "ads.example")?.name == "Ad Network")
        #expect(entities.owner(of: "cdn.ads.example")?.name == "Ad Network")
        // Firefox's substring fallback would give "ads.example"'s owner to these two.
        #expect(entities.owner(of: "adserver.example") == nil)
        #expect(entities.owner(of: "myads.example") == nil)
    }

    @Test("a path entry keeps its path after the host")
    func pathRule() throws {
        let list = try Self.builder().ruleList(for: FirefoxBlocklist(.block, .analytics))
        #expect(list.rules.map(\.trigger.urlFilter).last == #"^https?://([^/]+[.@])?yandex\.example\.?/clck/click"#)
    }

    @Test("an empty category gives a list WebKit accepts, and the categories after it are still built")
    func emptyCategory() throws {
        let lists = try Self.builder().ruleLists()
        #expect(lists.map(\.blocklist.name) == [
            "disconnect-block-advertising", "disconnect-block-analytics", "disconnect-block-social",
            "disconnect-block-cryptomining", "disconnect-block-fingerprinting", "disconnect-block-content",
            "disconnect-block-cookies-advertising", "disconnect-block-cookies-analytics",
            "disconnect-block-cookies-social", "disconnect-block-cookies-content",
        ])
        let social = try #require(lists.first { $0.blocklist == FirefoxBlocklist(.block, .social) }?.ruleList)
        #expect(social.rules == [FirefoxRuleListBuilder.placeholderRule])
        let evaluator = try ReferenceEvaluator(ruleList: social)
        for url in ["https://news.invalid/", "https://ads.example/a.js"] {
            #expect(!evaluator.actions(for: Request(url: url, topURL: "https://site.example/", resourceType: .script)).isBlocked)
        }
        #expect(lists.first { $0.blocklist == FirefoxBlocklist(.block, .content) }?.ruleList.rules.count == 1)
        #expect(lists.first { $0.blocklist == FirefoxBlocklist(.blockCookies, .content) }?.ruleList.rules.first?.action == .blockCookies)
    }

    @Test("every list parses back as WebKit would read it")
    func validLists() throws {
        for (blocklist, list) in try Self.builder().ruleLists() {
            let parsed = try RuleList(parsing: list.encoded())
            #expect(parsed == list, "\(blocklist)")
        }
    }

    struct Load: CustomTestStringConvertible, Sendable {
        var url: String
        var page: String
        var isBlocked: Bool
        var testDescription: String { "\(url) on \(page)" }
    }

    static let loads: [Load] = [
        Load(url: "https://ads.example/a.js", page: "https://news.example/", isBlocked: true),
        Load(url: "https://cdn.ads.example/a.js", page: "https://news.example/", isBlocked: true),
        Load(url: "https://ads.example:8443/a.js", page: "https://news.example/", isBlocked: true),
        // Firefox's filter has no right anchor and blocks these two.
        Load(url: "https://ads.example.evil.net/a.js", page: "https://news.example/", isBlocked: false),
        Load(url: "https://ads.examples.net/a.js", page: "https://news.example/", isBlocked: false),
        Load(url: "https://myads.example/a.js", page: "https://news.example/", isBlocked: false),
        // Spellings WebKit keeps in the URL it matches: the final dot and userinfo are the host's;
        // a user named like the tracker is not the tracker.
        Load(url: "https://ads.example./a.js", page: "https://news.example/", isBlocked: true),
        Load(url: "https://u:p@cdn.ads.example.:8443/a.js", page: "https://news.example/", isBlocked: true),
        Load(url: "https://u@ads.example/a.js", page: "https://news.example/", isBlocked: true),
        Load(url: "https://ads.example:pw@evil.net/a.js", page: "https://news.example/", isBlocked: false),
        Load(url: "https://ads.example@evil.net/a.js", page: "https://news.example/", isBlocked: false),
        Load(url: "https://evil.net/a.js?u=x@ads.example/", page: "https://news.example/", isBlocked: false),
        // First party, and the owner's own sites.
        Load(url: "https://ads.example/a.js", page: "https://www.ads.example/", isBlocked: false),
        Load(url: "https://bigco-ads.example/a.js", page: "https://shop.bigco-shop.example/", isBlocked: false),
        Load(url: "https://bigco-ads.example/a.js", page: "https://news.example/", isBlocked: true),
    ]

    @Test("the advertising list blocks trackers and nothing that only starts like one", arguments: loads)
    func blocking(_ load: Load) throws {
        let list = try Self.builder().ruleList(for: FirefoxBlocklist(.block, .advertising))
        let evaluator = try ReferenceEvaluator(ruleList: list)
        let request = Request(url: load.url, topURL: load.page, resourceType: .script)
        #expect(evaluator.actions(for: request).isBlocked == load.isBlocked)
    }

    @Test("list names and levels are Firefox's")
    func levels() throws {
        let standard = try Self.builder().ruleLists(for: .standard)
        #expect(standard.map(\.blocklist) == ProtectionLevel.standard.blocklists)
        #expect(standard.first?.ruleList.rules.first?.action == .blockCookies)
        #expect(FirefoxBlocklist(name: "disconnect-block-cookies-social.json") == FirefoxBlocklist(.blockCookies, .social))
        #expect(FirefoxBlocklist(name: "disconnect-block-cookies-cryptomining") == nil)
        #expect(ProtectionLevel.standard.blocklists.map(\.fileName) == [
            "disconnect-block-cookies-advertising.json", "disconnect-block-cookies-analytics.json",
            "disconnect-block-cookies-social.json", "disconnect-block-cryptomining.json",
            "disconnect-block-fingerprinting.json",
        ])
        #expect(ProtectionLevel.strict.blocklists.map(\.fileName) == [
            "disconnect-block-advertising.json", "disconnect-block-analytics.json", "disconnect-block-social.json",
            "disconnect-block-cryptomining.json", "disconnect-block-fingerprinting.json",
        ])
    }
}

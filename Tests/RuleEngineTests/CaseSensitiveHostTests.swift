import ContentRuleList
@testable import RuleEngineKit
import Testing

/// Case-sensitive patterns with a lowercase host (the builder's case-sensitive spelling): the
/// engine files them in its host table as exactly as case-insensitive ones, and skips them where
/// the URL has a capital in the host's place, as WebKit's automaton does.
@Suite("Rule engine: case-sensitive hosts")
struct CaseSensitiveHostTests {
    static let list = try! RuleList(parsing: #"""
        [{"trigger": {"url-filter": "^[^:]+://+([^/]+[.@])?tracker\\.com[:/]", "url-filter-is-case-sensitive": true}, "action": {"type": "block"}},
         {"trigger": {"url-filter": "^[^:]+://+([^/]+[.@])?paths\\.com\\.?(:[0-9]+)?/[pP][iI][xX]", "url-filter-is-case-sensitive": true},
          "action": {"type": "block"}},
         {"trigger": {"url-filter": "^[^:]+://+([^/]+[.@])?either\\.com\\.?(:[0-9]+)?/"}, "action": {"type": "block"}},
         {"trigger": {"url-filter": "^[^:]+://+([^/]+[.@])?[mM]ixed\\.com[:/]", "url-filter-is-case-sensitive": true}, "action": {"type": "block"}},
         {"trigger": {"url-filter": ".*", "if-top-url": ["^[^:]+://+([^/]+[.@])?site\\.com[:/]"], "top-url-filter-is-case-sensitive": true},
          "action": {"type": "ignore-previous-rules"}}]
        """#)

    @Test("a lowercase host of a case-sensitive pattern is read exactly, from the text and from the terms alike")
    func readExactly() throws {
        for (pattern, remainder) in [
            (#"^[^:]+://+([^/]+[.@])?tracker\.com[:/]"#, HostPattern.Remainder.separator),
            (#"^[^:]+://+([^/]+[.@])?paths\.com\.?(:[0-9]+)?/[pP][iI][xX]"#,
             .path(literal: Array("/pix".utf8), allowsPort: true, isAnchoredAtEnd: false)),
        ] {
            let text = try #require(HostPattern(text: pattern, isCaseSensitive: true))
            let parsed = try #require(HostPattern(try URLFilter(parsing: pattern, isCaseSensitive: true)))
            #expect(text == parsed)
            #expect(text.isHostCaseSensitive)
            #expect(text.remainder == remainder)
        }
        // A lone letter in the path is compared exactly: the automaton's.
        let lone = #"^[^:]+://+tracker\.com/pix"#
        #expect(HostPattern(text: lone, isCaseSensitive: true) == nil)
        #expect(try #require(HostPattern(try URLFilter(parsing: lone, isCaseSensitive: true))).remainder == nil)
        // Letters of one case and of both in one host: the automaton's.
        let mixed = try #require(HostPattern(try URLFilter(parsing: #"^[^:]+://+[mM]ixed\.com[:/]"#, isCaseSensitive: true)))
        #expect(mixed.remainder == nil)
        // A case-insensitive pattern's host matches in either case.
        #expect(HostPattern(text: #"^[^:]+://+either\.com[:/]"#, isCaseSensitive: false)?.isHostCaseSensitive == false)
    }

    static let tops = ["https://news.example/", "https://www.site.com/", "myapp://SITE.com/", "myapp://site.com/"]
    static let urls = [
        "https://tracker.com/x", "https://sub.tracker.com:8/x", "myapp://TRACKER.com/x", "myapp://sub.Tracker.com/x",
        "myapp://tracker.com/x", "https://X.TRACKER.COM:pw@evil.com/x", "https://x.tracker.com:pw@evil.com/x",
        "https://U@tracker.com/x", "https://paths.com/pix", "https://paths.com/PIX", "https://paths.com./PiX?q",
        "myapp://PATHS.com/pix", "https://paths.com/pi", "https://either.com/", "myapp://EITHER.COM/", "https://mixed.com/",
        "myapp://Mixed.com/", "myapp://MIXED.com/",
    ]

    @Test("decisions equal the reference evaluator's, capitals in the authority and the path included; a compiled file's too")
    func agreesWithTheEvaluator() throws {
        let engine = try RuleEngine(ruleList: Self.list)
        let loaded = try RuleEngine(compiled: engine.compiled())
        let evaluator = try ReferenceEvaluator(ruleList: Self.list)
        var cache = RuleEngine.PageCache(), loadedCache = RuleEngine.PageCache()
        var blocked: Set<String> = []
        for top in Self.tops {
            for url in Self.urls {
                let request = Request(url: url, topURL: top, resourceType: .image)
                let expected = evaluator.actions(for: request).isBlocked
                #expect(engine.decision(for: request, cache: &cache).isBlocked == expected, "\(url) on \(top)")
                #expect(loaded.decision(for: request, cache: &loadedCache).isBlocked == expected, "compiled: \(url) on \(top)")
                if expected && top == Self.tops[0] { blocked.insert(url) }
            }
        }
        #expect(blocked == [
            "https://tracker.com/x", "https://sub.tracker.com:8/x", "myapp://tracker.com/x", "https://x.tracker.com:pw@evil.com/x",
            "https://U@tracker.com/x", "https://paths.com/pix", "https://paths.com/PIX", "https://paths.com./PiX?q",
            "https://either.com/", "myapp://EITHER.COM/", "https://mixed.com/", "myapp://Mixed.com/",
        ])
        // The site's exception holds on its lowercase host only.
        let onSite = Request(url: "https://tracker.com/x", topURL: "https://www.site.com/", resourceType: .image)
        let onCapitalSite = Request(url: "https://tracker.com/x", topURL: "myapp://SITE.com/", resourceType: .image)
        #expect(!engine.decision(for: onSite, cache: &cache).isBlocked)
        #expect(engine.decision(for: onCapitalSite, cache: &cache).isBlocked)
    }
}

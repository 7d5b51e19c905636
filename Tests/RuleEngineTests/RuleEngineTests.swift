import ContentRuleList
import Dispatch
import Testing
import TrackerlessCore
import TrackerlessTestSupport

@testable import RuleEngineKit

/// The engine's own pieces: where it files rules, its URL fast path, and cases the randomized
/// comparison once found, each checked against the reference evaluator.
@Suite struct RuleEngineTests {
    static func list(_ rules: String) throws -> RuleList {
        try RuleList(parsing: "[" + rules + "]")
    }

    static func expectSameAsReference(_ list: RuleList, _ requests: [Request]) throws {
        let engine = try RuleEngine(ruleList: list)
        let reference = try ReferenceEvaluator(ruleList: list)
        var cache = RuleEngine.PageCache()
        for request in requests {
            let expected = reference.actions(for: request)
            #expect(engine.actions(for: request) == expected, "\(request)")
            #expect(engine.decision(for: request, cache: &cache).appliedActions == expected.withoutRuleIndices, "\(request)")
        }
    }

    @Test("host patterns are filed under their host, with what follows checked without an automaton")
    func hostPatterns() throws {
        func host(_ pattern: String, caseSensitive: Bool = false) throws -> HostPattern? {
            HostPattern(try URLFilter(parsing: pattern, isCaseSensitive: caseSensitive))
        }
        let subdomains = try #require(try host(#"^[^:]+://+([^:/]+\.)?tracker\.com[:/]"#))
        #expect(subdomains == HostPattern(host: Array("tracker.com".utf8), prefix: .subdomains, remainder: .separator))
        let exact = try #require(try host(#"^[^:]+://+cdn\.tracker\.com(:[0-9]+)?/a/b\.js$"#))
        #expect(exact.remainder == .path(literal: Array("/a/b.js".utf8), allowsPort: true, isAnchoredAtEnd: true))
        #expect(exact.prefix == .none)
        // `[^:/]*` before the host: filed under what follows its first dot, confirmed by the automaton.
        let suffix = try #require(try host(#"^[^:]+://+[^:/]*acdn\.adnxs\.com(:[0-9]+)?/video"#))
        #expect(suffix.host == Array("adnxs.com".utf8) && suffix.prefix == .subdomains && suffix.remainder == nil)
        // The shapes of the rules built now: userinfo or subdomains, the final dot, a port or the path.
        let built = try #require(try host(#"^[^:]+://+([^/]+[.@])?tracker\.com\.?(:[0-9]+)?/"#))
        #expect(built == HostPattern(
            host: Array("tracker.com".utf8), prefix: .subdomainsOrUserinfo, allowsFinalDot: true,
            remainder: .path(literal: [UInt8(ascii: "/")], allowsPort: true, isAnchoredAtEnd: false)))
        let cloaked = try #require(try host(#"^[^:]+://+([^/]*@)?t\.site\.com\.?(:[0-9]+)?/"#))
        #expect(cloaked.prefix == .userinfo && cloaked.allowsFinalDot && cloaked.remainder != nil)
        let aligned = try #require(try host(#"^[^:]+://+([^/]*@)?[^:/]*acdn\.adnxs\.com\.?(:[0-9]+)?/video"#))
        #expect(aligned.host == Array("adnxs.com".utf8) && aligned.prefix == .subdomainsOrUserinfo && aligned.remainder == nil)
        // A group that may put the host right after a `.` at the authority's start is not one.
        #expect(try host(#"^[^:]+://+([^:/]*\.)?tracker\.com[:/]"#) == nil)
        // Not host patterns: unanchored, a possibly empty scheme, a host that may continue.
        #expect(try host(#"tracker\.com[:/]"#) == nil)
        #expect(try host(#"^[^:]*://+tracker\.com[:/]"#) == nil)
        #expect(try host(#"^[^:]+://+tracker\.com"#) == nil)
        // Case-sensitive letters need the automaton.
        #expect(try host(#"^[^:]+://+Tracker\.com[:/]"#, caseSensitive: true)?.remainder == nil)
    }

    @Test("reading common patterns from their text gives what parsing gives", arguments: [
        #"^[^:]+://+([^:/]+\.)?tracker\.com[:/]"#, #"^[^:]+://+tracker\.com[:/]"#,
        #"^[^:]+://+([^:/]+\.)?t-r_a\.co\.uk(:[0-9]+)?/Path/to\.js"#, #"^[^:]+://+t\.com/x$"#,
        #"^[^:]+://+t\.com(:[0-9]+)?/a.b"#, #"^[^:]+://+t\.com/a?"#, #"^[^:]+://+t\.com"#,
        #"^[^:]+://+([^/]+[.@])?tracker\.com\.?(:[0-9]+)?/"#, #"^[^:]+://+([^/]*@)?t\.com\.?(:[0-9]+)?/x\.js"#,
        #"^[^:]+://+([^/]+[.@])?site\.com[:/]"#, #"^[^:]+://+t\.com\.?[:/]"#, #"^[^:]+://+t\.com\.?/a\.?b"#,
    ])
    func textMatchesParse(_ pattern: String) throws {
        let parsed = HostPattern(try URLFilter(parsing: pattern, isCaseSensitive: false))
        let read = HostPattern(text: pattern, isCaseSensitive: false)
        // The text reader may decline what the parser handles, never disagree with it.
        if let read { #expect(read == parsed) }
    }

    @Test("a URL the fast path accepts is already canonical", arguments: [
        "https://www.example.com/a/b.js?x=1&y=%20#frag", "http://a.example", "https://a.example?q", "wss://a.example:8443/s",
        "http://a.example:80/", "https://A.example/", "https://a.example/./x", "https://a.example/%2e%2e/x",
        "https://a.example/a b", "https://a.example/?q='x'", "https://xn--bcher-kva.example/", "https://1.2.3.4/",
        "https://a_b.example/", "https://a.example:0080/", "https://a.example/ü", "ftp://a.example/", "https://a..b/",
        "https://-a.example/", "https://a.example/\\x", "https://a.example/x?y#z w",
    ])
    func fastPathIsCanonical(_ url: String) throws {
        var string = url
        let parts = string.withUTF8 { URLScan.canonicalParts($0) }
        guard let parts else { return }
        let canonical = try #require(CanonicalURL(url)).stringWithoutFragment
        var expected = Array(url.utf8.prefix(parts.length))
        if let insertion = parts.slashInsertion { expected.insert(UInt8(ascii: "/"), at: insertion) }
        #expect(String(decoding: expected, as: UTF8.self) == canonical)
    }

    @Test("the fast path is canonical on every real request URL",
          .enabled(if: SharedData.shouldRun(SharedData.matchingTestRequests), SharedData.skipMessage))
    func fastPathOnRealURLs() throws {
        var accepted = 0
        for request in MatchingTestRequest.all {
            var string = request.url
            guard let parts = string.withUTF8({ URLScan.canonicalParts($0) }) else { continue }
            accepted += 1
            var expected = Array(request.url.utf8.prefix(parts.length))
            if let insertion = parts.slashInsertion { expected.insert(UInt8(ascii: "/"), at: insertion) }
            #expect(String(decoding: expected, as: UTF8.self) == CanonicalURL(request.url)?.stringWithoutFragment)
        }
        #expect(accepted > MatchingTestRequest.all.count / 2)
    }

    @Test("the authority of a URL needs a scheme, `//` and ASCII")
    func authorities() {
        func authority(_ url: String) -> String? {
            var url = url
            return url.withUTF8 { bytes in URLScan.authority(bytes).map { String(decoding: bytes[$0], as: UTF8.self) } }
        }
        #expect(authority("https://a.example/x") == "a.example")
        #expect(authority("https://user:pw@a.example./?u=b@c.example/") == "user:pw@a.example.")
        #expect(authority("blob:https://a.example/") == nil)
        #expect(authority("://a.example/ad") == nil)
        #expect(authority("https:///a.example:8080/") == "a.example:8080")
    }

    @Test("host rules find their host after userinfo and before a final dot, as WebKit's regex does")
    func userinfoAndFinalDot() throws {
        let list = try Self.list(#"""
            {"trigger":{"url-filter":"^[^:]+://+([^/]+[.@])?tracker\\.com\\.?(:[0-9]+)?/"},"action":{"type":"block"}},
            {"trigger":{"url-filter":"^[^:]+://+([^/]*@)?cloak\\.site\\.com\\.?(:[0-9]+)?/px"},"action":{"type":"block-cookies"}},
            {"trigger":{"url-filter":"^[^:]+://+([^:/]+\\.)?old\\.com[:/]"},"action":{"type":"block"}},
            {"trigger":{"url-filter":"^[^:]+://+([^/]+[.@])?loose\\.com[:/]"},"action":{"type":"block"}},
            {"trigger":{"url-filter":".*","if-top-url":["^[^:]+://+([^/]+[.@])?owner\\.com[:/]"]},"action":{"type":"ignore-previous-rules"}}
            """#)
        let engine = try RuleEngine(ruleList: list)
        // Every url-filter is read as a host pattern, decided without an automaton.
        #expect(engine.program.automata.isEmpty)
        let blocked = [
            "https://tracker.com/a.js", "https://www.tracker.com./a.js", "https://tracker.com.:8443/a.js",
            "https://a:b@www.tracker.com/a.js", "https://a@tracker.com/", "https://TRACKER.com%2e/a.js",
            "https://evil.com@tracker.com/", "https://evil.com:pw@x.tracker.com./",
            "https://old.com/", "https://x.old.com:1/", "https://a@x.old.com/",
            "https://loose.com:pw@evil.com/",  // `[:/]` takes the user name's `:` for the host's end
        ]
        let allowed = [
            "https://tracker.com@evil.com/", "https://tracker.com:pw@evil.com/", "https://tracker.com.:pw@evil.com/",
            "https://x.tracker.com:1@evil.com/", "https://evil.com/?u=a@tracker.com/", "https://evil.com/a@tracker.com/",
            "https://tracker.com.evil.com/", "https://tracker.com../", "https://nottracker.com/", "https://a:b@old.com/",
            "https://old.com./", "https://a@old.com/",
        ]
        for url in blocked + allowed {
            let request = Request(url: url, topURL: "https://news.example/", resourceType: .script)
            #expect(engine.decision(for: request).isBlocked == blocked.contains(url), "\(url)")
        }
        let cloaked = ["https://cloak.site.com/px", "https://u:p@cloak.site.com./px", "https://x.cloak.site.com/px", "https://cloak.site.com@e.com/px"]
        var requests = (blocked + allowed + cloaked).map { Request(url: $0, topURL: "https://news.example/", resourceType: .script) }
        for top in ["https://owner.com/", "https://u:p@www.owner.com/", "https://owner.com./", "https://owner.com:x@evil.com/", "https://evil.com/?owner.com/"] {
            requests.append(Request(url: "https://tracker.com/a.js", topURL: top, resourceType: .script))
        }
        try Self.expectSameAsReference(list, requests)
    }

    @Test("regression: a condition on an invalid top URL that starts with `://`")
    func invalidTopURL() throws {
        let list = try Self.list(#"""
            {"trigger":{"url-filter":".*","resource-type":["popup"],"if-frame-url":["^[^:]+://+([^:/]+\\.)?a\\.example[:/]"]},"action":{"type":"block"}}
            """#)
        try Self.expectSameAsReference(list, [
            Request(url: "http://xa.example/ads", topURL: "://a.example/ad", resourceType: .popup),
            Request(url: "http://xa.example/ads", topURL: "https://a.example/", resourceType: .popup),
        ])
    }

    @Test("a navigation matches frame conditions against the document its frame leaves, as WebKit")
    func navigationFrameURL() throws {
        let list = try Self.list(#"""
            {"trigger":{"url-filter":"blank","if-frame-url":["^about:blank$"]},"action":{"type":"block"}},
            {"trigger":{"url-filter":"own","if-frame-url":["^http://f\\.example/"]},"action":{"type":"block"}},
            {"trigger":{"url-filter":"unless","unless-frame-url":["blank"]},"action":{"type":"block"}}
            """#)
        let top = "http://a.example/"
        // The page cache sees the iframe's own URL as a frame first, then its navigations.
        let requests = [
            Request(url: "http://f.example/own.png", topURL: top, frameURL: "http://f.example/own", resourceType: .image),
            Request(url: "http://f.example/own", topURL: top, resourceType: .childDocument),
            Request(url: "http://f.example/blank", topURL: top, resourceType: .childDocument),
            Request(url: "http://f.example/unless", topURL: top, resourceType: .childDocument),
            Request(url: "http://g.example/own", topURL: top, frameURL: "http://f.example/own", resourceType: .childDocument),
            Request(url: "http://g.example/blank", topURL: top, frameURL: "http://f.example/own", resourceType: .childDocument),
            Request(url: "http://f.example/own", topURL: "http://f.example/own", resourceType: .topDocument),
        ]
        let engine = try RuleEngine(ruleList: list)
        var cache = RuleEngine.PageCache()
        #expect(requests.map { engine.decision(for: $0, cache: &cache).appliedActions.isBlocked }
            == [true, false, true, false, true, false, true])
        try Self.expectSameAsReference(list, requests)
    }

    @Test("a URL repeating one literal checks its rules once")
    func repeatedLiteral() throws {
        let list = try Self.list(#"{"trigger":{"url-filter":"abcd.*x$"},"action":{"type":"block"}}"#)
        let url = "https://a.example/" + String(repeating: "abcd", count: 16_000)
        try Self.expectSameAsReference(list, [Request(url: url, topURL: "https://b.example/", resourceType: .image)])
    }

    @Test("several lists, each with its own ignore-previous-rules and style sheet")
    func severalLists() throws {
        let first = try Self.list(#"""
            {"trigger":{"url-filter":".*"},"action":{"type":"css-display-none","selector":".ad"}},
            {"trigger":{"url-filter":"^[^:]+://+([^:/]+\\.)?t\\.example[:/]"},"action":{"type":"block"}},
            {"trigger":{"url-filter":".*","if-domain":["*site.example"]},"action":{"type":"ignore-previous-rules"}}
            """#)
        let second = try Self.list(#"{"trigger":{"url-filter":"t\\.example/p"},"action":{"type":"block-cookies"}}"#)
        let engine = try RuleEngine(ruleLists: [first, second])
        let reference = try ReferenceEvaluator(ruleLists: [first, second])
        for top in ["https://news.example/", "https://www.site.example/"] {
            let request = Request(url: "https://cdn.t.example/p.gif", topURL: top, resourceType: .image)
            let decision = engine.decision(for: request)
            #expect(decision.appliedActions == reference.actions(for: request).withoutRuleIndices)
            #expect(decision.blocksCookies)
            #expect(decision.isBlocked == (top == "https://news.example/"))
        }
        #expect(engine.ruleListCount == 2 && engine.ruleCount == 4)
    }

    @Test("a compiled file claiming more conditions than rules is refused before anything is sized by it")
    func conditionCountIsBounded() throws {
        let list = try Self.list(#"{"trigger":{"url-filter":"ad","if-domain":["a.example"]},"action":{"type":"block"}}"#)
        let program = try RuleEngine(ruleList: list).program
        let damaged = Program(
            actions: program.actions, listLocationStarts: program.listLocationStarts,
            universalLocations: program.universalLocations, universalRuleIndices: program.universalRuleIndices,
            globalStyleSheets: program.globalStyleSheets, ruleCounts: program.ruleCounts, rules: program.rules,
            ruleIndices: program.ruleIndices, matchers: program.matchers, hosts: program.hosts,
            grams: program.grams, alwaysChecked: program.alwaysChecked, pageRules: program.pageRules,
            conditionCount: program.rules.count + 1, topURLHosts: program.topURLHosts,
            frameURLHosts: program.frameURLHosts, domains: program.domains, subdomainDomains: program.subdomainDomains,
            conditionPatterns: program.conditionPatterns, alwaysMatchedConditions: program.alwaysMatchedConditions)
        var writer = CompiledWriter()
        damaged.write(to: &writer)
        #expect(throws: CompiledEngineError.self) { try RuleEngine(compiled: CompiledFormat.wrap(writer.bytes)) }
        // The undamaged program round-trips.
        var intact = CompiledWriter()
        program.write(to: &intact)
        _ = try RuleEngine(compiled: CompiledFormat.wrap(intact.bytes))
    }

    @Test("one engine decides from several threads at once, each with its own page cache")
    func concurrentCallers() throws {
        let list = try Self.list(#"""
            {"trigger":{"url-filter":"^[^:]+://+([^:/]+\\.)?t\\.example[:/]","load-type":["third-party"]},"action":{"type":"block"}},
            {"trigger":{"url-filter":".*","if-domain":["*t.example"]},"action":{"type":"ignore-previous-rules"}},
            {"trigger":{"url-filter":"/ads/"},"action":{"type":"block"}}
            """#)
        let engine = try RuleEngine(ruleList: list)
        let requests = (0..<400).map { index in
            Request(
                url: index % 3 == 0 ? "https://x\(index).t.example/p.gif" : "https://cdn.example/ads/\(index).js",
                topURL: index % 5 == 0 ? "https://www.t.example/" : "https://news\(index % 7).example/",
                resourceType: .image)
        }
        let expected = requests.map { engine.decision(for: $0).appliedActions }
        let disagreements = Disagreements()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            var cache = RuleEngine.PageCache()
            for _ in 0..<5 {
                for (request, answer) in zip(requests, expected)
                where engine.decision(for: request, cache: &cache).appliedActions != answer {
                    disagreements.add()
                }
            }
        }
        #expect(disagreements.count == 0)
        #expect(expected.contains { $0.isBlocked } && expected.contains { !$0.isBlocked })
    }
}

/// A counter the concurrent test's threads share.
private final class Disagreements: @unchecked Sendable {
    // Unchecked: every access holds the lock.
    private let lock = DispatchSemaphore(value: 1)
    private var value = 0

    func add() {
        lock.wait()
        value += 1
        lock.signal()
    }

    var count: Int {
        lock.wait()
        defer { lock.signal() }
        return value
    }
}

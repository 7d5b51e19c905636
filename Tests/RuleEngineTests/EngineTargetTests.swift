import ContentRuleList
import RuleEngineKit
import Testing

/// The engine evaluates as the target's WebKit does where WebKits differ, as the reference
/// evaluator does.
@Suite("Rule engine: a WebKit target's evaluation")
struct EngineTargetTests {
    static let list = try! RuleList(parsing: #"""
        [{"trigger": {"url-filter": "cdn", "load-type": ["third-party"]}, "action": {"type": "block"}},
         {"trigger": {"url-filter": "/nav", "if-frame-url": ["^https://v\\.example/"]}, "action": {"type": "block"}}]
        """#)

    static let loads = [
        Request(url: "https://cdn.site.example/a.js", topURL: "https://www.site.example/", resourceType: .script),
        Request(url: "https://cdn.site.com/a.js", topURL: "https://www.site.com/", resourceType: .script),
        Request(url: "https://cdn.other.example/a.js", topURL: "https://www.site.example/", resourceType: .script),
        Request.mainDocument("https://v.example/nav"),
    ]

    @Test("WebKitGTK 2.44: third party by host under an unlisted top-level domain, no frame URL for a new view",
          arguments: [WebKitTarget.webKitGTK2_44, .webKitGTK2_50, .newest, .safari18, .safari26])
    func agreesWithTheEvaluator(target: WebKitTarget) throws {
        let engine = try RuleEngine(ruleList: Self.list, target: target)
        let evaluator = try ReferenceEvaluator(ruleList: Self.list, target: target)
        var cache = RuleEngine.PageCache()
        let decisions = Self.loads.map { engine.decision(for: $0, cache: &cache).isBlocked }
        #expect(decisions == Self.loads.map { evaluator.actions(for: $0).isBlocked })
        let isOld = target == .webKitGTK2_44 || target == .safari18
        #expect(decisions[0] == (target == .webKitGTK2_44))
        #expect(decisions == [target == .webKitGTK2_44, false, true, !isOld])
        // A compiled engine loaded for the same target decides the same.
        let loaded = try RuleEngine(compiled: engine.compiled(), target: target)
        var loadedCache = RuleEngine.PageCache()
        #expect(Self.loads.map { loaded.decision(for: $0, cache: &loadedCache).isBlocked } == decisions)
    }

    @Test(
        "another scheme's host with capitals is third party to its lowercase site: WebKit's RegistrableDomain::matches is case-sensitive",
        arguments: WebKitTarget.all.filter { $0.thirdParty != .origin })
    func capitalsInAnOpaqueHost(target: WebKitTarget) throws {
        let engine = try RuleEngine(ruleList: Self.list, target: target)
        let evaluator = try ReferenceEvaluator(ruleList: Self.list, target: target)
        var cache = RuleEngine.PageCache()
        for (url, isThirdParty) in [("myapp://CDN.SITE.COM/a.js", true), ("myapp://cdn.site.com/a.js", false)] {
            let request = Request(url: url, topURL: "https://www.site.com/", resourceType: .script)
            #expect(engine.decision(for: request, cache: &cache).isBlocked == isThirdParty, "\(url)")
            #expect(evaluator.actions(for: request).isBlocked == isThirdParty, "\(url)")
        }
    }
}

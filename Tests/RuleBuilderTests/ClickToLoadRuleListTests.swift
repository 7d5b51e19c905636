import ContentRuleList
import RuleBuilder
import Testing
import TrackerDataKit
import TrackerlessTestSupport

/// The Click-to-Load rules in lists of their own, one per rule action: with every list WebKit
/// blocks what the resolver blocks, and without an action's list what the resolver blocks when
/// the user unblocked that action.
@Suite("Rule builder: Click-to-Load lists")
struct ClickToLoadRuleListTests {
    static let blocklist = tds(
        [
            tracker("video.example", owner: "Video Co", default: "block", rules: #"""
                [{"rule": "video\\.example/embed/ok", "action": "ignore"},
                 {"rule": "video\\.example/embed/", "action": "block-ctl-video"},
                 {"rule": "video\\.example/embed/", "action": "ignore"},
                 {"rule": "video\\.example/widget", "action": "block-ctl-widget"}]
                """#),
            tracker("social.example", owner: "Social Co", default: "ignore", rules: #"""
                [{"rule": "social\\.example/plugin", "action": "block-ctl-widget"}, {"rule": "social\\.example/pixel"}]
                """#),
            tracker("sub.social.example", owner: "Social Co", default: "ignore"),
        ],
        entities: #"{"Video Co": {"domains": ["video.example", "videosite.example"]}, "Social Co": {"domains": ["social.example"]}}"#,
        domains: #"{"video.example": "Video Co", "videosite.example": "Video Co", "social.example": "Social Co", "sub.social.example": "Social Co"}"#)

    static let configuration = #"""
        {"features": {"contentBlocking": {"state": "enabled", "exceptions": []},
          "clickToLoad": {"state": "enabled", "exceptions": [{"domain": "off.example"}], "settings": {
            "Video Co": {"state": "enabled", "ruleActions": ["block-ctl-video"]},
            "Social Co": {"state": "enabled", "ruleActions": ["block-ctl-widget"]}}}}}
        """#

    static let requests: [(url: String, page: String)] = [
        ("https://video.example/embed/1", "https://news.example/"),
        ("https://video.example/embed/ok", "https://news.example/"),
        ("https://video.example/widget", "https://news.example/"),
        ("https://video.example/other.js", "https://news.example/"),
        ("https://video.example/embed/1", "https://off.example/"),
        ("https://video.example/embed/1", "https://www.videosite.example/"),
        ("https://social.example/plugin", "https://news.example/"),
        ("https://social.example/pixel", "https://news.example/"),
        ("https://sub.social.example/plugin", "https://news.example/"),
        ("https://social.example/plugin", "https://www.videosite.example/"),
    ]

    /// For each set of unblocked actions, the lists without theirs agree with the resolver given them.
    func checkAgreement(configuration: String?) throws {
        try Self.checkAgreement(
            try BuiltRules(Self.blocklist, configuration: configuration),
            unblocking: [[], ["block-ctl-video"], ["block-ctl-widget"], ["block-ctl-video", "block-ctl-widget"]],
            requests: Self.requests)
    }

    /// For each set of `unblocked` actions, the lists of `rules` without theirs agree with the
    /// resolver given them, on every frame load of `requests`.
    static func checkAgreement(
        _ rules: BuiltRules, unblocking sets: [Set<String>], requests: [(url: String, page: String)],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for unblocked in sets {
            let evaluator = try ReferenceEvaluator(ruleLists: rules.build.ruleLists(unblocking: unblocked))
            for (url, page) in requests {
                let webKit = evaluator.actions(for: Request(url: url, topURL: page, resourceType: .childDocument)).isBlocked
                let resolved = rules.resolver.decision(
                    forRequestURL: url, topURL: page, type: .subdocument, userUnblockedRuleActions: unblocked)?.isBlocked ?? false
                #expect(webKit == resolved, "\(url) on \(page), unblocked \(unblocked.sorted()): WebKit \(webKit), resolver \(resolved)",
                        sourceLocation: sourceLocation)
            }
        }
    }

    @Test("without a configuration: one list per action, each removable, the main list without them")
    func withoutConfiguration() throws {
        let build = try BuiltRules(Self.blocklist).build
        #expect(build.clickToLoadActions == [nil, "block-ctl-video", "block-ctl-widget"])
        let main = try ReferenceEvaluator(ruleLists: [build.ruleLists[0]])
        let embed = Request(url: "https://video.example/embed/1", topURL: "https://news.example/", resourceType: .childDocument)
        #expect(!main.actions(for: embed).isBlocked)
        #expect(try ReferenceEvaluator(ruleLists: [build.ruleLists[1]]).actions(for: embed).isBlocked)
        #expect(build.ruleLists(unblocking: ["block-ctl-video"]).count == 2)
        try checkAgreement(configuration: nil)
    }

    @Test("with a configuration: its exceptions and the listing entities' own sites, as the resolver")
    func withConfiguration() throws {
        try checkAgreement(configuration: Self.configuration)
    }

    @Test("an action no enabled entity lists gets no list and never blocks; the report says so")
    func unsupportedAction() throws {
        let configuration = #"{"features": {"contentBlocking": {"state": "enabled"}, "clickToLoad": {"state": "enabled", "settings": {"Video Co": {"state": "disabled", "ruleActions": ["block-ctl-video"]}}}}}"#
        let rules = try BuiltRules(Self.blocklist, configuration: configuration)
        #expect(rules.build.clickToLoadActions == [nil])
        #expect(rules.build.report.skippedRules.contains { $0.reason.contains("block-ctl-video") })
        #expect(!rules.blocks("https://video.example/embed/1", on: "https://news.example/", .childDocument))
        try checkAgreement(configuration: configuration)
    }
}

import ContentRuleList
import RuleBuilder
import Testing
import TrackerDataKit

/// Every list ends with the configuration's rules (an exception acts only within its list). A
/// configuration whose rules cannot fit beside the trackers', or only in lists that repeat them
/// far more than they hold, is refused before any list is made, naming its parts and counts.
@Suite("Configurations too large for the lists")
struct ConfigurationSizeTests {
    /// `count` trackers `t0.example`, `t1.example`, … blocked by default.
    static func trackers(_ count: Int) throws -> TrackerData {
        try TrackerData(parsing: Array(tds((0..<count).map { tracker("t\($0).example") }).utf8))
    }

    /// A configuration with `count` tracker-allowlist rules for `t0.example`, on every site.
    static func allowlist(_ count: Int) throws -> PrivacyConfiguration {
        var rules: [String] = []
        rules.reserveCapacity(count)
        for index in 0..<count { rules.append(#"{"rule": "t0.example/p\#(index)/", "domains": ["<all>"]}"#) }
        let json = #"{"features": {"contentBlocking": {"state": "enabled"}, "trackerAllowlist": {"state": "enabled", "settings": {"allowlistedTrackers": {"t0.example": {"rules": ["#
            + rules.joined(separator: ",") + "]}}}}}}"
        return try PrivacyConfiguration(parsing: Array(json.utf8))
    }

    static let allowlistPath = "features.trackerAllowlist.settings.allowlistedTrackers"

    @Test("200,000 tracker-allowlist rules: refused, naming the part and its count, without a list")
    func realScale() throws {
        let build = RuleListBuilder(trackerData: try Self.trackers(3), configuration: try Self.allowlist(200_000)).build()
        #expect(build.ruleLists.isEmpty && build.clickToLoadActions.isEmpty)
        let refusal = try #require(build.refusal)
        guard case .configurationFillsList(let parts, let trackerRules, let maximum) = refusal else {
            Issue.record("\(refusal)")
            return
        }
        #expect(parts.first == RuleListBuildError.Part(path: Self.allowlistPath, ruleCount: 200_000))
        #expect(maximum == 150_000 && trackerRules >= 1)
        #expect(refusal.description.contains("\(Self.allowlistPath): 200000 rules"), "\(refusal)")
        #expect(refusal.description.contains("150000"), "\(refusal)")
    }

    @Test("a configuration that leaves no room for one tracker's section is refused")
    func fillsList() throws {
        let settings = RuleListBuilder.Settings(maximumRulesPerList: 100, target: .newest)
        let build = RuleListBuilder(trackerData: try Self.trackers(5), configuration: try Self.allowlist(99), settings: settings).build()
        #expect(build.ruleLists.isEmpty)
        let refusal = try #require(build.refusal)
        #expect(refusal.parts.first == RuleListBuildError.Part(path: Self.allowlistPath, ruleCount: 99))
        // A Click-to-Load list would repeat the configuration too: no list at all.
        let clickToLoad = try TrackerData(parsing: Array(tds([tracker("t0.example", rules: #"[{"rule": "t0\\.example/embed", "action": "block-ctl-fb"}]"#)]).utf8))
        let withEmbeds = RuleListBuilder(trackerData: clickToLoad, configuration: try Self.allowlist(99), settings: settings).build()
        #expect(withEmbeds.ruleLists.isEmpty && withEmbeds.clickToLoadActions.isEmpty && withEmbeds.refusal != nil)
        // The rule that never blocks navigations and, in the newest target's host-end layout, the
        // exception for URLs with a password end every list too: the other parts.
        #expect(refusal.configurationRuleCount == 101)
        #expect(refusal.parts.contains { $0.path.contains("host-end layout") && $0.ruleCount == 1 }, "\(refusal)")
    }

    @Test("a configuration the lists would repeat more than the trackers' rules and one list hold is refused")
    func repeatedTooOften() throws {
        // 96 rules (with the navigations' rule and the host-end layout's fix-up) leave room for 4
        // tracker rules a list: 60 trackers, each block four rules in the layout, need 60 lists.
        let settings = RuleListBuilder.Settings(maximumRulesPerList: 100, target: .newest)
        let build = RuleListBuilder(trackerData: try Self.trackers(60), configuration: try Self.allowlist(94), settings: settings).build()
        #expect(build.ruleLists.isEmpty)
        guard case .configurationRepeatedTooOften(let parts, let trackerRules, let listCount, 100)? = build.refusal else {
            Issue.record("\(String(describing: build.refusal))")
            return
        }
        #expect(parts.first?.ruleCount == 94 && trackerRules == 240 && listCount >= 60, "\(parts) \(trackerRules) \(listCount)")
    }

    @Test("a configuration that fits is repeated at the end of every list, and the lists keep its meaning")
    func fits() throws {
        let settings = RuleListBuilder.Settings(maximumRulesPerList: 100, target: .newest)
        let trackerData = try Self.trackers(60)
        let configuration = try Self.allowlist(40)
        let build = RuleListBuilder(trackerData: trackerData, configuration: configuration, settings: settings).build()
        #expect(build.refusal == nil)
        // 42 rules end each list (with the fix-up): 58 for the trackers' 240 (four a block in the
        // newest target's host-end layout), in 5 lists.
        #expect(build.ruleLists.count == 5 && build.ruleLists.allSatisfy { $0.rules.count <= 100 })
        let evaluator = try ReferenceEvaluator(ruleLists: build.ruleLists, target: .newest)
        for index in [0, 59] {
            #expect(evaluator.actions(for: Request(url: "https://t\(index).example/x.js", topURL: "https://site.example/", resourceType: .script)).isBlocked)
        }
        #expect(!evaluator.actions(for: Request(url: "https://t0.example/p7/x.js", topURL: "https://site.example/", resourceType: .script)).isBlocked)
    }

    @Test("cookie rules: excluded cookie domains that fill a list are refused, naming the part")
    func cookieRules() throws {
        let domains = (0..<120).map { #"{"domain": "x\#($0).example"}"# }.joined(separator: ",")
        let configuration = try PrivacyConfiguration(parsing: Array(#"""
            {"features": {"cookie": {"state": "enabled", "settings": {"trackerCookie": "enabled", "excludedCookieDomains": [\#(domains)]}}}}
            """#.utf8))
        let build = CookieRules(
            trackerData: try Self.trackers(3), configuration: configuration,
            settings: .init(maximumRulesPerList: 100, target: .newest)
        ).build()
        #expect(build.ruleLists.isEmpty)
        #expect(build.refusal?.parts.first == RuleListBuildError.Part(path: "features.cookie.settings.excludedCookieDomains", ruleCount: 120))
    }
}

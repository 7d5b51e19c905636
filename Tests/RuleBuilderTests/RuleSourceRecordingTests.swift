import ContentRuleList
import Testing
import TrackerDataKit
import TrackerlessTestSupport

@testable import RuleBuilder

/// A build told not to record where its rules came from (``RuleListBuilder/Settings/recordsRuleSources``
/// off) makes the same lists and report, and no rule sources: no ``RuleSource`` per rule and, while
/// the sections are made, no ``RuleSource/Part`` per rule.
@Suite("Rule sources made only when asked")
struct RuleSourceRecordingTests {
    /// A tracker with a default block, rules with an exception and an ignore, one nested in it, a
    /// CNAME cloaking it and a Click-to-Load rule, owned by an entity with two sites.
    static let tds = #"""
        {"trackers": {
           "ads.example": {"domain": "ads.example", "owner": {"name": "Ads Co"}, "default": "block",
             "rules": [{"rule": "ads\\.example/ok", "action": "ignore"}, {"rule": "ads\\.example/px", "exceptions": {"domains": ["news.example"]}},
                       {"rule": "ads\\.example/embed/", "action": "block-ctl-fb"}]},
           "cdn.ads.example": {"domain": "cdn.ads.example", "owner": {"name": "Cdn Co"}, "default": "ignore",
             "rules": [{"rule": "cdn\\.ads\\.example/t\\.js", "options": {"types": ["script"]}}]}},
         "entities": {"Ads Co": {"domains": ["ads.example", "adsco-news.example"]}, "Cdn Co": {"domains": ["cdn.ads.example"]}},
         "domains": {"ads.example": "Ads Co", "adsco-news.example": "Ads Co", "cdn.ads.example": "Cdn Co"},
         "cnames": {"metrics.site.example": "ads.example"}}
        """#

    /// One unprotected site and the user's allowlist: rules that end every list.
    static func configuration() throws -> PrivacyConfiguration {
        try PrivacyConfiguration(parsing: Array(
            #"{"unprotectedTemporary": [{"domain": "open.example"}], "features": {"contentBlocking": {"state": "enabled"}}}"#.utf8))
    }

    /// The build of `trackerData` with and without sources, in `settings`: the same lists and
    /// report; sources, one per rule, only when recorded.
    static func expectSameLists(_ trackerData: TrackerData, settings: RuleListBuilder.Settings, configuration: PrivacyConfiguration?) {
        var without = settings
        without.recordsRuleSources = false
        var with = settings
        with.recordsRuleSources = true
        let recorded = RuleListBuilder(trackerData: trackerData, configuration: configuration, settings: with).build()
        let unrecorded = RuleListBuilder(trackerData: trackerData, configuration: configuration, settings: without).build()
        // A target whose configuration rules leave a small list no room refuses both alike.
        #expect(unrecorded.refusal == recorded.refusal)
        #expect(recorded.refusal != nil || !recorded.ruleLists.isEmpty)
        #expect(unrecorded.ruleLists == recorded.ruleLists, "\(settings.target)")
        #expect(unrecorded.report == recorded.report)
        #expect(unrecorded.clickToLoadActions == recorded.clickToLoadActions)
        #expect(unrecorded.sources.isEmpty)
        #expect(recorded.sources.map(\.count) == recorded.ruleLists.map(\.rules.count))
        let cookies = CookieRules(trackerData: trackerData, configuration: configuration, settings: with).build()
        let cookiesUnrecorded = CookieRules(trackerData: trackerData, configuration: configuration, settings: without).build()
        #expect(cookiesUnrecorded.ruleLists == cookies.ruleLists && cookiesUnrecorded.report == cookies.report)
        #expect(cookiesUnrecorded.sources.isEmpty && cookies.sources.map(\.count) == cookies.ruleLists.map(\.rules.count))
    }

    @Test("on by default: a build says where each rule came from")
    func onByDefault() throws {
        #expect(RuleListBuilder.Settings().recordsRuleSources)
        let build = RuleListBuilder(trackerData: try TrackerData(parsing: Array(Self.tds.utf8))).build()
        #expect(!build.sources.isEmpty && build.sources.map(\.count) == build.ruleLists.map(\.rules.count))
    }

    @Test("off: the same lists and report, no sources; targets that lower rules, lists of an entity's own, a split, a configuration",
          arguments: [WebKitTarget.oldest, .safari15, .safari26, .webKitGTK2_44])
    func sameLists(target: WebKitTarget) throws {
        let trackerData = try TrackerData(parsing: Array(Self.tds.utf8))
        var settings = RuleListBuilder.Settings(target: target)
        #expect(RuleListBuilder(trackerData: trackerData, settings: settings).build().refusal == nil)
        Self.expectSameLists(trackerData, settings: settings, configuration: nil)
        Self.expectSameLists(trackerData, settings: settings, configuration: try Self.configuration())
        settings.minimumBytesSavedByEntityList = -1_000_000_000
        Self.expectSameLists(trackerData, settings: settings, configuration: try Self.configuration())
        settings.maximumRulesPerList = 6
        Self.expectSameLists(trackerData, settings: settings, configuration: try Self.configuration())
        Self.expectSameLists(try TrackerData(parsing: Array(TrackerData.sampleDocument.utf8)), settings: settings, configuration: nil)
    }

    @Test("off on apple-tds: the same lists, no sources", .enabled(if: SharedData.shouldRun("tds/apple-tds.json"), SharedData.skipMessage))
    func appleBlocklist() throws {
        let trackerData = try TrackerData(contentsOfFile: SharedData.path("tds/apple-tds.json"))
        Self.expectSameLists(trackerData, settings: RuleListBuilder.Settings(), configuration: nil)
    }

    @Test("off: a tracker's section appends its rules and no part; on, one part per rule")
    func sectionMakesNoParts() throws {
        let trackerData = try TrackerData(parsing: Array(Self.tds.utf8))
        let tracker = try #require(trackerData.trackers["ads.example"])
        for records in [false, true] {
            let section = TrackerSection(
                scope: .tracker(domain: "ads.example"), blocksByDefault: true, rules: tracker.rules, trackerKey: "ads.example",
                firstPartyCondition: nil, recordsParts: records)
            var rules: [ContentRule] = []
            var parts: [RuleSource.Part?] = []
            var report = BuildReport()
            var regexes: [String: Result<[[TrackerRuleRegex.Node]], TrackerRuleRegex.ParseError>] = [:]
            section.build(into: &rules, parts: &parts, with: RuleListBuilder.Settings(), report: &report, regexes: &regexes)
            #expect(rules.count >= 3, "\(rules)")
            #expect(parts.count == (records ? rules.count : 0), "recordsParts \(records): \(parts.count) parts for \(rules.count) rules")
        }
        // The sections the builder appends to keep no parts either, even for rules appended
        // without one (the cancel of an enclosing tracker).
        var groups = RuleListBuilder.SectionGroups(separated: [], leftOut: [], recordsParts: false)
        groups.appendTrackerSection(
            key: "cdn.ads.example", domain: "cdn.ads.example", owner: "Cdn Co", hasEnclosing: true, trackers: trackerData.trackers
        ) { rules, _ in
            rules.append(ContentRule(trigger: Trigger(urlFilter: "^https?://cdn\\.ads\\.example/"), action: .block))
        }
        #expect(groups.main.rules.count == 2 && groups.main.parts.isEmpty, "\(groups.main.parts.count) parts")
    }
}

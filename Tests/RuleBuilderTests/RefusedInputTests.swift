import ContentRuleList
import RuleBuilder
import Testing
import TrackerDataKit
import TrackerlessCore

/// The builder never gives a list that its own validator refuses: an input whose rules WebKit
/// would not compile is left out, and the report names it.
@Suite("Inputs whose rules WebKit would refuse")
struct RefusedInputTests {
    /// A host of `count` letters: escaped into a url-filter, longer than WebKit's pattern limit
    /// (1 MiB) when `count` is over a million.
    static func longHost(_ count: Int) -> String { String(repeating: "a", count: count) + ".example" }

    @Test("a tracker domain too long for a url-filter is left out with a note naming it; the other trackers stay")
    func longTrackerDomain() throws {
        let host = Self.longHost(1_100_000)
        let json = #"{"trackers": {"\#(host)": {"domain": "\#(host)", "default": "block"}, "ok.example": {"domain": "ok.example", "default": "block"}}, "entities": {}, "domains": {}}"#
        let build = RuleListBuilder(trackerData: try TrackerData(parsing: Array(json.utf8))).build()
        for list in build.ruleLists { try list.validate() }
        #expect(build.ruleLists.flatMap(\.rules).contains { $0.trigger.urlFilter.contains("ok\\.example") })
        let note = try #require(build.report.skippedRules.first { $0.reason.contains("WebKit would refuse") })
        #expect(note.path.hasPrefix(#"trackers["aaaa"#) && note.path.contains("bytes in all"), "\(note.path.prefix(300))")
        #expect(note.description.utf8.count < 1_000, "the note quotes the input cut: \(note.description.utf8.count) bytes")
    }

    @Test("a tracker domain too long for a url-filter is left out of the cookie rules too, the note naming its JSON path")
    func longTrackerDomainInCookieRules() throws {
        let host = Self.longHost(1_100_000)
        let json = #"{"trackers": {"\#(host)": {"domain": "\#(host)", "default": "block"}, "ok.example": {"domain": "ok.example", "default": "block"}}, "entities": {}, "domains": {}}"#
        let build = CookieRules(trackerData: try TrackerData(parsing: Array(json.utf8))).build()
        for list in build.ruleLists { try list.validate() }
        #expect(build.ruleLists.flatMap(\.rules).contains { $0.trigger.urlFilter.contains("ok\\.example") })
        let note = try #require(build.report.skippedRules.first { $0.reason.contains("WebKit would refuse a cookie rule") })
        #expect(note.path.hasPrefix(#"trackers["aaaa"#), "\(note.path.prefix(300))")
        #expect(note.description.utf8.count < 1_000, "the note quotes the input cut: \(note.description.utf8.count) bytes")
    }

    @Test("a tracker-allowlist rule too long for a url-filter is left out with a note naming its JSON path")
    func longAllowlistRule() throws {
        let tds = try TrackerData(parsing: Array(#"{"trackers": {"t.example": {"domain": "t.example", "default": "block"}}, "entities": {}, "domains": {}}"#.utf8))
        let path = String(repeating: "p", count: 1_100_000)
        let configuration = try PrivacyConfiguration(parsing: Array(#"""
            {"features": {"contentBlocking": {"state": "enabled"}, "trackerAllowlist": {"state": "enabled", "settings":
             {"allowlistedTrackers": {"t.example": {"rules": [{"rule": "t.example/\#(path)", "domains": ["<all>"]}]}}}}}}
            """#.utf8))
        let build = RuleListBuilder(trackerData: tds, configuration: configuration).build()
        for list in build.ruleLists { try list.validate() }
        let note = try #require(build.report.skippedRules.first { $0.reason.contains("WebKit would refuse") })
        #expect(note.path == #"features.trackerAllowlist.settings.allowlistedTrackers["t.example"].rules[0]"#)
        #expect(build.ruleLists.flatMap(\.rules).contains { $0.trigger.urlFilter.contains("t\\.example") })
    }
}

/// `build(checkingTriggers: false)`: the same lists as `build()` when every rule is valid, and
/// the refused rule still in them otherwise, for a caller that checks them itself.
@Suite("Building without the trigger check")
struct UncheckedBuildTests {
    @Test("valid inputs: the lists and the report of build(), rule for rule")
    func sameAsChecked() throws {
        let json = #"{"trackers": {"t.example": {"domain": "t.example", "default": "block", "rules": [{"rule": "t\\.example/ctl", "action": "block-ctl-yt"}]}, "ok.example": {"domain": "ok.example", "default": "block"}}, "entities": {}, "domains": {}}"#
        let builder = RuleListBuilder(trackerData: try TrackerData(parsing: Array(json.utf8)))
        let checked = builder.build()
        let unchecked = builder.build(checkingTriggers: false)
        #expect(unchecked.ruleLists.map { $0.encoded() } == checked.ruleLists.map { $0.encoded() })
        #expect(unchecked.clickToLoadActions == checked.clickToLoadActions && checked.clickToLoadActions.contains("block-ctl-yt"))
        #expect(unchecked.report.skippedRules.map(\.description) == checked.report.skippedRules.map(\.description))
    }

    @Test("an input WebKit would refuse stays in, and its list's check fails")
    func refusedRuleStays() throws {
        let host = RefusedInputTests.longHost(1_100_000)
        let json = #"{"trackers": {"\#(host)": {"domain": "\#(host)", "default": "block"}}, "entities": {}, "domains": {}}"#
        let unchecked = RuleListBuilder(trackerData: try TrackerData(parsing: Array(json.utf8))).build(checkingTriggers: false)
        #expect(unchecked.ruleLists.contains { (try? $0.validateTriggers()) == nil })
    }
}

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

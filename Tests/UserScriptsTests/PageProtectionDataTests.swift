import Testing
import TrackerDataKit
import TrackerlessCore
@testable import UserScripts

/// The `protections` member of the compact tracker data, which carries the privacy
/// configuration's page protections to the blocking script, and the user's GPC setting in
/// `$SETTINGS$`.
@Suite("Page protection data")
struct PageProtectionDataTests {
    static let trackerData = TrackerData(
        trackers: [
            "tracker.test": Tracker(domain: "tracker.test", owner: Tracker.Owner(name: "Tracker Inc", displayName: "Tracker"), defaultAction: .block),
            "cdn.test": Tracker(domain: "cdn.test", owner: nil, defaultAction: .ignore),
        ],
        entities: ["Tracker Inc": Entity(name: "Tracker Inc", domains: ["tracker.test", "tracker.example"])],
        domains: ["tracker.test": "Tracker Inc", "tracker.example": "Tracker Inc", "other.test": "Other Inc"],
        cnames: ["metrics.site.test": "x.tracker.test", "www.site.test": "site-cdn.test"])

    static func configuration(_ features: String) throws -> PrivacyConfiguration {
        try PrivacyConfiguration(parsing: Array("""
            {"features": {\(features)}, "unprotectedTemporary": [{"domain": "Global.test"}]}
            """.utf8))
    }

    static func protections(_ configuration: PrivacyConfiguration?, scope: CompactTrackerData.Scope) throws -> JSONObject {
        let compact = CompactTrackerData(trackerData: trackerData, privacyConfiguration: configuration, scope: scope)
        guard case .object(let root) = try JSONParser.parse(Array(compact.json.utf8)), case .object(let member)? = root["protections"]
        else {
            Issue.record("no protections member")
            return JSONObject()
        }
        return member
    }

    @Test("each feature is false when off, else its exceptions with unprotectedTemporary; the same in every scope")
    func features() throws {
        let configuration = try Self.configuration("""
            "gpc": {"state": "enabled", "exceptions": [{"domain": "b.test"}, {"domain": "a.test"}]},
            "referrer": {"state": "disabled"},
            "cookie": {"state": "enabled", "exceptions": [], "settings": {"firstPartyCookiePolicy": {"threshold": 604800, "maxAge": 86400},
                       "excludedCookieDomains": [{"domain": "cdn.test", "reason": "x"}]}}
            """)
        for scope in CompactTrackerData.Scope.allCases {
            let member = try Self.protections(configuration, scope: scope)
            #expect(member["gpc"] == .array([.string("a.test"), .string("b.test"), .string("global.test")]))
            #expect(member["referrer"] == .bool(false))
            #expect(member["cookie"] == .array([.array([.string("global.test")]), .number(604_800), .number(86_400), .array([.string("cdn.test")])]))
            // Cookies need every tracker and the CNAMEs that lead to one, whatever the scope.
            #expect(member["trackers"] == .string(" cdn.test tracker.test "))
            #expect(member["cnames"] == .object(JSONObject([("metrics.site.test", .string("x.tracker.test"))])))
            #expect(member["entities"] == .string(""))
            #expect(member["psl"] == .string(""))
        }
        let none = try Self.protections(nil, scope: .all)
        for feature in ["gpc", "referrer", "cookie"] { #expect(none[feature] == .bool(false)) }
        #expect(none["trackers"] == .string(""))
    }

    @Test("with referrer trimming on, every tds domain's entity and the whole Public Suffix List")
    func referrerData() throws {
        let member = try Self.protections(try Self.configuration(#""referrer": {"state": "enabled", "exceptions": []}"#), scope: .surrogateTrackers)
        // Entities numbered in the order of their names: Other Inc 0, Tracker Inc 1.
        #expect(member["entities"] == .string(" other.test:0 tracker.example:1 tracker.test:1 "))
        guard case .string(let psl)? = member["psl"] else {
            Issue.record("no psl text")
            return
        }
        let entries = PublicSuffixList.bundled.compactEntries()
        #expect(entries.count > 9000)
        for (suffix, kinds) in entries where PageProtectionData.isPlainName(suffix) {
            #expect(psl.contains(kinds == 1 ? " \(suffix) " : " \(suffix):\(kinds) "), "\(suffix)")
        }
        #expect(member["cookie"] == .bool(false))
        #expect(member["trackers"] == .string(" cdn.test tracker.test "))
    }

    @Test("the user's GPC setting is written into $SETTINGS$")
    func userSetting() throws {
        let off = try ScriptRenderer(settings: ScriptSettings(globalPrivacyControl: false))
            .render(trackerData: Self.trackerData).blocking.source
        let on = try ScriptRenderer().render(trackerData: Self.trackerData).blocking.source
        #expect(off.contains(#""debug":false,"gpc":false}"#))
        #expect(on.contains(#""debug":false,"gpc":true}"#))
    }
}

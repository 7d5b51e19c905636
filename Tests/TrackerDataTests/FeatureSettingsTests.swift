import Testing
import TrackerDataKit
import TrackerlessCore

/// A feature's `settings` kept as the text of the document, and read by each of its readers with
/// a JSONReader of its own.
@Suite("Feature settings as text")
struct FeatureSettingsTests {
    private static let document = #"""
        {"features": {
          "trackerAllowlist": {"state": "enabled", "settings": {"allowlistedTrackers": {
            "t.example": {"rules": [{"rule": 1, "domains": []}], "rules": [{"rule": "t.example/a", "domains": ["<all>"]}]}},
            "unknown": {"big": [1, 2, 3]}}},
          "trackingParameters": {"state": "enabled", "settings":   {"parameters": ["utm_source", 7, "fbclid"]}  }
        }}
        """#

    @Test("the settings are kept as written, and equal the same settings built as a tree")
    func keptAsText() throws {
        let configuration = try PrivacyConfiguration(parsing: Array(Self.document.utf8), file: "config.json")
        let text = try #require(configuration.features["trackingParameters"]?.settingsText)
        #expect(String(decoding: text.bytes, as: UTF8.self) == #"{"parameters": ["utm_source", 7, "fbclid"]}"#)
        let built = PrivacyConfiguration.Feature(
            state: .enabled,
            settings: .object(JSONObject([("parameters", .array([.string("utm_source"), .number(7), .string("fbclid")]))])))
        #expect(configuration.features["trackingParameters"] == built)
        #expect(configuration.features["trackerAllowlist"]?.settings?.objectValue?["unknown"] != nil)
    }

    @Test("the allowlist read from the settings text takes the last rules array, without the warnings of the others")
    func lastRulesWin() throws {
        let configuration = try PrivacyConfiguration(parsing: Array(Self.document.utf8), file: "config.json")
        #expect(configuration.trackerAllowlist.entries == [
            .init(trackerDomain: "t.example", rules: [.init(rule: "t.example/a", domains: ["<all>"])])
        ])
        #expect(configuration.warnings.isEmpty)
    }
}

extension JSONValue {
    fileprivate var objectValue: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }
}

import Testing
import TrackerDataKit

/// A configuration that turns tracker blocking off everywhere says so, naming the feature.
@Suite struct ProtectionWarningsTests {
    static func warnings(_ json: String) throws -> [String] {
        try PrivacyConfiguration(parsing: Array(json.utf8), file: "c.json").protectionWarnings(file: "c.json").map(\.description)
    }

    @Test("contentBlocking missing or not enabled is named; enabled says nothing")
    func contentBlocking() throws {
        let remedy = #"(DuckDuckGo's apps treat it so; {"state": "enabled"} turns it on)"#
        #expect(try Self.warnings("{}") == ["c.json: features.contentBlocking: missing: tracker blocking is off on every site \(remedy)"])
        #expect(try Self.warnings(#"{"features": {"contentBlocking": {"state": "disabled"}}}"#)
            == [#"c.json: features.contentBlocking.state: "disabled": tracker blocking is off on every site "# + remedy])
        #expect(try Self.warnings(#"{"features": {"contentBlocking": {"state": "enabled"}}}"#).isEmpty)
    }
}

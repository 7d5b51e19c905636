import Testing
import TrackerlessRuntime

/// A privacy configuration whose rules cannot fit beside the trackers' in WebKit's lists is an
/// error naming the configuration and its largest part, raised before any list is made.
@Suite("ProtectionSet: a configuration too large for the lists")
struct ConfigurationRefusalTests {
    @Test("160,000 tracker-allowlist rules: invalidInput(.privacyConfiguration) naming the part and its count")
    func trackerAllowlist() throws {
        var rules: [String] = []
        rules.reserveCapacity(160_000)
        for index in 0..<160_000 { rules.append(#"{"rule": "tracker.example/p\#(index)/", "domains": ["<all>"]}"#) }
        let configuration = #"{"features": {"contentBlocking": {"state": "enabled"}, "trackerAllowlist": {"state": "enabled", "settings": {"allowlistedTrackers": {"tracker.example": {"rules": ["#
            + rules.joined(separator: ",") + "]}}}}}}"
        var inputs = RuntimeFixture.inputs
        inputs.privacyConfiguration = .bytes(Array(configuration.utf8), name: "huge-config.json")
        let error = #expect(throws: ProtectionError.self) { try ProtectionSet.build(inputs) }
        #expect(error?.input == .privacyConfiguration)
        #expect(error?.description.contains("features.trackerAllowlist.settings.allowlistedTrackers: 160000 rules") == true,
                "\(String(describing: error))")
    }
}

import Testing
import TrackerDataKit
import TrackerlessCore
import TrackerlessTestSupport

/// The privacy configuration is read by `JSONReader`, no longer through a JSON tree. These tests
/// hold the reader to the tree decoder it replaced (`TreePrivacyConfigurationDecoder`): the same
/// configuration and warnings (in the same order) for any input, the same error for bad input.
@Suite("Reading the privacy configuration directly, as the tree decoder did")
struct PrivacyConfigurationReaderTests {
    /// Every field the reader knows, wrong types that are dropped with a warning, `null`s,
    /// duplicate keys and an escaped key.
    static let document = #"""
        {
          "readme": "https://example.test/readme", "version": 1700000000000,
          "features": {
            "contentBlocking": {"state": "enabled", "exceptions": [{"domain": "Shop.example", "reason": "breakage"},
                                {"domain": 1}, "x", {"reason": "r"}, {"domain": "a.example", "reason": 2}, {"domain": "b.example", "reason": null}],
                                "hash": 5, "minSupportedVersion": "1.0", "extra": [1, {"a": null}]},
            "trackerAllowlist": {"state": "enabled", "settings": {"allowlistedTrackers": {
              "tracker.example": {"rules": [{"rule": "tracker.example/widget", "domains": ["<all>"], "reason": "site breakage"},
                                            {"rule": "", "domains": []}, {"rule": "tracker.example/x", "domains": [1]}]},
              "bad.example": {"rules": 1}}}},
            "requestBlocklist": {"state": "enabled", "settings": {"blockedRequests": {
              "ads.example": {"rules": [{"rule": "ads.example/a.js", "domains": ["<all>"]}, {"rule": "other.test/x", "domains": ["<all>"]}]}}}},
            "cookie": {"state": "enabled", "settings": {"trackerCookie": 1, "excludedCookieDomains": ["ok.example", {"domain": 2}, {"domain": "d.example"}],
                                                        "aboutBlankSites": [{"nodomain": 1}], "scripts": 3}},
            "st\u0061te": {"state": null},
            "nostate": {"exceptions": []},
            "notanobject": [],
            "withSubfeatures": {"state": "disabled", "features": {"sub": {"state": "enabled", "hash": "h"}, "badsub": 1}, "settings": []},
            "duplicate": {"state": "enabled", "hash": 1},
            "duplicate": {"state": "enabled", "hash": "h2", "state": "disabled"}
          },
          "unprotectedTemporary": [{"domain": "Broken.example", "reason": "r"}, {"domain": null}],
          "version": "not a number",
          "readme": null
        }
        """#

    private static func outcome(_ bytes: [UInt8]) -> (reader: String, tree: String, agree: Bool) {
        let reader = Result { () throws(TrackerDataError) in try PrivacyConfiguration(parsing: bytes, file: "config.json") }
        let tree = Result { () throws(TrackerDataError) in try TreePrivacyConfigurationDecoder.decode(bytes, file: "config.json") }
        // The warnings' order is compared too: the configurations compare them as arrays.
        return ("\(reader)", "\(tree)", reader == tree)
    }

    private static func expectAgreement(_ bytes: [UInt8], _ what: @autoclosure () -> String) {
        let (reader, tree, agree) = outcome(bytes)
        #expect(agree, "\(what()): reader \(reader), tree \(tree)")
    }

    @Test("the example reads the same, warnings included and in order")
    func example() throws {
        let bytes = Array(Self.document.utf8)
        let configuration = try PrivacyConfiguration(parsing: bytes, file: "config.json")
        #expect(configuration == (try TreePrivacyConfigurationDecoder.decode(bytes, file: "config.json")))
        #expect(configuration.warnings.count > 15)
        #expect(configuration.features["duplicate"]?.state == .disabled, "the last duplicate wins")
        #expect(configuration.trackerAllowlist.entries.count == 1)
    }

    @Test("the reference tests' configurations read the same", arguments: [
        "privacy-reference-tests/amp-protections/config_reference.json",
        "privacy-reference-tests/block-third-party-tracking-cookies/config_reference.json",
        "privacy-reference-tests/click-to-load/config_reference.json",
        "privacy-reference-tests/expire-first-party-js-cookies/config_reference.json",
        "privacy-reference-tests/fingerprinting-protections/config_reference.json",
        "privacy-reference-tests/global-privacy-control/config_reference.json",
        "privacy-reference-tests/https-upgrades/config_reference.json",
        "privacy-reference-tests/privacy-configuration/config1_reference.json",
        "privacy-reference-tests/privacy-configuration/config2_reference.json",
        "privacy-reference-tests/privacy-configuration/config3_reference.json",
        "privacy-reference-tests/referrer-trimming/config_reference.json",
        "privacy-reference-tests/request-blocklist/config-reference.json",
        "privacy-reference-tests/url-parameters/config_reference.json",
    ])
    func sharedConfigurations(_ name: String) throws {
        guard SharedData.shouldRun(name) else { try Test.cancel(SharedData.skipMessage) }
        let bytes = try #require(SharedData.bytes(name))
        Self.expectAgreement(bytes, name)
    }

    @Test("every truncation gives the same error")
    func truncations() {
        DocumentMutations.eachTruncation(of: Array(Self.document.utf8)) { Self.expectAgreement($0, $1) }
    }

    @Test("every byte deleted or replaced gives the same result, warnings or error")
    func mutations() {
        let replacements = Array("\"1n{[]},: x".utf8)
        DocumentMutations.eachDeletionAndReplacement(of: Array(Self.document.utf8), replacements: replacements) {
            Self.expectAgreement($0, $1)
        }
    }
}

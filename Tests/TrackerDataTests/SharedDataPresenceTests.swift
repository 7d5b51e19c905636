import Foundation
import Testing
import TrackerlessTestSupport

/// Fails when TRACKERLESS_REQUIRE_SHARED_DATA=1 and a file the reference suites read is missing
/// (the suites themselves then just find no cases).
@Suite("Shared data")
struct SharedDataPresenceTests {
    static let requiredFiles = [
        "\(SharedData.domainMatching)/domain_matching_tests.json",
        "\(SharedData.domainMatching)/tracker_radar_reference.json",
        "\(SharedData.domainMatching)/surrogates.txt",
        "\(SharedData.domainMatching)/tracker_allowlist_matching_tests.json",
        "\(SharedData.domainMatching)/tracker_allowlist_reference.json",
        "\(SharedData.domainMatching)/tracker_allowlist_tds_reference.json",
        "\(SharedData.requestBlocklist)/tests.json",
        "\(SharedData.requestBlocklist)/config-reference.json",
        "\(SharedData.requestBlocklist)/tds-reference.json",
        "\(SharedData.requestBlocklist)/surrogates-reference.txt",
        "\(SharedData.requestBlocklist)/user-allowlist-reference.json",
        "\(SharedData.privacyConfiguration)/tests.json",
        "tds/apple-tds.json",
        "tds/extension-tds.json",
    ]

    @Test("shared reference data is present", .enabled(if: SharedData.shouldRun, SharedData.skipMessage))
    func sharedDataIsPresent() {
        for file in Self.requiredFiles {
            #expect(FileManager.default.fileExists(atPath: SharedData.path(file)), "missing \(SharedData.path(file))")
        }
    }
}

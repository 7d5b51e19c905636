import Foundation
import Testing
import TrackerlessCore

/// Finds the shared test data beside the package (`<package root>/../shared/data`), never copied
/// into the repository.
///
/// When the data is absent, suites that need it are skipped with a message, unless the
/// environment variable `TRACKERLESS_REQUIRE_SHARED_DATA=1` is set: then
/// ``SharedDataPresenceTests`` fails.
enum SharedData {
    /// `<package root>/../shared/data`, following symbolic links from this file.
    static let directory: URL = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent()  // TrackerDataTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .deletingLastPathComponent()
        .appendingPathComponent("shared/data")

    static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent("privacy-reference-tests").path)
    }

    static var isRequired: Bool {
        ProcessInfo.processInfo.environment["TRACKERLESS_REQUIRE_SHARED_DATA"] == "1"
    }

    /// Whether data-driven suites should run: when the data is there, or when it is required
    /// (so that a missing file fails loudly instead of skipping).
    static var shouldRun: Bool { isAvailable || isRequired }

    static let skipMessage: Comment =
        "shared data not found beside the package (../shared/data); set TRACKERLESS_REQUIRE_SHARED_DATA=1 to fail instead"

    static func path(_ relative: String) -> String {
        directory.appendingPathComponent(relative).path
    }

    /// The bytes of a shared file, or nil when it is missing.
    static func bytes(_ relative: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path(relative)).map { [UInt8]($0) }
    }

    /// A shared JSON file, or nil when it is missing or not JSON (test-case loaders return no
    /// cases then; ``SharedDataPresenceTests`` reports the missing file).
    static func json(_ relative: String) -> JSONNode? {
        guard let bytes = bytes(relative), let value = try? JSONParser.parse(bytes) else { return nil }
        return JSONNode(value)
    }

    static let referenceTests = "privacy-reference-tests"
    static let domainMatching = "privacy-reference-tests/tracker-radar-tests/TR-domain-matching"
    static let requestBlocklist = "privacy-reference-tests/request-blocklist"
    static let privacyConfiguration = "privacy-reference-tests/privacy-configuration"
}

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

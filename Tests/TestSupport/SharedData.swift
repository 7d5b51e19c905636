public import Foundation
public import Testing
public import TrackerlessCore

/// The shared test data beside the package (`<package root>/../shared/data`), which is never
/// copied into the repository.
///
/// Tests that need it are skipped with ``skipMessage`` when it is absent, unless the environment
/// variable `TRACKERLESS_REQUIRE_SHARED_DATA=1` is set: then they run and fail on the missing file.
///
/// ```swift
/// @Suite("Real blocklists", .enabled(if: SharedData.shouldRun, SharedData.skipMessage))
/// struct RealBlocklistTests { … SharedData.path("tds/apple-tds.json") … }
/// ```
public enum SharedData {
    /// The package root: three directories above this file (`Tests/TestSupport/SharedData.swift`),
    /// symbolic links resolved.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent()  // TestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root

    /// `<package root>/../shared/data`.
    public static let directory: URL = packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared").appendingPathComponent("data")

    /// Whether the environment requires the data (`TRACKERLESS_REQUIRE_SHARED_DATA=1`), so that
    /// its absence fails tests instead of skipping them.
    public static var isRequired: Bool {
        ProcessInfo.processInfo.environment["TRACKERLESS_REQUIRE_SHARED_DATA"] == "1"
    }

    /// Whether the shared data directory is there (judged by its reference-test folder).
    public static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: path(referenceTests))
    }

    /// Whether suites on shared data should run: it is there, or it is required (and a missing
    /// file then fails loudly).
    public static var shouldRun: Bool { isAvailable || isRequired }

    /// Whether a test needing one shared file should run: the file exists, or the data is required.
    public static func shouldRun(_ relativePath: String) -> Bool {
        isRequired || FileManager.default.fileExists(atPath: path(relativePath))
    }

    /// Why a test on shared data was skipped.
    public static let skipMessage: Comment =
        "shared data not found beside the package (../shared/data); set TRACKERLESS_REQUIRE_SHARED_DATA=1 to fail instead"

    /// The absolute path of a shared file, for example `tds/apple-tds.json`.
    public static func path(_ relativePath: String) -> String {
        directory.appendingPathComponent(relativePath).path
    }

    /// The bytes of a shared file, or nil when it is missing.
    public static func bytes(_ relativePath: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path(relativePath)).map { [UInt8]($0) }
    }

    /// A shared JSON file, or nil when it is missing or not JSON (case loaders then return no
    /// cases, and their suites' size checks report it).
    public static func json(_ relativePath: String) -> JSONNode? {
        guard let bytes = bytes(relativePath), let value = try? JSONParser.parse(bytes) else { return nil }
        return JSONNode(value)
    }

    /// The DuckDuckGo privacy reference tests.
    public static let referenceTests = "privacy-reference-tests"
    /// Tracker Radar domain matching, surrogates and tracker allowlist tests.
    public static let domainMatching = "privacy-reference-tests/tracker-radar-tests/TR-domain-matching"
    /// Request blocklist tests with their configuration, blocklist and user allowlist.
    public static let requestBlocklist = "privacy-reference-tests/request-blocklist"
    /// Privacy configuration feature-state tests.
    public static let privacyConfiguration = "privacy-reference-tests/privacy-configuration"
    /// The Tracker Radar blocklists DuckDuckGo ships for Apple platforms and for its extension.
    public static let realBlocklists = ["tds/apple-tds.json", "tds/extension-tds.json"]
    /// adblock-rust's labelled request URLs (see ``MatchingTestRequest``).
    public static let matchingTestRequests = "requests/matching-test-requests.json"
}

import Foundation

/// Files of the shared data directory next to the package (`../shared/data`), which is not part
/// of the repository. Tests that need it are skipped when it is absent, unless the environment
/// sets `TRACKERLESS_REQUIRE_SHARED_DATA=1`, in which case they run and fail.
enum SharedData {
    /// `<package root>/../shared/data`, found from this file's path (symlinks resolved).
    static let directory: URL = {
        URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
            .deletingLastPathComponent()  // ContentRuleListTests
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()  // package root
            .deletingLastPathComponent()
            .appendingPathComponent("shared/data")
    }()

    static let isRequired = ProcessInfo.processInfo.environment["TRACKERLESS_REQUIRE_SHARED_DATA"] == "1"

    /// The path of a shared file, for example `tds/apple-tds.duckduckgo-rules.json`.
    static func path(_ relativePath: String) -> String {
        directory.appendingPathComponent(relativePath).path
    }

    /// Whether a test needing the file should run: it exists, or it is required (and will fail).
    static func shouldRun(_ relativePath: String) -> Bool {
        isRequired || FileManager.default.fileExists(atPath: path(relativePath))
    }

    /// The file's bytes, or nil when it cannot be read.
    static func bytes(_ relativePath: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path(relativePath)).map { [UInt8]($0) }
    }
}

import Foundation

/// Locates `../shared/data` next to the package root, for tests on real data.
///
/// Tests on shared data are skipped when it is absent, unless the environment variable
/// `TRACKERLESS_REQUIRE_SHARED_DATA=1` is set: then they run and fail.
enum SharedData {
    /// The package root: two directories above this file, symbolic links resolved.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared/data` relative to the package root.
    static let directory: URL = packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared").appendingPathComponent("data")

    static var isRequired: Bool {
        ProcessInfo.processInfo.environment["TRACKERLESS_REQUIRE_SHARED_DATA"] == "1"
    }

    /// The path of `relativePath` under the shared data directory.
    static func path(_ relativePath: String) -> String {
        directory.appendingPathComponent(relativePath).path
    }

    /// Whether a test needing `relativePath` should run (present, or required and so failing).
    static func shouldRun(_ relativePath: String) -> Bool {
        isRequired || FileManager.default.fileExists(atPath: path(relativePath))
    }
}

import Foundation
import Testing

/// The Debian roots with other WebKitGTK versions that `.ci/install-webkit-roots.sh` makes
/// (Tests/WebKitTests/harness/README.md), and the script that runs a command inside one.
enum WebKitRoots {
    /// `$TRACKERLESS_WEBKIT_ROOTS`, or where the script puts them.
    static let directory = URL(fileURLWithPath: ProcessInfo.processInfo.environment["TRACKERLESS_WEBKIT_ROOTS"] ?? "/var/cache/trackerless-webkit-roots")
    /// The versions it makes.
    static let versions = ["2.44", "2.54"]
    /// `in_webkit_root.py` of the root package's harness.
    static let runner = BrowserProcess.packageRoot.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/WebKitTests/harness/in_webkit_root.py")

    /// The root of WebKitGTK `version`.
    static func root(_ version: String) -> URL { directory.appendingPathComponent("webkitgtk-\(version)") }

    /// Whether every root is there, finished (its stamp written), or WebKit is required
    /// (`TRACKERLESS_REQUIRE_WEBKIT=1`: then the tests run and fail).
    static var canRun: Bool {
        ProcessInfo.processInfo.environment["TRACKERLESS_REQUIRE_WEBKIT"] == "1"
            || versions.allSatisfy { FileManager.default.fileExists(atPath: root($0).appendingPathComponent("trackerless-webkit-root").path) }
    }

    static let skipMessage: Comment =
        "needs the WebKitGTK 2.44 and 2.54 roots (.ci/install-webkit-roots.sh, as root; set TRACKERLESS_REQUIRE_WEBKIT=1 to fail instead)"
}

import Foundation
import Testing

/// Which WebKitGTK the real-WebKit tests ran against: the machine's, or that of the Debian root
/// named by `TRACKERLESS_WEBKIT_ROOT` (`.ci/install-webkit-roots.sh`). With
/// `TRACKERLESS_EXPECT_WEBKIT_VERSION=x.y.z` (Scripts/test.sh sets it per root) the harness's
/// WebKit must be exactly that version, so a CI log that claims a WebKit proves it tested it.
@Suite(.enabled(if: WebKitHarness.shouldRun, "WebKitGTK (python3-gi, gir1.2-webkit2-4.1 or -4.0, xvfb) is not installed"))
struct WebKitVersionTests {
    static var expected: String? {
        guard let value = ProcessInfo.processInfo.environment["TRACKERLESS_EXPECT_WEBKIT_VERSION"],
              !value.isEmpty else { return nil }
        return value
    }

    /// Where the harness runs, for messages.
    static var place: String {
        WebKitHarness.webKitRoot.map { "the root \($0) (TRACKERLESS_WEBKIT_ROOT)" } ?? "this machine"
    }

    @Test("The harness reports its WebKitGTK version and GI API")
    func reportsVersion() throws {
        _ = try #require(try WebKitHarness.make(), "WebKitGTK is not installed")
        let version = try WebKitHarness.version()
        #expect(version.major == 2 && version.minor >= 24, "content filters need WebKitGTK 2.24 or later: \(version)")
        #expect(["4.0", "4.1"].contains(version.api), "GI API \(version.api)")
        // Asked once per process: a second call answers the same.
        #expect(try WebKitHarness.version() == version)
    }

    @Test("TRACKERLESS_EXPECT_WEBKIT_VERSION names exactly the harness's WebKitGTK",
          .enabled(if: expected != nil, "TRACKERLESS_EXPECT_WEBKIT_VERSION is not set"))
    func expectedVersion() throws {
        let expected = try #require(Self.expected)
        let parts = expected.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3 && parts.allSatisfy { Int($0) != nil },
                     "TRACKERLESS_EXPECT_WEBKIT_VERSION=\(expected) is not x.y.z")
        _ = try #require(try WebKitHarness.make(), "WebKitGTK is not installed")
        let version = try WebKitHarness.version()
        #expect(version.description == expected,
                "expected WebKitGTK \(expected) in \(Self.place), the harness runs \(version) (WebKit2 \(version.api))")
    }

    @Test("A small list compiles in the harness's WebKitGTK")
    func smallListCompiles() throws {
        let harness = try #require(try WebKitHarness.make(), "WebKitGTK is not installed")
        let list = #"""
            [
              {"trigger": {"url-filter": "^https?://tracker\\.example/", "load-type": ["third-party"]},
               "action": {"type": "block"}},
              {"trigger": {"url-filter": ".*", "resource-type": ["image", "script"], "if-domain": ["*site.example"]},
               "action": {"type": "ignore-previous-rules"}},
              {"trigger": {"url-filter": ".*"}, "action": {"type": "css-display-none", "selector": ".ad"}}
            ]
            """#
        let results = try harness.compile([(id: "small", json: Array(list.utf8))])
        let result = try #require(results["small"])
        let version = try WebKitHarness.version()
        #expect(result.ok, "WebKitGTK \(version) in \(Self.place): \(result.error ?? "")")
        #expect(result.error == nil)
    }
}

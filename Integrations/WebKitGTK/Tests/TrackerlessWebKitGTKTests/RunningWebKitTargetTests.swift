import ContentRuleList
import Foundation
import Testing
import TrackerlessWebKitGTK

/// The repository's README: "the adapters read the running WebKit". `WebKitTarget.runningWebKitGTK`
/// is the target of the WebKitGTK this process links, the release `pkg-config` names for
/// `webkitgtk-6.0` (2.50.6 on the machines that test this package).
@Suite("The running WebKitGTK's target")
struct RunningWebKitTargetTests {
    /// `pkg-config --modversion webkitgtk-6.0`, if pkg-config is there.
    static let installedVersion: String? = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["pkg-config", "--modversion", "webkitgtk-6.0"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return process.terminationStatus == 0 ? text.trimmingCharacters(in: .whitespacesAndNewlines) : nil
    }()

    @Test("runningWebKitGTK is the target of the installed WebKitGTK's release, not the oldest",
          .enabled(if: installedVersion != nil, "pkg-config does not know webkitgtk-6.0"))
    func runningTarget() throws {
        let version = try #require(Self.installedVersion)
        let installed = try #require(WebKitTarget(name: "webkitgtk-" + version), "no target for WebKitGTK \(version)")
        #expect(WebKitTarget.runningWebKitGTK == installed, "WebKitGTK \(version)")
        #expect(WebKitTarget.runningWebKitGTK != .oldest)
    }
}

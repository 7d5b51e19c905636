import Foundation
import Testing
import TrackerlessWebKitGTK

/// What engine mode's switches do in the WebKitGTKs other than this machine's: 2.44 and 2.54, in
/// the Debian roots of `.ci/install-webkit-roots.sh` (Tests/WebKitTests/harness/README.md), through
/// `Tests/Support/engine_features_probe.py` (GI WebKit2, a page at `http://localhost/` and two
/// loopback ports that count the connections they accept). Each root runs the probe twice: with
/// WebKit's defaults, and with ``RequestBlocking/disabledFeatures`` of engine mode off.
@Suite("Engine mode's switches in WebKitGTK 2.44 and 2.54", .serialized, .enabled(if: WebKitRoots.canRun, WebKitRoots.skipMessage))
struct EngineFeaturesInWebKitRootsTests {
    static let versions = WebKitRoots.versions
    static let probe = BrowserProcess.packageRoot.appendingPathComponent("Tests/Support/engine_features_probe.py")

    /// What the probe saw.
    struct Probe: Decodable, Equatable {
        struct Page: Decodable, Equatable {
            var sharedWorker: String
            var serviceWorker: String
            var blocked: String?
            var allowed: String?
        }
        var version: String
        var missing: [String]
        var page: Page?
        var socketConnections: Int
        var hintConnections: Int
    }

    /// The probe in the root of `version`, with `features` off.
    static func probe(_ version: String, turningOff features: [String]) throws -> Probe {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [WebKitRoots.runner.path, WebKitRoots.root(version).path, "/usr/bin/python3", probe.path] + features
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let line = try #require(String(decoding: data, as: UTF8.self).split(separator: "\n").last { $0.hasPrefix("{") },
                                "the probe printed nothing in \(WebKitRoots.root(version).path) (exit \(process.terminationStatus))")
        return try JSONDecoder().decode(Probe.self, from: Data(line.utf8))
    }

    @Test("a content filter of websocket rules alone stops the handshake; engine mode's features exist and turning them off removes SharedWorker, service workers and preconnect", arguments: versions)
    func switches(version: String) throws {
        let features = RequestBlocking.webProcessExtension.disabledFeatures
        let defaults = try Self.probe(version, turningOff: [])
        let off = try Self.probe(version, turningOff: features)
        #expect(defaults.version.hasPrefix(version + ".") && off.version == defaults.version, "\(defaults.version)")
        for run in [defaults, off] {
            // The blocked socket failed without a connection; the allowed one connected.
            #expect(run.page?.blocked == "error" && run.page?.allowed == "ended", "\(version): \(run)")
            #expect(run.socketConnections == 1, "\(version): \(run)")
        }
        #expect(defaults.page?.sharedWorker == "function" && defaults.page?.serviceWorker == "object", "\(version): \(defaults)")
        #expect(off.page?.sharedWorker == "undefined" && off.page?.serviceWorker == "undefined", "\(version): \(off)")
        #expect(off.hintConnections == 0, "\(version): \(off)")
        // dns-prefetch: 2.44 calls its switch DNSPrefetching, 2.54 has none (nor LinkDNSPrefetch,
        // 2.50's): there it cannot be turned off by a feature.
        let missing = version == "2.44" ? ["LinkDNSPrefetch"] : ["LinkDNSPrefetch", "DNSPrefetching"]
        #expect(off.missing == missing, "\(version)")
        // 2.44 opens no preconnect at all (its LinkPreconnect is off by default); 2.54 does.
        #expect(defaults.hintConnections == (version == "2.44" ? 0 : 1), "\(version): \(defaults)")
    }
}

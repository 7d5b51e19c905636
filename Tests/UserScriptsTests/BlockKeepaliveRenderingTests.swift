import Foundation
import Testing
import TrackerDataKit
import TrackerlessCore
import TrackerlessTestSupport
@testable import UserScripts

/// `ScriptSettings.blockKeepalive`: the blocking script decides `sendBeacon` and keepalive
/// `fetch` with the tracker data, so it needs every tracker, as `blockInScript` does.
@Suite("blockKeepalive renders every tracker")
struct BlockKeepaliveRenderingTests {
    @Test("with blockKeepalive the blocking script holds every tracker and says so in its settings; without, the surrogate trackers only")
    func everyTracker() throws {
        let (data, configuration) = try CompactTrackerDataScopeTests.inputs()
        let library = SurrogateLibrary(CompactTrackerDataScopeTests.surrogates)
        func blocking(_ settings: ScriptSettings) throws -> String {
            try ScriptRenderer(settings: settings).render(trackerData: data, privacyConfiguration: configuration, surrogates: library)
                .blocking.source
        }
        let lean = try blocking(ScriptSettings())
        let keepalive = try blocking(ScriptSettings(blockKeepalive: true))
        let all = try blocking(ScriptSettings(blockInScript: true))
        #expect(!lean.contains("other.test"))
        #expect(keepalive.contains("other.test"))
        #expect(keepalive.contains(#""blockKeepalive":true"#))
        #expect(lean.contains(#""blockKeepalive":false"#))
        // The same data as blockInScript's.
        #expect(keepalive.utf8.count == all.utf8.count)
    }
}

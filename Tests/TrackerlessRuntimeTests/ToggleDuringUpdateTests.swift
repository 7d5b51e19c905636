import Foundation
import PrivacyStatsKit
import Testing
import TrackerlessRuntime

/// A site toggle does not wait for an update's build, and the update keeps it.
@Suite("Runtime: toggles do not wait for builds")
struct ToggleDuringUpdateTests {
    /// A blocklist of `count` trackers (`t<i>.example`, each its own company) plus the sample's.
    static func largeTrackerData(_ count: Int) -> [UInt8] {
        var trackers: [String] = []
        var entities: [String] = []
        for index in 0..<count {
            trackers.append(#""t\#(index).example": {"domain": "t\#(index).example", "owner": {"name": "C\#(index)", "displayName": "C\#(index)"}, "default": "block", "rules": [{"rule": "t\#(index)\\.example/ads/"}]}"#)
            entities.append(#""C\#(index)": {"domains": ["t\#(index).example", "c\#(index).example"], "prevalence": 0.1}"#)
        }
        return Array(#"{"trackers": {\#(trackers.joined(separator: ","))}, "entities": {\#(entities.joined(separator: ","))}, "domains": {}}"#.utf8)
    }

    /// A flag set from another thread.
    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var isSet = false
        var value: Bool { lock.withLock { isSet } }
        func set() { lock.withLock { isSet = true } }
    }

    @Test("a toggle made while an update builds returns before the build ends; the new set keeps it")
    func toggleDuringUpdate() async throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let runtime = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory)
        // The update stops once built, before its swap, until the toggle has returned: a toggle
        // that waited for the update would never return (the test would hang, not pass).
        let built = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        runtime.updateDidBuild = {
            built.signal()
            release.wait()
        }
        let large = Self.largeTrackerData(2_000)
        let finished = Flag()
        let update = Task.detached {
            try await runtime.update(trackerData: .bytes(large, name: "large-tds.json"))
            finished.set()
        }
        await Task.detached { built.wait() }.value
        try runtime.setProtection(false, forSite: "news.example")
        #expect(!finished.value, "the toggle returned only after the update")
        #expect(runtime.sitesWithProtectionOff == ["news.example"])
        #expect(runtime.inputs.trackerData.name != "large-tds.json", "the update swapped before it was released")
        release.signal()
        try await update.value
        #expect(finished.value)
        #expect(runtime.inputs.trackerData.name == "large-tds.json")
        #expect(runtime.sitesWithProtectionOff == ["news.example"])
        #expect(!runtime.navigationPlan(for: "https://news.example/").isProtected)
        #expect(runtime.navigationPlan(for: "https://other.example/").isProtected)
    }
}

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
        let large = Self.largeTrackerData(25_000)
        let started = Date()
        let finished = Flag()
        let update = Task.detached {
            try await runtime.update(trackerData: .bytes(large, name: "large-tds.json"))
            finished.set()
        }
        try await Task.sleep(nanoseconds: 300_000_000)
        try runtime.setProtection(false, forSite: "news.example")
        let toggled = Date().timeIntervalSince(started)
        #expect(!finished.value, "the toggle returned only after the update (\(toggled) s)")
        try await update.value
        #expect(Date().timeIntervalSince(started) > toggled)
        #expect(runtime.inputs.trackerData.name == "large-tds.json")
        #expect(runtime.sitesWithProtectionOff == ["news.example"])
        #expect(!runtime.navigationPlan(for: "https://news.example/").isProtected)
    }
}

import Foundation
import Testing
import TrackerlessRuntime
import TrackerlessTestSupport

@Suite("Runtime on apple-tds.json", .enabled(if: SharedData.shouldRun("tds/apple-tds.json"), SharedData.skipMessage))
struct RealBlocklistRuntimeTests {
    @Test("the real blocklist builds one valid set, a relaunch loads it from the cache, and a toggle changes no list")
    func appleTrackerData() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let inputs = ProtectionInputs(trackerData: .file(SharedData.path("tds/apple-tds.json")))
        let built: ProtectionSet
        do {
            let runtime = try ProtectionRuntime(inputs: inputs, cacheDirectory: directory)
            built = runtime.currentSet
            #expect(built.origin == .built)
            #expect(built.ruleLists.first.map { $0.kind == .blocking && $0.ruleCount > 1000 } == true)
            try runtime.setProtection(false, forSite: "www.example.com")
            #expect(runtime.currentSet === built)
            #expect(!runtime.navigationPlan(for: "https://www.example.com/").isProtected)
        }
        let relaunched = try ProtectionRuntime(inputs: inputs, cacheDirectory: directory)
        #expect(relaunched.currentSet.origin == .cache)
        #expect(relaunched.currentSet.ruleLists == built.ruleLists)
        #expect(relaunched.sitesWithProtectionOff == ["example.com"])
    }
}

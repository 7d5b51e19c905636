import ContentRuleList
import Foundation
import Synchronization
import Testing
import TrackerlessRuntime

@Suite("ProtectionRuntime: updates replace the whole set, or nothing")
struct ProtectionRuntimeTests {
    static let pixel = Request(url: "https://pixel.example/p.gif", topURL: "https://news.example/", resourceType: .image)

    @Test("a valid update becomes current in one step, observers hear of it, and the next launch loads it from the cache")
    func validUpdate() async throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let heard = Mutex<[String]>([])
        let before: ProtectionSet
        let after: ProtectionSet
        do {
            let runtime = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory)
            before = runtime.currentSet
            #expect(before.origin == .built)
            #expect(!before.engine.decision(for: Self.pixel).isBlocked)
            runtime.addObserver { set in heard.withLock { $0.append(set.identity) } }

            after = try await runtime.update(trackerData: RuntimeFixture.updatedInputs.trackerData)
            #expect(runtime.currentSet === after)
            #expect(runtime.inputs == RuntimeFixture.updatedInputs)
            #expect(after.identity != before.identity)
            #expect(after.engine.decision(for: Self.pixel).isBlocked)
            #expect(runtime.navigationPlan(for: "https://news.example/").protectionSet === after)
            #expect(after.secret == before.secret)   // one secret per run
            #expect(heard.withLock { $0 } == [after.identity])
        }
        let relaunched = try ProtectionRuntime(inputs: RuntimeFixture.updatedInputs, cacheDirectory: directory)
        #expect(relaunched.currentSet.origin == .cache)
        #expect(relaunched.currentSet.identity == after.identity)
    }

    @Test("a broken tds leaves the current set and throws an error naming the tds, its file and the JSON path")
    func brokenTrackerData() async throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let runtime = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory)
        let before = runtime.currentSet
        let called = Mutex(false)
        runtime.addObserver { _ in called.withLock { $0 = true } }
        let broken = Array(#"{"trackers": {"ads.example": {"domain": "ads.example"}}, "entities": [], "domains": {}}"#.utf8)
        await #expect {
            try await runtime.update(trackerData: .bytes(broken, name: "tds-broken.json"))
        } throws: { error in
            guard let error = error as? ProtectionError else { return false }
            return error.input == .trackerData && error.description.contains("tds-broken.json")
                && error.description.contains("entities")
        }
        #expect(runtime.currentSet === before)
        #expect(runtime.inputs == RuntimeFixture.inputs)
        #expect(!called.withLock { $0 })
        // Cut short: a syntax error with its offset.
        let cut = Array(RuntimeFixture.updatedTrackerDataText.prefix(1000).utf8)
        await #expect {
            try await runtime.update(trackerData: .bytes(cut, name: "tds-cut.json"))
        } throws: { error in
            (error as? ProtectionError)?.input == .trackerData && "\(error)".contains("tds-cut.json")
        }
        #expect(runtime.currentSet === before)
        // A server answering `{}`: no trackers member, refused; blocking stays on.
        await #expect {
            try await runtime.update(trackerData: .bytes(Array("{}".utf8), name: "tds-empty-object.json"))
        } throws: { error in
            (error as? ProtectionError)?.input == .trackerData
                && "\(error)".contains(#"tds-empty-object.json: (root): the member "trackers" is missing"#)
        }
        #expect(runtime.currentSet === before)
        // An empty trackers object is a blocklist that blocks nothing: applied, and said.
        let emptied = try await runtime.update(
            trackerData: .bytes(Array(#"{"trackers": {}, "entities": {}, "domains": {}}"#.utf8), name: "tds-no-trackers.json"))
        #expect(emptied.notes.contains("tds-no-trackers.json: trackers: empty: this blocklist blocks no tracker"), "\(emptied.notes)")
    }

    @Test("a broken privacy configuration leaves the current set and throws an error naming the configuration and the place")
    func brokenConfiguration() async throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let runtime = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory)
        let before = runtime.currentSet
        // The configuration's reader is lenient by field, as DuckDuckGo's; bad JSON is an error.
        let broken = Array(#"{"features": {"contentBlocking": {"state": "enabled",}}}"#.utf8)
        await #expect {
            try await runtime.update(privacyConfiguration: .bytes(broken, name: "config-broken.json"))
        } throws: { error in
            guard let error = error as? ProtectionError else { return false }
            return error.input == .privacyConfiguration && error.description.contains("config-broken.json")
                && error.description.contains("line 1")
        }
        #expect(runtime.currentSet === before)
        // A missing file names its path.
        await #expect {
            try await runtime.update(privacyConfiguration: .file(NSTemporaryDirectory() + "no-such-config.json"))
        } throws: { error in
            (error as? ProtectionError)?.input == .privacyConfiguration && "\(error)".contains("no-such-config.json")
        }
        #expect(runtime.currentSet === before)
        // And a valid update still applies afterwards.
        let after = try await runtime.update(trackerData: .bytes(RuntimeFixture.updatedTrackerData, name: "tds-2.json"))
        #expect(runtime.currentSet === after)
    }
}

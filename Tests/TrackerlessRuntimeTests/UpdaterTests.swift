import Foundation
import Synchronization
import Testing
import TrackerlessRuntime
import TrackerlessTestSupport

@Suite("ProtectionUpdater: conditional downloads, applied whole, nothing rebuilt when nothing is new")
struct UpdaterTests {
    @Test("200 for both inputs: downloaded, checked, the new set swapped in (it blocks pixel.example) and the copies kept with their validators")
    func downloadsAndApplies() async throws {
        let fixture = try UpdaterFixture()
        defer { fixture.remove() }
        let before = fixture.runtime.currentSet
        #expect(!fixture.blocksPixel)

        let report = await fixture.updater.checkNow()
        #expect(report.outcome == .updated, "\(report.jsonValue.jsonString())")
        #expect(report.error == nil)
        #expect(fixture.runtime.currentSet !== before && fixture.blocksPixel)
        #expect(report.setIdentity == fixture.runtime.currentSet.identity)
        let tds = try #require(report.input(.trackerData))
        #expect(tds.status == 200 && tds.result == .downloaded && tds.bytes == RuntimeFixture.updatedTrackerDataText.utf8.count)
        #expect(tds.sha256?.count == 64 && tds.attempts == 1)
        #expect(report.input(.privacyConfiguration)?.result == .downloaded)
        #expect(fixture.runtime.inputs.trackerData.name == fixture.server.url("/tds.json").absoluteString)
        // Kept: the bodies and the validators for the next check.
        let kept = try String(contentsOfFile: fixture.updater.downloadsDirectory + "/tds.json", encoding: .utf8)
        #expect(kept == RuntimeFixture.updatedTrackerDataText)
        let metadata = try #require(fixture.metadata)
        #expect(metadata.contains(#""etag":"\"tds-2\"""#) && metadata.contains("Sun, 29 Nov 2026 10:00:00 GMT"), "\(metadata)")
        // The first requests were unconditional: nothing was kept.
        #expect(fixture.server.requests("/tds.json").first?.ifNoneMatch == nil)
    }

    @Test("304 for every input: the requests carry If-None-Match and If-Modified-Since, nothing is rebuilt (the same set object, no observer called, no build)")
    func notModifiedRebuildsNothing() async throws {
        let fixture = try UpdaterFixture()
        defer { fixture.remove() }
        #expect(await fixture.updater.checkNow().outcome == .updated)
        let applied = fixture.runtime.currentSet
        let observed = Mutex(0)
        fixture.runtime.addObserver { _ in observed.withLock { $0 += 1 } }

        let report = await fixture.updater.checkNow()
        #expect(report.outcome == .unchanged, "\(report.jsonValue.jsonString())")
        #expect(report.inputs.map(\.status) == [304, 304] && report.inputs.allSatisfy { $0.result == .notModified })
        #expect(fixture.runtime.currentSet === applied)
        #expect(report.setIdentity == applied.identity)
        #expect(observed.withLock { $0 } == 0)
        #expect(fixture.server.requests("/tds.json").last?.ifNoneMatch == "\"tds-2\"")
        #expect(fixture.server.requests("/config.json").last?.ifModifiedSince == "Sun, 29 Nov 2026 10:00:00 GMT")
    }

    @Test("a server without validators sending the same bytes again: unchanged, nothing rebuilt")
    func sameBytesRebuildNothing() async throws {
        let fixture = try UpdaterFixture(trackerData: .init(body: RuntimeFixture.updatedTrackerDataText), config: .init(body: RuntimeFixture.configuration))
        defer { fixture.remove() }
        #expect(await fixture.updater.checkNow().outcome == .updated)
        let applied = fixture.runtime.currentSet
        let report = await fixture.updater.checkNow()
        #expect(report.outcome == .unchanged)
        #expect(report.inputs.map(\.status) == [200, 200] && report.inputs.allSatisfy { $0.result == .notModified })
        #expect(fixture.runtime.currentSet === applied)
    }

    @Test("a new blocklist behind a new ETag after a 304: downloaded and applied, the configuration's 304 keeps its copy")
    func laterChange() async throws {
        let fixture = try UpdaterFixture()
        defer { fixture.remove() }
        #expect(await fixture.updater.checkNow().outcome == .updated)
        let first = fixture.runtime.currentSet
        let third = RuntimeFixture.updatedTrackerDataText.replacingOccurrences(of: "\"prevalence\": 0.01", with: "\"prevalence\": 0.02")
        try fixture.server.route("/tds.json", .init(body: third, etag: "\"tds-3\""))
        let report = await fixture.updater.checkNow()
        #expect(report.outcome == .updated)
        #expect(report.input(.trackerData)?.result == .downloaded && report.input(.privacyConfiguration)?.status == 304)
        #expect(fixture.runtime.currentSet !== first && fixture.blocksPixel)
        #expect(fixture.metadata?.contains("tds-3") == true)
        #expect(fixture.runtime.inputs.privacyConfiguration?.name == fixture.server.url("/config.json").absoluteString)
    }

    @Test("only the blocklist from a server: the runtime keeps its own privacy configuration")
    func blocklistOnly() async throws {
        let fixture = try UpdaterFixture(configuration: false)
        defer { fixture.remove() }
        let report = await fixture.updater.checkNow()
        #expect(report.outcome == .updated && report.inputs.count == 1)
        #expect(fixture.runtime.inputs.privacyConfiguration == RuntimeFixture.inputs.privacyConfiguration)
        #expect(fixture.server.requests("/config.json").isEmpty)
    }

    @Test("a pinned SHA-256: the body that has it is applied, any other refused naming both digests")
    func pinnedDigest() async throws {
        let fixture = try UpdaterFixture(configuration: false)
        defer { fixture.remove() }
        let digest = try #require(await fixture.updater.checkNow().input(.trackerData)?.sha256)
        let url = fixture.server.url("/tds.json")

        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let runtime = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory)
        let pinned = try ProtectionUpdater(
            runtime: runtime, sources: UpdateSources(trackerData: RemoteDocument(url: url, sha256: digest.uppercased())),
            policy: UpdaterFixture.policy)
        #expect(await pinned.checkNow().outcome == .updated)

        let wrong = String(repeating: "0", count: 64)
        let other = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: other) }
        let otherRuntime = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: other)
        let before = otherRuntime.currentSet
        let refusing = try ProtectionUpdater(
            runtime: otherRuntime, sources: UpdateSources(trackerData: RemoteDocument(url: url, sha256: wrong)), policy: UpdaterFixture.policy)
        let report = await refusing.checkNow()
        #expect(report.outcome == .refused)
        #expect(report.error?.reason == .checksumMismatch(expected: wrong, actual: digest), "\(String(describing: report.error))")
        #expect(report.error?.description.contains(digest) == true)
        #expect(otherRuntime.currentSet === before)
    }

    @Test("sources that cannot be downloaded are refused when the updater is made, naming the input")
    func invalidSources() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let runtime = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory)
        let good = RemoteDocument(url: URL(string: "https://example.com/tds.json")!)
        #expect {
            try ProtectionUpdater(runtime: runtime, sources: UpdateSources(trackerData: RemoteDocument(url: URL(string: "ftp://example.com/tds.json")!)))
        } throws: { error in
            let error = error as? UpdateError
            return error?.input == .trackerData && error?.description.contains("not an http or https URL") == true
        }
        #expect {
            try ProtectionUpdater(
                runtime: runtime,
                sources: UpdateSources(trackerData: good, privacyConfiguration: RemoteDocument(url: good.url, sha256: "abc")))
        } throws: { error in
            let error = error as? UpdateError
            return error?.input == .privacyConfiguration && error?.description.contains("not 64 hex digits") == true
        }
        var policy = UpdatePolicy()
        policy.timeout = -1
        #expect {
            try ProtectionUpdater(runtime: runtime, sources: UpdateSources(trackerData: good), policy: policy)
        } throws: { error in
            (error as? UpdateError)?.description.contains("timeout") == true
        }
    }

    @Test("the report as JSON names the outcome, the set, each input's status and result, and the next check")
    func reportJSON() async throws {
        let fixture = try UpdaterFixture()
        defer { fixture.remove() }
        let report = await fixture.updater.checkNow()
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.jsonValue.jsonString().utf8)) as? [String: Any])
        #expect(json["outcome"] as? String == "updated")
        #expect(json["setIdentity"] as? String == fixture.runtime.currentSet.identity)
        #expect((json["nextCheckIn"] as? NSNumber)?.doubleValue == UpdaterFixture.policy.interval)
        let inputs = try #require(json["inputs"] as? [[String: Any]])
        #expect(inputs.map { $0["input"] as? String } == ["tds", "privacy configuration"])
        #expect(inputs.map { $0["status"] as? Int } == [200, 200])
        #expect(inputs.map { $0["result"] as? String } == ["downloaded", "downloaded"])
    }

    @Test("a check is not held up by Dispatch's global queue kept busy by the host: it ends while that work still runs")
    func busyGlobalQueue() async throws {
        let fixture = try UpdaterFixture()
        defer { fixture.remove() }
        // Long work on every thread Dispatch's global queue has, each item running until the
        // check ended or two minutes from now, which counts as held up. The check runs on a
        // thread of its own and ends the work itself: on Linux this test's task waits on those
        // same threads.
        let released = Atomic(false)
        let heldUp = Atomic(0)
        let report = Mutex<UpdateReport?>(nil)
        let work = DispatchGroup()
        let limit = Date(timeIntervalSinceNow: 120)
        for _ in 0..<16 {
            DispatchQueue.global().async(group: work) {
                while !released.load(ordering: .acquiring) {
                    if Date() > limit {
                        heldUp.add(1, ordering: .relaxed)
                        return
                    }
                }
            }
        }
        Thread {
            let made = fixture.updater.checkBlocking()
            report.withLock { $0 = made }
            released.store(true, ordering: .releasing)
        }.start()
        await withCheckedContinuation { continuation in work.notify(queue: .global()) { continuation.resume() } }
        while !released.load(ordering: .acquiring) { try await Task.sleep(nanoseconds: 20_000_000) }
        #expect(heldUp.load(ordering: .relaxed) == 0, "the check waited for the busy queue's work to end")
        let made = try #require(report.withLock { $0 })
        #expect(made.outcome == .updated, "\(made.jsonValue.jsonString())")
    }
}

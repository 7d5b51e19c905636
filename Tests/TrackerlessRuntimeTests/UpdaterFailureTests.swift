import Foundation
import Testing
import TrackerlessRuntime
import TrackerlessTestSupport

/// Every way a download fails: the update is refused, the set in force and the kept copies stay,
/// and the report names the input, the URL, the status and why.
@Suite("ProtectionUpdater: a bad answer changes nothing and says which input and why")
struct UpdaterFailureTests {
    /// Checks once with `trackerData` served as the blocklist; expects a refusal of the
    /// blocklist and nothing changed; returns the report and how long the check took.
    private static func refused(
        _ trackerData: LoopbackServer.Route, policy: UpdatePolicy = UpdaterFixture.policy
    ) async throws -> (report: UpdateReport, fixture: UpdaterFixture, seconds: Double) {
        let fixture = try UpdaterFixture(policy: policy, trackerData: trackerData)
        let before = fixture.runtime.currentSet
        let started = Date()
        let report = await fixture.updater.checkNow()
        // Until the report was made, on the check's own thread: when the test resumes depends on
        // Swift's pool, which other tests keep busy on a loaded machine.
        let seconds = report.date.timeIntervalSince(started)
        #expect(report.outcome == .refused, "\(report.jsonValue.jsonString())")
        #expect(report.error?.input == .trackerData && report.error?.url == fixture.server.url("/tds.json").absoluteString)
        #expect(report.input(.trackerData)?.result == .failed)
        #expect(fixture.runtime.currentSet === before && !fixture.blocksPixel)
        #expect(fixture.keepsNoCopy, "nothing may be kept from a refused check")
        #expect(abs(report.nextCheck.timeIntervalSince(report.date) - policy.retryInterval) < 0.001)
        return (report, fixture, seconds)
    }

    @Test("404: refused at once, not tried again; the message names the input, the URL and the status")
    func notFound() async throws {
        let policy = UpdaterFixture.policy { $0.attempts = 3 }
        let (report, fixture, _) = try await Self.refused(.init(status: 404, body: "not here"), policy: policy)
        defer { fixture.remove() }
        #expect(report.error?.status == 404 && report.error?.reason == .httpStatus(404))
        #expect(report.error?.description == "tds (\(fixture.server.url("/tds.json").absoluteString)): HTTP status 404; only 200 and 304 are accepted")
        #expect(fixture.server.requests("/tds.json").count == 1)
    }

    @Test("500: tried as often as the policy says, then refused")
    func serverError() async throws {
        let policy = UpdaterFixture.policy { $0.attempts = 3 }
        let (report, fixture, _) = try await Self.refused(.init(status: 500, body: "oops"), policy: policy)
        defer { fixture.remove() }
        #expect(report.error?.reason == .httpStatus(500))
        #expect(report.input(.trackerData)?.attempts == 3)
        #expect(fixture.server.requests("/tds.json").count == 3)
    }

    @Test("500 then 200: the retry succeeds within the same check")
    func retrySucceeds() async throws {
        let policy = UpdaterFixture.policy { $0.attempts = 3; $0.retryDelay = 0.5 }
        let fixture = try UpdaterFixture(policy: policy, trackerData: nil)
        defer { fixture.remove() }
        try fixture.server.route("/tds.json", sequence: [.init(status: 503), UpdaterFixture.updatedTrackerData])
        let report = await fixture.updater.checkNow()
        #expect(report.outcome == .updated, "\(report.jsonValue.jsonString())")
        #expect(report.input(.trackerData)?.attempts == 2)
        #expect(fixture.server.requests("/tds.json").map(\.status) == [503, 200])
    }

    @Test("a server that does not answer within the timeout: refused at the timeout, long before the answer")
    func timeout() async throws {
        let policy = UpdaterFixture.policy { $0.timeout = 0.5 }
        let (report, fixture, seconds) = try await Self.refused(.init(body: RuntimeFixture.updatedTrackerDataText, delay: 120), policy: policy)
        defer { fixture.remove() }
        #expect(report.error?.reason == .timedOut(seconds: 0.5))
        #expect(seconds < 60, "ended by the timeout, not by the answer (120 s)")
        #expect(report.error?.description.contains("within 0.5 s") == true)
    }

    @Test("a body cut short of its Content-Length: refused as truncated, with both sizes")
    func truncated() async throws {
        let body = RuntimeFixture.updatedTrackerDataText
        let count = body.utf8.count
        let (report, fixture, _) = try await Self.refused(.init(body: body, contentLength: count + 100))
        defer { fixture.remove() }
        #expect(report.error?.reason == .truncated(expected: count + 100, received: count), "\(String(describing: report.error))")
    }

    @Test("a body that is not JSON: refused, the JSON error in the message")
    func notJSON() async throws {
        let (report, fixture, _) = try await Self.refused(.init(body: "<html><body>Service unavailable</body></html>"))
        defer { fixture.remove() }
        guard case .invalidBody(let message)? = report.error?.reason else {
            Issue.record("not an invalid body: \(String(describing: report.error))")
            return
        }
        #expect(message.lowercased().contains("json") || message.contains("expected"), "\(message)")
    }

    @Test("a blocklist that decodes but has no trackers member, or an empty one: refused")
    func noTrackers() async throws {
        let (missing, first, _) = try await Self.refused(.init(body: #"{"entities": {}, "domains": {}}"#))
        defer { first.remove() }
        #expect(missing.error?.description.contains("\"trackers\" is missing") == true, "\(String(describing: missing.error))")
        let (empty, second, _) = try await Self.refused(.init(body: #"{"trackers": {}, "entities": {}, "domains": {}}"#))
        defer { second.remove() }
        #expect(empty.error?.description.contains("block nothing") == true, "\(String(describing: empty.error))")
    }

    @Test("a Content-Length over the cap: refused before the body is read")
    func oversizedDeclared() async throws {
        let policy = UpdaterFixture.policy { $0.maxBytes = 1000 }
        let body = RuntimeFixture.updatedTrackerDataText
        let (report, fixture, _) = try await Self.refused(.init(body: body), policy: policy)
        defer { fixture.remove() }
        #expect(report.error?.reason == .tooLarge(limit: 1000, declared: body.utf8.count))
    }

    @Test("a body without Content-Length that grows past the cap: refused while it is read, the transfer stopped long before its end")
    func oversizedStream() async throws {
        let policy = UpdaterFixture.policy { $0.maxBytes = 256 << 10; $0.timeout = 60 }
        // 128 MB over 20 s.
        let chunks = (chunk: 64 << 10, count: 2000, interval: 0.01)
        let (report, fixture, _) = try await Self.refused(.init(stream: chunks), policy: policy)
        defer { fixture.remove() }
        #expect(report.error?.reason == .tooLarge(limit: 256 << 10, declared: nil))
        let served = try #require(await fixture.server.waitForRequests("/tds.json", count: 1).first)
        #expect(!served.complete && served.sent < chunks.chunk * chunks.count / 2, "sent \(served.sent) bytes")
    }

    @Test("nothing listening: refused as unreachable, with the system's message")
    func unreachable() async throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let runtime = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory)
        let before = runtime.currentSet
        // A port that was free a moment ago: the server is gone.
        let url = try { () throws -> URL in
            let server = try LoopbackServer()
            return server.url("/tds.json")
        }()
        let updater = try ProtectionUpdater(runtime: runtime, sources: UpdateSources(trackerData: RemoteDocument(url: url)), policy: UpdaterFixture.policy)
        let report = await updater.checkNow()
        #expect(report.outcome == .refused)
        guard case .unreachable(let message)? = report.error?.reason else {
            Issue.record("not unreachable: \(String(describing: report.error))")
            return
        }
        #expect(!message.isEmpty && report.error?.status == nil)
        #expect(runtime.currentSet === before)
    }

    @Test("one input good and the other bad: nothing changes, not even the good one's copy or validators")
    func oneBadInput() async throws {
        let fixture = try UpdaterFixture(config: .init(status: 500))
        defer { fixture.remove() }
        let before = fixture.runtime.currentSet
        let report = await fixture.updater.checkNow()
        #expect(report.outcome == .refused)
        #expect(report.error?.input == .privacyConfiguration && report.error?.status == 500)
        #expect(report.input(.trackerData)?.result == .downloaded && report.input(.privacyConfiguration)?.result == .failed)
        #expect(fixture.runtime.currentSet === before && !fixture.blocksPixel)
        #expect(fixture.keepsNoCopy)

        // Fixed: both apply, and the blocklist was asked for unconditionally (nothing kept).
        try fixture.server.route("/config.json", UpdaterFixture.configuration)
        #expect(await fixture.updater.checkNow().outcome == .updated)
        #expect(fixture.blocksPixel)
        #expect(fixture.server.requests("/tds.json").map(\.ifNoneMatch) == [nil, nil])
    }

    @Test("a bad answer after a good update: the updated set and its copies stay")
    func badAfterGood() async throws {
        let fixture = try UpdaterFixture()
        defer { fixture.remove() }
        #expect(await fixture.updater.checkNow().outcome == .updated)
        let applied = fixture.runtime.currentSet
        let store = DownloadStore(directory: fixture.updater.downloadsDirectory)
        let kept = store.read(for: fixture.sources)
        try fixture.server.route("/tds.json", .init(body: "{\"trackers\": 5}"))
        let report = await fixture.updater.checkNow()
        #expect(report.outcome == .refused && report.error?.input == .trackerData)
        // The copies and their validators as they were; only the time of the refusal is new.
        let after = store.read(for: fixture.sources)
        #expect(fixture.runtime.currentSet === applied && after.entries == kept.entries && after.checked == kept.checked)
        #expect(after.failed.map { abs($0.timeIntervalSince(report.date)) < 2 } == true)
    }
}

import Foundation
import Testing
import TrackerDataKit
import TrackerlessRuntime
import TrackerlessTestSupport

/// The host's embedded copies are the fallback: a launch takes the kept downloads only when they
/// are whole, match their sources and make a set; a damaged `downloads.json` means unconditional
/// requests, never a crash.
@Suite("ProtectionUpdater: kept copies at launch, the embedded ones as the fallback")
struct UpdaterLaunchTests {
    /// The embedded blocklist's name (``ProtectionInputs/sample``).
    static let embeddedName = ProtectionInputs.sample.trackerData.name

    @Test("a relaunch takes the kept copies and loads their set from the cache, nothing built")
    func relaunchTakesKeptCopies() async throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let identity: String
        let sources: UpdateSources
        let server: LoopbackServer
        do {
            let fixture = try UpdaterFixture(directory: directory)
            #expect(await fixture.updater.checkNow().outcome == .updated)
            identity = fixture.runtime.currentSet.identity
            sources = fixture.sources
            server = fixture.server
        }
        let relaunched = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory, downloadedFrom: sources)
        #expect(relaunched.currentSet.identity == identity)
        #expect(relaunched.currentSet.origin == .cache)
        #expect(relaunched.inputs.trackerData.name == sources.trackerData.url.absoluteString)

        // The kept copies are what the runtime runs: a 304 for both is unchanged, nothing rebuilt.
        let updater = try ProtectionUpdater(runtime: relaunched, sources: sources, policy: UpdaterFixture.policy)
        let set = relaunched.currentSet
        let report = await updater.checkNow()
        #expect(report.outcome == .unchanged && report.inputs.map(\.status) == [304, 304])
        #expect(relaunched.currentSet === set)
        _ = server
    }

    @Test("first launch offline: the embedded copies protect, the refused check changes nothing, a later check updates")
    func firstLaunchOffline() async throws {
        let fixture = try UpdaterFixture(trackerData: nil, config: nil)
        defer { fixture.remove() }
        #expect(fixture.runtime.inputs.trackerData.name == Self.embeddedName)
        let embedded = fixture.runtime.currentSet
        #expect(embedded.engine.decision(for: .init(url: "https://social.example/w.js", topURL: "https://news.example/", resourceType: .script)).isBlocked)
        let report = await fixture.updater.checkNow()
        #expect(report.outcome == .refused && report.error?.status == 404)
        #expect(fixture.runtime.currentSet === embedded)

        try fixture.server.route("/tds.json", UpdaterFixture.updatedTrackerData)
        try fixture.server.route("/config.json", UpdaterFixture.configuration)
        #expect(await fixture.updater.checkNow().outcome == .updated)
        #expect(fixture.blocksPixel)
    }

    @Test("a kept body damaged on disk, a downloads.json that is not JSON or has wrong members: no copy is trusted, the launch takes the embedded copies and the next check asks unconditionally")
    func damagedStore() async throws {
        let damages: [(String, (String) throws -> Void)] = [
            ("a cut body", { downloads in
                let body = try Data(contentsOf: URL(fileURLWithPath: downloads + "/tds.json"))
                try body.prefix(body.count / 2).write(to: URL(fileURLWithPath: downloads + "/tds.json"))
            }),
            ("an altered body", { downloads in
                let text = try String(contentsOfFile: downloads + "/privacy-config.json", encoding: .utf8)
                try Data(text.replacingOccurrences(of: "enabled", with: "disabled").utf8).write(to: URL(fileURLWithPath: downloads + "/privacy-config.json"))
            }),
            ("downloads.json not JSON", { downloads in try Data("{\"format\": 1, \"inp".utf8).write(to: URL(fileURLWithPath: downloads + "/downloads.json")) }),
            ("downloads.json with wrong members", { downloads in
                try Data(#"{"format": 1, "inputs": {"tds": {"url": 5, "bytes": -1}}}"#.utf8).write(to: URL(fileURLWithPath: downloads + "/downloads.json"))
            }),
            ("a body removed", { downloads in try FileManager.default.removeItem(atPath: downloads + "/tds.json") }),
        ]
        for (name, damage) in damages {
            let directory = try RuntimeFixture.directory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let sources: UpdateSources
            let server: LoopbackServer
            do {
                let fixture = try UpdaterFixture(directory: directory)
                #expect(await fixture.updater.checkNow().outcome == .updated, "\(name)")
                sources = fixture.sources
                server = fixture.server
                try damage(fixture.updater.downloadsDirectory)
            }
            let relaunched = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory, downloadedFrom: sources)
            #expect(relaunched.inputs == RuntimeFixture.inputs, "\(name): the embedded copies")
            let updater = try ProtectionUpdater(runtime: relaunched, sources: sources, policy: UpdaterFixture.policy)
            let report = await updater.checkNow()
            #expect(report.outcome == .updated && report.inputs.map(\.status) == [200, 200], "\(name): \(report.jsonValue.jsonString())")
            #expect(server.requests("/tds.json").last?.ifNoneMatch == nil, "\(name): asked with validators")
            #expect(server.requests("/config.json").last?.ifModifiedSince == nil, "\(name): asked with validators")
            // Kept whole again: the next check is conditional.
            #expect(await updater.checkNow().outcome == .unchanged, "\(name)")
        }
    }

    @Test("kept copies of another URL are not taken: the host changed its source")
    func otherSource() async throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server: LoopbackServer
        do {
            let fixture = try UpdaterFixture(directory: directory)
            #expect(await fixture.updater.checkNow().outcome == .updated)
            server = fixture.server
        }
        let moved = UpdateSources(trackerData: RemoteDocument(url: server.url("/v2/tds.json")))
        let relaunched = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory, downloadedFrom: moved)
        #expect(relaunched.inputs == RuntimeFixture.inputs)
    }

    @Test("kept copies that make no set (a blocklist this version refuses): the launch takes the embedded copies and forgets them")
    func keptCopiesRefused() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let url = "http://127.0.0.1:9/tds.json"
        let store = DownloadStore(directory: directory + "/downloads")
        let refusedBody = Array(#"{"trackers": {"x.example": {"domain": "x.example", "default": "block"}}, "entities": [], "domains": {}}"#.utf8)
        try store.write(.init(entries: [.trackerData: .init(url: url, etag: "\"1\"", lastModified: nil, body: refusedBody)]), changed: [.trackerData])
        let sources = UpdateSources(trackerData: RemoteDocument(url: URL(string: url)!))
        #expect(store.read(for: sources).entries.count == 1)

        let runtime = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory, downloadedFrom: sources)
        #expect(runtime.inputs == RuntimeFixture.inputs)
        #expect(store.read(for: sources).entries.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: store.metadataPath))
    }

    @Test("a check of an earlier run within the interval counts: the next check is due an interval after it")
    func nextCheckAcrossLaunches() async throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let policy = UpdaterFixture.policy { $0.interval = 600 }
        let sources: UpdateSources
        let checked: Date
        let server: LoopbackServer
        do {
            let fixture = try UpdaterFixture(policy: policy, directory: directory)
            #expect(fixture.updater.nextCheck <= Date())
            checked = await fixture.updater.checkNow().date
            sources = fixture.sources
            server = fixture.server
        }
        let runtime = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory, downloadedFrom: sources)
        let updater = try ProtectionUpdater(runtime: runtime, sources: sources, policy: policy)
        #expect(abs(updater.nextCheck.timeIntervalSince(checked) - 600) < 2)
        _ = server
    }

    @Test("a refused check of an earlier run counts too: the relaunch asks again a retry interval after it, and a valid check after that clears it")
    func failedCheckAcrossLaunches() async throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let policy = UpdaterFixture.policy { $0.interval = 600; $0.retryInterval = 900 }
        let server = try LoopbackServer()
        try server.route("/tds.json", .init(status: 500, body: "down"))
        try server.route("/config.json", UpdaterFixture.configuration)
        let sources = UpdaterFixture.sources(server)
        /// A launch: a runtime on the cache and an updater; both let go at the end of `body`.
        func launch<T>(_ sources: UpdateSources = sources, _ body: (ProtectionUpdater) async throws -> T) async throws -> T {
            let runtime = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: directory, downloadedFrom: sources)
            return try await body(try ProtectionUpdater(runtime: runtime, sources: sources, policy: policy))
        }
        let refused = try await launch { await $0.checkNow() }
        #expect(refused.outcome == .refused && refused.storageError == nil, "\(refused.jsonValue.jsonString())")
        #expect(abs(try await launch { $0.nextCheck }.timeIntervalSince(refused.date) - 900) < 2)
        // A refusal of other sources is not theirs: an updater of another blocklist URL is due at once.
        #expect(try await launch(UpdaterFixture.sources(server, tdsPath: "/other.json")) { $0.nextCheck } <= Date())

        try server.route("/tds.json", UpdaterFixture.updatedTrackerData)
        let updated = try await launch { await $0.checkNow() }
        #expect(updated.outcome == .updated, "\(updated.jsonValue.jsonString())")
        #expect(abs(try await launch { $0.nextCheck }.timeIntervalSince(updated.date) - 600) < 2)
    }
}

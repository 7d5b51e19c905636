import ContentRuleList
import Foundation
import TrackerDataKit
import TrackerlessRuntime
import TrackerlessTestSupport

/// A runtime on the sample blocklist (its "embedded" copy), a loopback server serving
/// `/tds.json` and `/config.json`, and an updater between them with a policy fast enough for
/// tests.
struct UpdaterFixture {
    let server: LoopbackServer
    let directory: String
    let runtime: ProtectionRuntime
    let updater: ProtectionUpdater

    /// A request that only the updated blocklist (``RuntimeFixture/updatedTrackerDataText``) blocks.
    static let pixel = Request(url: "https://pixel.example/p.gif", topURL: "https://news.example/", resourceType: .image)

    /// One try; a timeout no answer on loopback reaches, even on a machine busy with other builds
    /// (the tests of the timeout set their own).
    static var policy: UpdatePolicy {
        var policy = UpdatePolicy()
        policy.attempts = 1
        policy.retryDelay = 0.05
        policy.timeout = 60
        return policy
    }

    /// ``policy`` changed by `change`.
    static func policy(_ change: (inout UpdatePolicy) -> Void) -> UpdatePolicy {
        var changed = policy
        change(&changed)
        return changed
    }

    /// The updated blocklist with an ETag, the configuration with a Last-Modified.
    static let updatedTrackerData = LoopbackServer.Route(body: RuntimeFixture.updatedTrackerDataText, etag: "\"tds-2\"")
    static let configuration = LoopbackServer.Route(body: RuntimeFixture.configuration, lastModified: "Sun, 29 Nov 2026 10:00:00 GMT")

    init(
        policy: UpdatePolicy = Self.policy, configuration: Bool = true, trackerData: LoopbackServer.Route? = Self.updatedTrackerData,
        config: LoopbackServer.Route? = Self.configuration, directory: String? = nil
    ) throws {
        server = try LoopbackServer()
        if let trackerData { try server.route("/tds.json", trackerData) }
        if let config { try server.route("/config.json", config) }
        self.directory = try directory ?? RuntimeFixture.directory()
        let sources = Self.sources(server, configuration: configuration)
        runtime = try ProtectionRuntime(inputs: RuntimeFixture.inputs, cacheDirectory: self.directory, downloadedFrom: sources)
        updater = try ProtectionUpdater(runtime: runtime, sources: sources, policy: policy)
    }

    static func sources(_ server: LoopbackServer, configuration: Bool = true, tdsPath: String = "/tds.json") -> UpdateSources {
        UpdateSources(
            trackerData: RemoteDocument(url: server.url(tdsPath)),
            privacyConfiguration: configuration ? RemoteDocument(url: server.url("/config.json")) : nil)
    }

    var sources: UpdateSources { updater.sources }

    /// Whether the set in force blocks ``pixel``: the updated blocklist is in force.
    var blocksPixel: Bool { runtime.currentSet.engine.decision(for: Self.pixel).isBlocked }

    /// The kept `downloads.json`, or nil.
    var metadata: String? { try? String(contentsOfFile: updater.downloadsDirectory + "/downloads.json", encoding: .utf8) }

    /// Whether no copy is kept: no body, and `downloads.json`, when there is one (it records the
    /// time of a refused check), records none.
    var keepsNoCopy: Bool {
        let directory = updater.downloadsDirectory
        return DownloadStore(directory: directory).read(for: sources).entries.isEmpty
            && !FileManager.default.fileExists(atPath: directory + "/" + DownloadStore.fileName(of: .trackerData))
            && !FileManager.default.fileExists(atPath: directory + "/" + DownloadStore.fileName(of: .privacyConfiguration))
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }
}

extension UpdateReport {
    /// The report of `input`.
    func input(_ input: ProtectionInput) -> UpdateReport.Input? { inputs.first { $0.input == input } }
}

import Foundation
import FuzzSupport
import TrackerDataKit
import TrackerlessRuntime

/// `downloads.json`, the record of the copies an updater kept in `<cache>/downloads`, read when
/// an updater is made (and at a launch from downloads). The input is the record; the kept
/// blocklist beside it is the sample's.
///
/// Invariants: reading never traps; whatever the record says, the next check is due within the
/// policy's longest interval from now (a damaged or future time postpones nothing longer).
@_cdecl("LLVMFuzzerTestOneInput")
public func downloadsFuzzer(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = FuzzInput.bytes(start, count)
    let record = DownloadsFixture.shared.downloads + "/downloads.json"
    guard FileManager.default.createFile(atPath: record, contents: Data(bytes)) else {
        require(false, "cannot write \(record)")
        return 0
    }
    let policy = UpdatePolicy()
    let updater: ProtectionUpdater
    do {
        updater = try ProtectionUpdater(runtime: DownloadsFixture.shared.runtime, sources: DownloadsFixture.sources, policy: policy)
    } catch {
        require(false, "the sources are valid: \(error)")
        return 0
    }
    let latest = Date().addingTimeInterval(max(policy.interval, policy.retryInterval) + 60)
    require(updater.nextCheck <= latest, "a record postponed the next check to \(updater.nextCheck)")
    return 0
}

/// A runtime on the sample in a cache of its own, made once; its downloads directory holds the
/// sample blocklist as the kept copy of ``sources``.
final class DownloadsFixture: Sendable {
    static let shared = DownloadsFixture()
    static let sources = UpdateSources(trackerData: RemoteDocument(url: URL(string: "https://example.com/tds.json")!))

    let runtime: ProtectionRuntime
    let downloads: String

    private init() {
        let cache = NSTemporaryDirectory() + "downloads-fuzzer-\(getpid())"
        downloads = cache + "/downloads"
        do {
            try FileManager.default.createDirectory(atPath: downloads, withIntermediateDirectories: true)
            runtime = try ProtectionRuntime(inputs: .sample, cacheDirectory: cache)
        } catch {
            fatalError("the sample runtime: \(error)")
        }
        let body = Data(TrackerData.sampleDocument.utf8)
        FileManager.default.createFile(atPath: downloads + "/tds.json", contents: body)
    }
}

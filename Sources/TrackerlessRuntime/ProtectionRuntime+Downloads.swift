import Dispatch
public import PrivacyStatsKit
public import TrackerlessCore
public import UserScripts

extension ProtectionRuntime {
    /// Loads with the copies a ``ProtectionUpdater`` kept in `cacheDirectory` from `sources` when
    /// they are whole and make a valid set, with `inputs` (the host's embedded copies) otherwise.
    ///
    /// A kept copy counts only for the source it came from (same URL, the pinned SHA-256 if
    /// any); the other inputs are `inputs`' own. When the kept copies do not make a set (a
    /// blocklist this version refuses), they are forgotten, so the next check downloads
    /// unconditionally, and the set is made from `inputs`.
    ///
    /// - Throws: ``ProtectionError`` as ``init(inputs:cacheDirectory:statsLimits:secret:)``, about
    ///   `inputs` (or about the cache directory, whichever copies were used).
    public convenience init(
        inputs: ProtectionInputs, cacheDirectory: String, downloadedFrom sources: UpdateSources,
        statsLimits: PrivacyStats.Limits = .default, secret: ScriptSecret = .random()
    ) throws(ProtectionError) {
        let store = DownloadStore(directory: Self.downloadsDirectory(in: cacheDirectory))
        let kept = store.read(for: sources)
        var forgetting = false
        if !kept.entries.isEmpty {
            do throws(ProtectionError) {
                try self.init(inputs: kept.applied(to: inputs), cacheDirectory: cacheDirectory, statsLimits: statsLimits, secret: secret)
                return
            } catch {
                // The cache directory fails the embedded copies as well.
                if case .unwritable = error { throw error }
                forgetting = true
            }
        }
        try self.init(inputs: inputs, cacheDirectory: cacheDirectory, statsLimits: statsLimits, secret: secret)
        // Under the runtime's lock of the directory now.
        if forgetting { store.discard() }
    }

    /// The directory where a ``ProtectionUpdater`` keeps the downloads of a runtime on `cacheDirectory`.
    static func downloadsDirectory(in cacheDirectory: String) -> String { cacheDirectory + "/downloads" }

    /// ``update(trackerData:privacyConfiguration:)``, waiting on the calling thread (one outside
    /// Swift's concurrency pool, which does the build).
    func updateWaiting(trackerData: InputDocument?, privacyConfiguration: InputDocument?) throws(ProtectionError) -> ProtectionSet {
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        // Weak, and let go before the signal: the caller holds the runtime meanwhile, and a
        // host that drops it after the check finds its cache directory free at once.
        Task.detached(priority: .utility) { [weak self] in
            let result = await self?.updateResult(trackerData: trackerData, privacyConfiguration: privacyConfiguration)
            outcome.value = result
            done.signal()
        }
        done.wait()
        // Set before the signal.
        return try outcome.value!.get()
    }

    private func updateResult(trackerData: InputDocument?, privacyConfiguration: InputDocument?) async -> Result<ProtectionSet, ProtectionError> {
        do throws(ProtectionError) {
            return .success(try await update(trackerData: trackerData, privacyConfiguration: privacyConfiguration))
        } catch {
            return .failure(error)
        }
    }

    /// The result of a detached update, written before the waiting thread reads it.
    private final class Outcome: @unchecked Sendable {
        var value: Result<ProtectionSet, ProtectionError>?
    }
}

public import Foundation
import TrackerlessCore

/// Keeps a ``ProtectionRuntime`` current from ``UpdateSources``: conditional downloads, every
/// input downloaded and valid before anything changes, nothing rebuilt when nothing is new, on
/// a schedule or when the host asks, and a report of each check.
///
/// ```swift
/// let sources = UpdateSources(trackerData: RemoteDocument(url: tdsURL), privacyConfiguration: RemoteDocument(url: configURL))
/// // The copies downloaded at an earlier run when they are whole, else the app's embedded ones.
/// let runtime = try ProtectionRuntime(inputs: embedded, cacheDirectory: cache, downloadedFrom: sources)
/// let updater = try ProtectionUpdater(runtime: runtime, sources: sources)
/// updater.start { report in log(report.outcome, report.error) }   // every 30 min, an hour after a refusal
/// let report = await updater.checkNow()                              // or when the host decides
/// ```
///
/// ## A check
/// 1. The kept copies are read from ``downloadsDirectory`` (`downloads.json` records them): whole, or
///    none at all, so that a damaged `downloads.json` means unconditional requests.
/// 2. Every source is downloaded at once, each with `If-None-Match` / `If-Modified-Since` from its
///    kept copy, within ``UpdatePolicy/timeout``, ``UpdatePolicy/maxBytes`` (refused while
///    reading) and the redirect limits, tried again while it fails in a way that may pass.
/// 3. Each body must have its source's pinned SHA-256 and decode as its input; a blocklist must
///    list trackers.
/// 4. One input failing refuses the check: nothing changes (neither the set nor the kept copies
///    nor their validators) and the report names the input, the URL, the status and why.
/// 5. When the runtime already runs these bytes (304s, or the same bytes again), nothing is
///    rebuilt; the report says unchanged. Otherwise the runtime builds the new set
///    (``ProtectionRuntime/update(trackerData:privacyConfiguration:)``), swaps it in when valid,
///    and then the copies are kept.
///
/// The runtime's other inputs stay as they are. Checks run one at a time; use one updater per
/// runtime. A host that brings its own networking hands the runtime bytes with
/// ``ProtectionRuntime/update(trackerData:privacyConfiguration:)`` instead.
///
/// ## Fallback
/// The host's embedded copies are the inputs it gives the runtime. The runtime keeps its set
/// whenever a check is refused (offline at first launch, a body that does not decode), and
/// ``ProtectionRuntime/init(inputs:cacheDirectory:downloadedFrom:statsLimits:secret:)`` takes
/// the kept copies at launch only when they are whole and build, the embedded ones otherwise.
public final class ProtectionUpdater: @unchecked Sendable {
    /// The runtime kept current.
    public let runtime: ProtectionRuntime
    /// Where the inputs come from.
    public let sources: UpdateSources
    /// When checks run and what a download may cost.
    public let policy: UpdatePolicy

    let store: DownloadStore
    private let downloader: InputDownloader
    /// Held for a whole check: checks run one at a time.
    private let checkLock = NSLock()
    /// Guards the fields below.
    private let lock = NSLock()
    private var last: UpdateReport?
    private var next: Date
    /// The check in progress, for ``stop()``.
    private var running: UpdateCancellation?
    private var schedule: Task<Void, Never>?

    /// An updater of `runtime` from `sources`; no check runs until ``start(onReport:)`` or
    /// ``checkNow()``.
    ///
    /// - Throws: ``UpdateError`` with ``UpdateError/Reason/invalidSource(_:)`` naming the input
    ///   when a source is not an http or https URL or its SHA-256 is not 64 hex digits, or the
    ///   policy has a setting it cannot use.
    public init(runtime: ProtectionRuntime, sources: UpdateSources, policy: UpdatePolicy = .default) throws(UpdateError) {
        downloader = try InputDownloader(sources: sources, policy: policy)
        self.runtime = runtime
        self.sources = sources
        self.policy = policy
        store = DownloadStore(directory: ProtectionRuntime.downloadsDirectory(in: runtime.cacheDirectory))
        store.removeStaleTemporaries()
        // A check of an earlier run counts: a valid one for an interval, a refused one for a
        // retry interval (a host relaunched often does not ask a failing server at every launch).
        next = store.read(for: sources).nextCheck(by: policy)
    }

    deinit {
        schedule?.cancel()
    }

    /// Where the downloads are kept: `downloads` in the runtime's cache directory.
    public var downloadsDirectory: String { store.directory }

    /// The last check's report; nil before the first.
    public var lastReport: UpdateReport? { withLock { last } }

    /// When the schedule runs the next check (now or past when one is due).
    public var nextCheck: Date { withLock { next } }

    // MARK: - Checking

    /// Checks the sources now and applies what is new (see "A check"); returns the report. Waits
    /// for a check in progress first. Cancelling the calling task stops the check (refused,
    /// ``UpdateError/Reason/cancelled``).
    public func checkNow() async -> UpdateReport {
        let cancellation = UpdateCancellation()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // A thread of its own: the check waits (downloads, retries, the build), and a
                // wait on one of Dispatch's few global threads or Swift's pool holds up the
                // host's other work. Weak, and let go before the caller resumes: a host that
                // drops the runtime after the check finds its cache directory free at once.
                let thread = Thread { [weak self] in
                    let report = self?.check(cancellation)
                    continuation.resume(returning: report ?? UpdateReport(.refused, [], error: .cancelledCheck, policy: .default))
                }
                thread.name = "Trackerless update check"
                thread.qualityOfService = .utility
                thread.start()
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// ``checkNow()`` on the calling thread, waiting for the downloads and the build: for the C
    /// API and tools, never for a thread of Swift's concurrency pool.
    package func checkBlocking() -> UpdateReport {
        check(UpdateCancellation())
    }

    private func check(_ cancellation: UpdateCancellation) -> UpdateReport {
        checkLock.lock()
        defer { checkLock.unlock() }
        withLock { running = cancellation }
        defer { withLock { running = nil } }
        let round = cancellation.isCancelled
            ? nil : downloader.download(kept: store.read(for: sources), cancellation: cancellation)
        let report = apply(round, cancelled: cancellation.isCancelled)
        withLock {
            last = report
            // A stopped check says nothing about the sources: the schedule keeps its time.
            if report.error?.reason != .cancelled { next = report.nextCheck }
        }
        return report
    }

    /// Applies a round without a failure: the new set swapped in, then the copies kept.
    private func apply(_ round: InputDownloader.Round?, cancelled: Bool) -> UpdateReport {
        guard let round, !cancelled else {
            return report(.refused, round?.inputs ?? [], error: .cancelledCheck)
        }
        if let failure = round.failure { return report(.refused, round.inputs, error: failure, storageError: keepFailure()) }
        let contents = round.contents
        let inputs = runtime.inputs
        if contents.applied(to: inputs) == inputs {
            // The runtime runs these very bytes: nothing rebuilt. The validators may be new, a
            // damaged copy is written again, and the time of the check counts.
            return report(.unchanged, round.inputs, storageError: keep(contents, changed: round.changed))
        }
        do throws(ProtectionError) {
            _ = try runtime.updateWaiting(
                trackerData: contents.entries[.trackerData]?.document,
                privacyConfiguration: contents.entries[.privacyConfiguration]?.document)
        } catch {
            return report(
                .refused, round.inputs, error: UpdateError(input: error.input, url: nil, reason: .rejected(error)),
                storageError: keepFailure())
        }
        return report(.updated, round.inputs, storageError: keep(contents, changed: round.changed))
    }

    /// Writes the copies, checked now; the error when they could not be kept.
    private func keep(_ contents: DownloadStore.Contents, changed: Set<ProtectionInput>) -> UpdateError? {
        var contents = contents
        contents.checked = Date()
        contents.failed = nil
        contents.failedSources = nil
        return write(contents, changed: changed)
    }

    /// Records the time of a refused check beside the copies kept, which stay as they are; the
    /// error when it could not be written.
    private func keepFailure() -> UpdateError? {
        var contents = store.readAll()
        contents.recordFailure(of: sources)
        return write(contents, changed: [])
    }

    private func write(_ contents: DownloadStore.Contents, changed: Set<ProtectionInput>) -> UpdateError? {
        do throws(FileError) {
            try store.write(contents, changed: changed)
            return nil
        } catch {
            return UpdateError(input: nil, url: nil, reason: .unwritable(error))
        }
    }

    private func report(
        _ outcome: UpdateReport.Outcome, _ inputs: [UpdateReport.Input], error: UpdateError? = nil, storageError: UpdateError? = nil
    ) -> UpdateReport {
        UpdateReport(
            outcome, inputs, error: error, setIdentity: runtime.currentSet.identity, storageError: storageError, policy: policy)
    }

    // MARK: - Schedule

    /// Runs checks by the policy until ``stop()``: the first when one is due (at once, unless a
    /// check of an earlier run found the sources valid within the interval), then
    /// ``UpdatePolicy/interval`` after each update or unchanged check and
    /// ``UpdatePolicy/retryInterval`` after a refused one. A ``checkNow()`` in between counts as
    /// the schedule's. `onReport` receives each scheduled check's report, on a background thread.
    /// A second call while running does nothing.
    public func start(onReport: @escaping @Sendable (UpdateReport) -> Void = { _ in }) {
        withLock {
            guard schedule == nil else { return }
            schedule = Task.detached(priority: .utility) { [weak self] in
                while !Task.isCancelled {
                    guard let wait = self?.nextCheck.timeIntervalSinceNow else { return }
                    if wait > 0 {
                        // Woken at the time that was due then; a manual check may have moved it.
                        do { try await Task.sleep(nanoseconds: UInt64(min(wait, 86_400) * 1e9)) } catch { return }
                        continue
                    }
                    guard let report = await self?.checkNow(), !Task.isCancelled else { return }
                    onReport(report)
                }
            }
        }
    }

    /// Stops the schedule and the check in progress (its report: refused, cancelled; nothing
    /// changed). ``checkNow()`` still works, and ``start(onReport:)`` starts again.
    public func stop() {
        let (task, check) = withLock { () -> (Task<Void, Never>?, UpdateCancellation?) in
            defer { schedule = nil }
            return (schedule, running)
        }
        task?.cancel()
        check?.cancel()
    }

    private func withLock<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}

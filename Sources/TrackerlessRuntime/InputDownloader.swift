import Foundation
import TrackerDataKit
import TrackerlessCore

/// Downloads every input of ``UpdateSources`` with the policy's rules and checks each body: one
/// round of an update, shared by ``ProtectionUpdater`` and `trackerless fetch`. It changes
/// nothing; the caller applies a round without a failure, all of it, or nothing.
///
/// Per input: a GET conditional on the kept copy's `ETag` and `Last-Modified`
/// (``HTTPDownload``), tried again after ``UpdatePolicy/retryDelay`` (doubling) while it fails
/// in a way that may pass; then the body's SHA-256 against the source's pin, and the body decoded
/// as its input (a blocklist must have trackers). The inputs download at once.
package struct InputDownloader: Sendable {
    /// The round's answers, and the copies to keep when it is applied.
    struct Round: Sendable {
        /// Each source's answer, the blocklist first.
        var inputs: [UpdateReport.Input]
        /// The first input that failed; nil when every input is current and valid.
        var failure: UpdateError?
        /// The copies the store holds once the round is applied: the new bodies, and the kept
        /// ones the server called current.
        var contents: DownloadStore.Contents
        /// The inputs whose bytes differ from the kept copy (or that had none).
        var changed: Set<ProtectionInput>
    }

    package let sources: UpdateSources
    package let policy: UpdatePolicy

    /// A downloader of `sources` by `policy`.
    ///
    /// - Throws: ``UpdateError/Reason/invalidSource(_:)`` naming the input when a source is not
    ///   an http or https URL or its SHA-256 is not 64 hex digits, or the policy has a setting it
    ///   cannot use.
    package init(sources: UpdateSources, policy: UpdatePolicy) throws(UpdateError) {
        try sources.check()
        if let problem = policy.problem() { throw UpdateError(input: nil, url: nil, reason: .invalidSource(problem)) }
        self.sources = sources
        self.policy = policy
    }

    /// Downloads every source, conditional on `kept`.
    func download(kept: DownloadStore.Contents, cancellation: UpdateCancellation?) -> Round {
        let documents = sources.documents
        let outcomes: [(report: UpdateReport.Input, entry: DownloadStore.Entry?)]
        if documents.count == 2 {
            let (first, second) = Parallel.both(
                { download(documents[0].input, from: documents[0].document, kept: kept.entries[documents[0].input], cancellation) },
                { download(documents[1].input, from: documents[1].document, kept: kept.entries[documents[1].input], cancellation) })
            outcomes = [first, second]
        } else {
            outcomes = documents.map { download($0.input, from: $0.document, kept: kept.entries[$0.input], cancellation) }
        }
        var contents = DownloadStore.Contents(checked: kept.checked)
        var changed: Set<ProtectionInput> = []
        for (report, entry) in outcomes {
            guard let entry else { continue }
            contents.entries[report.input] = entry
            if entry.body != kept.entries[report.input]?.body { changed.insert(report.input) }
        }
        return Round(inputs: outcomes.map(\.report), failure: outcomes.lazy.compactMap(\.report.error).first, contents: contents, changed: changed)
    }

    /// One input, tried as the policy allows: its answer, and the copy to keep.
    private func download(
        _ input: ProtectionInput, from document: RemoteDocument, kept: DownloadStore.Entry?, _ cancellation: UpdateCancellation?
    ) -> (report: UpdateReport.Input, entry: DownloadStore.Entry?) {
        let url = document.url.absoluteString
        var attempt = 0
        while true {
            attempt += 1
            let outcome = check(
                HTTPDownload(url: document.url, etag: kept?.etag, lastModified: kept?.lastModified, policy: policy).run(cancellation: cancellation),
                input, from: document, kept: kept)
            switch outcome {
            case .success(let (result, response, entry)):
                let report = UpdateReport.Input(
                    input: input, url: url, finalURL: response.finalURL == url ? nil : response.finalURL, status: response.status,
                    result: result, bytes: entry.body.count, sha256: entry.sha256, attempts: attempt, error: nil)
                return (report, entry)
            case .failure(let error):
                if error.isTransient, attempt < policy.attempts, !isCancelled(waitingBefore: attempt + 1, cancellation) { continue }
                let report = UpdateReport.Input(
                    input: input, url: url, finalURL: nil, status: error.status, result: .failed, bytes: nil, sha256: nil,
                    attempts: attempt, error: error)
                return (report, nil)
            }
        }
    }

    /// Waits before try `attempt`; returns whether the check was cancelled meanwhile.
    private func isCancelled(waitingBefore attempt: Int, _ cancellation: UpdateCancellation?) -> Bool {
        let seconds = policy.delay(beforeAttempt: attempt)
        guard let cancellation else {
            Thread.sleep(forTimeInterval: seconds)
            return false
        }
        return cancellation.wait(seconds: seconds)
    }

    /// The copy an answer leaves, or why it leaves none.
    private func check(
        _ answer: Result<HTTPDownload.Response, HTTPDownload.Failure>, _ input: ProtectionInput, from document: RemoteDocument,
        kept: DownloadStore.Entry?
    ) -> Result<(UpdateReport.Input.Result, HTTPDownload.Response, DownloadStore.Entry), UpdateError> {
        let url = document.url.absoluteString
        let response: HTTPDownload.Response
        switch answer {
        case .failure(let failure):
            return .failure(UpdateError(input: input, url: url, status: failure.status, reason: failure.reason))
        case .success(let answered):
            response = answered
        }
        guard let body = response.body else {
            guard var entry = kept else {
                // Only a request with validators may be answered 304, and only a kept copy gives them.
                return .failure(UpdateError(
                    input: input, url: url, status: 304,
                    reason: .invalidBody("a 304 Not Modified answered a request without validators: there is no copy to keep")))
            }
            // A 304 may carry the validators anew (RFC 9110, 15.4.5).
            entry.etag = response.etag ?? entry.etag
            entry.lastModified = response.lastModified ?? entry.lastModified
            return .success((.notModified, response, entry))
        }
        let entry = DownloadStore.Entry(url: url, etag: response.etag, lastModified: response.lastModified, body: body)
        if let pinned = document.pinnedDigest, pinned != entry.sha256 {
            return .failure(UpdateError(
                input: input, url: url, status: response.status, reason: .checksumMismatch(expected: pinned, actual: entry.sha256)))
        }
        if entry.sha256 == kept?.sha256 && body == kept?.body { return .success((.notModified, response, entry)) }
        if let problem = Self.problem(decoding: body, as: input) {
            return .failure(UpdateError(input: input, url: url, status: response.status, reason: .invalidBody(problem)))
        }
        return .success((.downloaded, response, entry))
    }

    /// Why `body` is not a valid `input`; nil when it is. The message names the JSON path.
    package static func problem(decoding body: [UInt8], as input: ProtectionInput) -> String? {
        switch input {
        case .trackerData:
            do throws(TrackerDataError) {
                // A download that blocks nothing would switch protection off: refused, where
                // the runtime only notes an empty blocklist a host hands it.
                if try TrackerData(parsing: body).trackers.isEmpty {
                    return "trackers: empty, so this blocklist would block nothing; a download must list trackers"
                }
                return nil
            } catch {
                return error.description
            }
        case .privacyConfiguration:
            do throws(TrackerDataError) {
                _ = try PrivacyConfiguration(parsing: body)
                return nil
            } catch {
                return error.description
            }
        default:
            return nil
        }
    }
}

extension InputDownloader {
    /// A round kept in `store` when every input is current and valid: `trackerless fetch`,
    /// which has no runtime. Updated when a body changed, unchanged when none did, refused (and
    /// `store` untouched) when an input failed or the store could not be written.
    package func fetch(into store: DownloadStore) -> UpdateReport {
        let round = download(kept: store.read(for: sources), cancellation: nil)
        if let failure = round.failure { return UpdateReport(.refused, round.inputs, error: failure, policy: policy) }
        var contents = round.contents
        contents.checked = Date()
        do throws(FileError) {
            try store.write(contents, changed: round.changed)
        } catch {
            return UpdateReport(.refused, round.inputs, error: UpdateError(input: nil, url: nil, reason: .unwritable(error)), policy: policy)
        }
        return UpdateReport(round.changed.isEmpty ? .unchanged : .updated, round.inputs, policy: policy)
    }
}

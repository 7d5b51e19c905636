public import Foundation

/// What one check of a ``ProtectionUpdater`` (or one `trackerless fetch`) did: updated,
/// unchanged or refused, with each input's answer and, when refused, which input and why.
public struct UpdateReport: Sendable, Equatable {
    /// The check's result.
    public enum Outcome: String, Sendable, Hashable {
        /// A new body was downloaded and valid: the new set is in force and the downloads kept.
        case updated
        /// Nothing new (304, or the same bytes again): nothing rebuilt, the set in force stays.
        case unchanged
        /// An input could not be downloaded or was not valid: nothing changed.
        case refused
    }

    /// One input's answer.
    public struct Input: Sendable, Equatable {
        /// What became of the input.
        public enum Result: String, Sendable, Hashable {
            /// A new body, valid (kept only when the update was not refused).
            case downloaded
            /// The kept copy is current: a 304, or a 200 with the same bytes.
            case notModified = "not modified"
            /// See ``error``.
            case failed
        }

        /// The input.
        public let input: ProtectionInput
        /// The source's URL.
        public let url: String
        /// The URL the answer came from when a redirect led elsewhere.
        public let finalURL: String?
        /// The HTTP status of the last response; nil when none came.
        public let status: Int?
        /// What became of it.
        public let result: Result
        /// The size of the copy it leaves (downloaded or kept), in bytes.
        public let bytes: Int?
        /// The SHA-256 of that copy.
        public let sha256: String?
        /// How many tries the download took.
        public let attempts: Int
        /// Why it failed.
        public let error: UpdateError?
    }

    /// Updated, unchanged or refused.
    public let outcome: Outcome
    /// Each source's answer, the blocklist first.
    public let inputs: [Input]
    /// Why the check was refused: the first input that failed, or the set built from the
    /// downloads that the runtime refused.
    public let error: UpdateError?
    /// The identity of the set in force after the check (``ProtectionSet/identity``); nil for
    /// `trackerless fetch`.
    public let setIdentity: String?
    /// The downloads that could not be kept though the update applied: the next launch takes
    /// the copies kept before (or the embedded ones), and the next check asks again.
    public let storageError: UpdateError?
    /// When the check ended.
    public let date: Date
    /// When the policy has the next check: ``UpdatePolicy/interval`` after an update or nothing
    /// new, ``UpdatePolicy/retryInterval`` after a refusal.
    public let nextCheck: Date

    /// A report dated now, its next check by `policy`.
    init(
        _ outcome: Outcome, _ inputs: [Input], error: UpdateError? = nil, setIdentity: String? = nil, storageError: UpdateError? = nil,
        policy: UpdatePolicy
    ) {
        self.outcome = outcome
        self.inputs = inputs
        self.error = error
        self.setIdentity = setIdentity
        self.storageError = storageError
        date = Date()
        nextCheck = date.addingTimeInterval(outcome == .refused ? policy.retryInterval : policy.interval)
    }
}

import TrackerDataKit
import TrackerlessCore

struct RequestRecord: Sendable {
    /// The strongest state request events reported; nil when only a surrogate was reported.
    var reported: ObservedState?
    /// Whether the blocking script ran a surrogate in place of the request (a script).
    var isReplacedBySurrogate: Bool
    var classification: RequestClassification
    /// Index of its dashboard key, nil when it is not a tracker.
    var triple: Int?

    /// What happened to the request, from all its events in any order: a reported outcome
    /// (`failed`, `blocked`, `loaded`) is what happened; without one, a surrogate that ran in its
    /// place means it was blocked.
    var outcome: ObservedState {
        if let reported, reported != .pending { return reported }
        return isReplacedBySurrogate ? .blocked : .pending
    }
}

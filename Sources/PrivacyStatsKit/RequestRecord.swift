import TrackerDataKit
import TrackerlessCore

struct RequestRecord: Sendable {
    /// The strongest state request events reported; nil when only a surrogate was reported.
    var reported: ObservedState?
    /// Whether the blocking script ran a surrogate in place of the request (a script).
    var isReplacedBySurrogate: Bool
    /// What the host itself saw (``NativeObservation``); nil when it reported nothing.
    var native: NativeObservation.Outcome?
    /// The engine's rule the host named with that outcome (``NativeObservation/engineRule``).
    var engineRule: EngineRule? = nil
    /// The engine's rule counted under ``triple`` (``TripleInfo/engineRules``): the record's
    /// rule as of its last move.
    var countedEngineRule: EngineRule? = nil
    var classification: RequestClassification
    /// Index of its dashboard key, nil when it is not a tracker.
    var triple: Int?

    /// What happened to the request, from all its reports in any order: the host's own outcome
    /// when it reported one (a page can forge neither); else a reported outcome (`failed`,
    /// `blocked`, `loaded`) is what happened; without one, a surrogate that ran in its place
    /// means it was blocked.
    var outcome: ObservedState {
        switch native {
        case .allowed?: return .loaded
        case .blocked?: return .blocked
        case nil: break
        }
        if let reported, reported != .pending { return reported }
        return isReplacedBySurrogate ? .blocked : .pending
    }
}

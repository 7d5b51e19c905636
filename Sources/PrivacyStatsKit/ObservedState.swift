import TrackerDataKit

/// What became of an observed request (the `state` of a request event).
public enum ObservedState: String, Sendable, Hashable, CaseIterable {
    /// Seen to load: a resource-timing entry with a transfer, or a load event.
    case loaded
    /// Seen to fail: an error event or a failed fetch, which is how a content blocker's block
    /// looks from the page.
    case failed
    /// The blocking script blocked it in JavaScript.
    case blocked
    /// Seen, but no outcome yet when the page went away.
    case pending
}

extension ObservedState {
    /// How much the state says about the request: a block or failure outranks a load, which
    /// outranks having been seen.
    var rank: Int {
        switch self {
        case .pending: 0
        case .loaded: 1
        case .failed, .blocked: 2
        }
    }

    /// Whether this state replaces `other` as a request's reported state (nil: none yet).
    func outranks(_ other: ObservedState?) -> Bool { other.map { rank > $0.rank } ?? true }
}

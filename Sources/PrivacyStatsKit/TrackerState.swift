import TrackerDataKit

/// What the dashboard shows for a tracker request: blocked, or allowed with a reason.
public enum TrackerState: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The request did not load from the network (blocked, or replaced by a surrogate).
    case blocked
    /// The request was allowed to load, for the reason given.
    case allowed(AllowedReason)

    /// `blocked`, or `allowed (<reason>)`.
    public var description: String {
        switch self {
        case .blocked: "blocked"
        case .allowed(let reason): "allowed (\(reason.rawValue))"
        }
    }

    /// Blocked first, then allowed by reason.
    public static func < (lhs: TrackerState, rhs: TrackerState) -> Bool {
        switch (lhs, rhs) {
        case (.blocked, .allowed): true
        case (.allowed(let left), .allowed(let right)): left < right
        default: false
        }
    }
}

import TrackerDataKit
import TrackerlessCore

struct TripleInfo: Sendable {
    var trackerDomain: String?
    var category: FirefoxCategory
    /// Requests currently under the key; 0 when they all moved to other states.
    var requests: Int
    /// The deciding entries of those requests, each with how many of them it decided, in the
    /// order first seen; a key's requests have one or a few.
    var decidedBy: [(entry: BlockingDecision.DecidingEntry, requests: Int)] = []

    /// Counts one more (`change` 1) or one less (-1) request decided by `entry`.
    mutating func count(_ entry: BlockingDecision.DecidingEntry?, _ change: Int) {
        guard let entry else { return }
        if let index = decidedBy.firstIndex(where: { $0.entry == entry }) {
            decidedBy[index].requests += change
            if decidedBy[index].requests <= 0 { decidedBy.remove(at: index) }
        } else if change > 0 {
            decidedBy.append((entry, change))
        }
    }
}

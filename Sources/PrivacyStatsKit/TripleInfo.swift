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
    /// The engine's rules the host named for those requests, each with how many, in the order
    /// first seen.
    var engineRules: [(entry: EngineRule, requests: Int)] = []

    /// Counts one more (`change` 1) or one less (-1) request decided by `entry`.
    mutating func count(_ entry: BlockingDecision.DecidingEntry?, _ change: Int) {
        Self.count(entry, change, in: &decidedBy)
    }

    /// Counts one more (`change` 1) or one less (-1) request decided by the engine's `rule`.
    mutating func count(rule: EngineRule?, _ change: Int) {
        Self.count(rule, change, in: &engineRules)
    }

    private static func count<Entry: Equatable>(_ entry: Entry?, _ change: Int, in counts: inout [(entry: Entry, requests: Int)]) {
        guard let entry else { return }
        if let index = counts.firstIndex(where: { $0.entry == entry }) {
            counts[index].requests += change
            if counts[index].requests <= 0 { counts.remove(at: index) }
        } else if change > 0 {
            counts.append((entry, change))
        }
    }
}

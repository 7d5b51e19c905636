import TrackerDataKit
import TrackerlessCore

// Trackers inside other trackers' domains (`sub.tracker.com` beside `tracker.com`): both the
// blocking and the cookie builders write them after the tracker that encloses them, so that the
// inner section can cancel the outer one's rules for its hosts.

extension TrackerData {
    /// Whether a tracker other than `domain` itself encloses it (`tracker.com` for `a.tracker.com`).
    func hasEnclosingTracker(_ domain: String) -> Bool {
        // The dictionary alone: the closure over `trackers` copied the whole TrackerData per call.
        let trackers = self.trackers
        return DomainName.firstParentDomain(of: domain) { trackers[$0] != nil } != nil
    }

    /// The tracker keys in section order: trackers no other encloses, sorted, then the enclosed
    /// ones with fewer labels first.
    func trackerKeysInSectionOrder() -> [String] {
        sectionOrder().map(\.key)
    }

    /// ``trackerKeysInSectionOrder()``, each key with whether it ``hasEnclosingTracker(_:)``.
    func sectionOrder() -> [(key: String, isEnclosed: Bool)] {
        var outer: [String] = []
        var nested: [(labels: Int, domain: String)] = []
        for key in trackers.keys {
            if hasEnclosingTracker(key) {
                nested.append((key.utf8.count { $0 == UInt8(ascii: ".") }, key))
            } else {
                outer.append(key)
            }
        }
        return outer.sorted().map { ($0, false) }
            + nested.sorted { ($0.labels, $0.domain) < ($1.labels, $1.domain) }.map { ($0.domain, true) }
    }
}

import TrackerDataKit
import TrackerlessCore

struct TripleInfo: Sendable {
    var trackerDomain: String?
    var category: FirefoxCategory
    /// Requests currently under the key; 0 when they all moved to other states.
    var requests: Int
}

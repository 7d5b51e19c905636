import TrackerDataKit

/// A dashboard key that appeared on a page (``isAdded``) or left it.
struct TripleChange: Sendable {
    /// The key's index on its page: the same key keeps it for the page's life.
    var index: Int
    var company: String
    var state: TrackerState
    var isAdded: Bool
}

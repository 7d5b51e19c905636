import TrackerDataKit
import TrackerlessCore

/// The dashboard's dedup key: (company, host, state). Hashes its strings once, when made.
struct TripleKey: Hashable, Sendable {
    let company: String
    let host: String
    let state: TrackerState
    private let hash: Int

    init(company: String, host: String, state: TrackerState) {
        self.company = company
        self.host = host
        self.state = state
        var hasher = Hasher()
        hasher.combine(company)
        hasher.combine(host)
        hasher.combine(state)
        hash = hasher.finalize()
    }

    static func == (lhs: TripleKey, rhs: TripleKey) -> Bool {
        lhs.hash == rhs.hash && lhs.state == rhs.state && lhs.host == rhs.host && lhs.company == rhs.company
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }
}

/// What one site added to the totals in one ISO week: the unit of the store's journal.
struct TotalsDelta: Sendable, Hashable {
    var site: String
    var week: String
    var pages = 0
    var trackersBlocked = 0
    var trackersAllowed = 0
    var companiesBlocked: [String: Int] = [:]

    /// Adds another delta's counts (of the same site and week).
    mutating func add(_ other: TotalsDelta) {
        pages += other.pages
        trackersBlocked += other.trackersBlocked
        trackersAllowed += other.trackersAllowed
        companiesBlocked.add(other.companiesBlocked)
    }

    /// Adds (`sign` 1) or takes back (`sign` -1) one dashboard key of `company` in `state`.
    mutating func add(_ state: TrackerState, of company: String, _ sign: Int) {
        switch state {
        case .blocked:
            trackersBlocked += sign
            companiesBlocked.add([company: sign])
        case .allowed:
            trackersAllowed += sign
        }
    }
}

extension [String: Int] {
    /// Adds counts by key; a key whose count comes to zero is removed.
    mutating func add(_ counts: [String: Int]) {
        for (key, count) in counts {
            let sum = self[key, default: 0] + count
            self[key] = sum == 0 ? nil : sum
        }
    }
}

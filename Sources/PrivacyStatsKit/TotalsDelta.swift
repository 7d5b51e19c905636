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
        for (company, count) in other.companiesBlocked { companiesBlocked[company, default: 0] += count }
    }
}

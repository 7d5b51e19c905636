/// Tracker counts over time: lifetime, per ISO week and per site.
///
/// A tracker here is what the page dashboard counts: a (company, host, state) on one page, so
/// reloading a page counts its trackers again and ten requests to one tracker host on one page
/// count once. It is counted when the page first shows it, and counts never go down: when a
/// request moves to another state later (a script counted blocked for its surrogate, then
/// reported loaded; `pending`, then loaded), its new entry is counted too and the earlier one
/// stays.
public struct TotalsSnapshot: Sendable, Hashable {
    /// The version of the JSON schema.
    public static let schemaVersion = 1

    /// Counts since the store was created.
    public var lifetime = Counts()
    /// Counts by ISO 8601 week, keyed `2026-W47`.
    public var weeks: [String: Counts] = [:]
    /// Counts by site (registrable domain of the page), without the per-company breakdown.
    /// At most ``maxSites`` sites; the rest add up under ``otherSites``.
    public var sites: [String: Counts] = [:]

    /// How many sites are kept by name.
    public static let maxSites = 10_000
    /// The key that collects sites beyond ``maxSites``.
    public static let otherSites = "(other sites)"

    /// Creates empty totals.
    public init() {}

    /// Counts of one period or site.
    public struct Counts: Sendable, Hashable {
        /// Main-frame navigations (pages).
        public var pages = 0
        /// Trackers blocked.
        public var trackersBlocked = 0
        /// Trackers allowed, whatever the reason.
        public var trackersAllowed = 0
        /// Trackers blocked by company (entity name); empty in per-site counts.
        public var companiesBlocked: [String: Int] = [:]

        /// Creates zero counts.
        public init() {}

        mutating func add(_ delta: TotalsDelta, withCompanies: Bool) {
            pages += delta.pages
            trackersBlocked += delta.trackersBlocked
            trackersAllowed += delta.trackersAllowed
            if withCompanies {
                for (company, count) in delta.companiesBlocked { companiesBlocked[company, default: 0] += count }
            }
        }
    }

    /// Adds what one site did in one week.
    mutating func apply(_ delta: TotalsDelta) {
        lifetime.add(delta, withCompanies: true)
        weeks[delta.week, default: Counts()].add(delta, withCompanies: true)
        let site = sites[delta.site] != nil || sites.count < Self.maxSites ? delta.site : Self.otherSites
        sites[site, default: Counts()].add(delta, withCompanies: false)
    }
}

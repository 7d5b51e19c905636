/// Tracker counts over time: lifetime, per ISO week and per site.
///
/// A tracker here is what the page dashboard counts: a (company, host, state) on one page, so
/// reloading a page counts its trackers again and ten requests to one tracker host on one page
/// count once. The totals follow the page's final entries: an entry is counted when the page
/// first shows it, and taken back when the page drops it because its requests moved to another
/// state (a script counted blocked for its surrogate, then reported loaded, ends up allowed
/// only), in the ISO week it was counted in. The journal then holds a negative delta; replay
/// refuses a record that would take any count below zero.
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
            if withCompanies { companiesBlocked.add(delta.companiesBlocked) }
        }
    }

    /// Adds what one site did in one week.
    mutating func apply(_ delta: TotalsDelta) {
        lifetime.add(delta, withCompanies: true)
        weeks[delta.week, default: Counts()].add(delta, withCompanies: true)
        sites[siteKey(delta.site), default: Counts()].add(delta, withCompanies: false)
    }

    /// Adds the deltas of one journal record when no count they touch ends below zero; else
    /// changes nothing and returns the first such count, as a path
    /// (`weeks["2026-W47"].trackersBlocked = -1`).
    mutating func applyUnlessNegative(_ deltas: [TotalsDelta]) -> String? {
        let savedLifetime = lifetime
        var savedWeeks: [String: Counts?] = [:]
        var savedSites: [String: Counts?] = [:]
        for delta in deltas {
            if savedWeeks[delta.week] == nil { savedWeeks[delta.week] = .some(weeks[delta.week]) }
            let site = siteKey(delta.site)
            if savedSites[site] == nil { savedSites[site] = .some(sites[site]) }
            apply(delta)
        }
        var negative = lifetime.firstNegativeCount().map { "lifetime.\($0)" }
        for week in savedWeeks.keys.sorted() where negative == nil {
            negative = weeks[week]?.firstNegativeCount().map { "weeks[\"\(week)\"].\($0)" }
        }
        for site in savedSites.keys.sorted() where negative == nil {
            negative = sites[site]?.firstNegativeCount().map { "sites[\"\(site)\"].\($0)" }
        }
        guard let negative else { return nil }
        lifetime = savedLifetime
        for (week, counts) in savedWeeks { weeks[week] = counts }
        for (site, counts) in savedSites { sites[site] = counts }
        return negative
    }

    /// Where a site's counts go: its own entry while there is room, else ``otherSites``.
    private func siteKey(_ site: String) -> String {
        sites[site] != nil || sites.count < Self.maxSites ? site : Self.otherSites
    }
}

extension TotalsSnapshot.Counts {
    /// The first count below zero, as `name = value`; nil when there is none.
    func firstNegativeCount() -> String? {
        if pages < 0 { return "pages = \(pages)" }
        if trackersBlocked < 0 { return "trackersBlocked = \(trackersBlocked)" }
        if trackersAllowed < 0 { return "trackersAllowed = \(trackersAllowed)" }
        if let (company, count) = companiesBlocked.filter({ $0.value < 0 }).min(by: { $0.key < $1.key }) {
            return "companiesBlocked[\"\(company)\"] = \(count)"
        }
        return nil
    }
}

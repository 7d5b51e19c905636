public import TrackerlessCore

extension TotalsSnapshot {
    /// The totals as JSON: `{"schema": "trackerless-totals", "schemaVersion": 1, "lifetime": C,
    /// "weeks": {"2026-W47": C, …}, "sites": {"example.com": C, …}}` with
    /// `C = {"pages", "trackersBlocked", "trackersAllowed", "companiesBlocked": {name: count}}`;
    /// keys sorted.
    public func jsonValue() -> JSONValue {
        .object(JSONObject([
            ("schema", .string("trackerless-totals")),
            ("schemaVersion", .number(Double(Self.schemaVersion))),
            ("lifetime", lifetime.jsonValue()),
            ("weeks", .object(JSONObject(weeks.sorted { $0.key < $1.key }.map { ($0.key, $0.value.jsonValue()) }))),
            ("sites", .object(JSONObject(sites.sorted { $0.key < $1.key }.map { ($0.key, $0.value.jsonValue()) }))),
        ]))
    }

    /// ``jsonValue()`` as text.
    public func jsonString() -> String { jsonValue().jsonString() }
}

extension TotalsSnapshot.Counts {
    func jsonValue() -> JSONValue {
        .object(JSONObject([
            ("pages", .number(Double(pages))),
            ("trackersBlocked", .number(Double(trackersBlocked))),
            ("trackersAllowed", .number(Double(trackersAllowed))),
            ("companiesBlocked", .object(JSONObject(
                companiesBlocked.sorted { $0.key < $1.key }.map { ($0.key, .number(Double($0.value))) }))),
        ]))
    }
}

extension TotalsDelta {
    func jsonValue() -> JSONValue {
        .object(JSONObject([
            ("site", .string(site)), ("week", .string(week)), ("pages", .number(Double(pages))),
            ("trackersBlocked", .number(Double(trackersBlocked))), ("trackersAllowed", .number(Double(trackersAllowed))),
            ("companiesBlocked", .object(JSONObject(
                companiesBlocked.sorted { $0.key < $1.key }.map { ($0.key, .number(Double($0.value))) }))),
        ]))
    }
}

extension TotalsSnapshot {
    /// Reads what ``jsonValue()`` wrote; nil when it is not JSON, or anything is missing or of
    /// the wrong type. A member's last occurrence counts, as a lookup in `JSON.parse`'s result.
    init?(jsonBytes bytes: [UInt8]) {
        guard let snapshot = (try? JSONReader.read(bytes) { (reader) throws(JSONReadError) -> TotalsSnapshot? in
            try Self.read(&reader)
        }) ?? nil else { return nil }
        self = snapshot
    }

    private static func read(_ reader: inout JSONReader) throws(JSONReadError) -> TotalsSnapshot? {
        guard var members = try reader.enterObjectIfPresent() else { return nil }
        var isSchema = false, isVersion = false
        var lifetime: Counts?
        var weeks: [String: Counts]?, sites: [String: Counts]?
        while let key = try reader.nextKey(in: &members) {
            switch key {
            case "schema": isSchema = try reader.readStringIfPresent() == "trackerless-totals"
            case "schemaVersion": isVersion = try reader.readDoubleIfPresent() == Double(Self.schemaVersion)
            case "lifetime": lifetime = try Counts.read(&reader)
            case "weeks": weeks = try JSONCount.map(&reader, Counts.read)
            case "sites": sites = try JSONCount.map(&reader, Counts.read)
            default: try reader.skipValue()
            }
        }
        guard isSchema, isVersion, let lifetime, let weeks, let sites else { return nil }
        var snapshot = TotalsSnapshot()
        snapshot.lifetime = lifetime
        snapshot.weeks = weeks
        snapshot.sites = sites
        return snapshot
    }
}

extension TotalsSnapshot.Counts {
    /// The counts that come next, nil after skipping a value that is not ``jsonValue()``'s.
    static func read(_ reader: inout JSONReader) throws(JSONReadError) -> Self? {
        guard var members = try reader.enterObjectIfPresent() else { return nil }
        var pages: Int?, blocked: Int?, allowed: Int?
        var companies: [String: Int]?
        while let key = try reader.nextKey(in: &members) {
            switch key {
            case "pages": pages = JSONCount.count(try reader.readDoubleIfPresent())
            case "trackersBlocked": blocked = JSONCount.count(try reader.readDoubleIfPresent())
            case "trackersAllowed": allowed = JSONCount.count(try reader.readDoubleIfPresent())
            case "companiesBlocked": companies = try JSONCount.counts(&reader)
            default: try reader.skipValue()
            }
        }
        guard let pages, let blocked, let allowed, let companies else { return nil }
        var counts = Self()
        counts.pages = pages
        counts.trackersBlocked = blocked
        counts.trackersAllowed = allowed
        counts.companiesBlocked = companies
        return counts
    }
}

extension TotalsDelta {
    /// The delta that comes next (what ``jsonValue()`` wrote), nil after skipping another value.
    /// Tracker counts may be negative (a page took back a key it had counted:
    /// ``PageStats/takeTripleChanges()``); pages may not.
    static func read(_ reader: inout JSONReader) throws(JSONReadError) -> Self? {
        guard var members = try reader.enterObjectIfPresent() else { return nil }
        var site: String?, week: String?
        var pages: Int?, blocked: Int?, allowed: Int?
        var companies: [String: Int]?
        while let key = try reader.nextKey(in: &members) {
            switch key {
            case "site": site = try reader.readStringIfPresent()
            case "week": week = try reader.readStringIfPresent()
            case "pages": pages = JSONCount.count(try reader.readDoubleIfPresent())
            case "trackersBlocked": blocked = JSONCount.count(try reader.readDoubleIfPresent(), signed: true)
            case "trackersAllowed": allowed = JSONCount.count(try reader.readDoubleIfPresent(), signed: true)
            case "companiesBlocked": companies = try JSONCount.counts(&reader, signed: true)
            default: try reader.skipValue()
            }
        }
        guard let site, let week, let pages, let blocked, let allowed, let companies else { return nil }
        return TotalsDelta(
            site: site, week: week, pages: pages, trackersBlocked: blocked, trackersAllowed: allowed,
            companiesBlocked: companies)
    }
}

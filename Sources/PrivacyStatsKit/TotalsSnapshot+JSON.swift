import TrackerlessCore

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

    /// Reads what ``jsonValue()`` wrote; nil when anything is missing or of the wrong type.
    init?(json: JSONValue) {
        guard case .object(let object) = json, case .string("trackerless-totals")? = object["schema"],
            case .number(Double(Self.schemaVersion))? = object["schemaVersion"],
            let lifetime = object["lifetime"].flatMap(Counts.init(json:)),
            case .object(let weeks)? = object["weeks"], case .object(let sites)? = object["sites"]
        else { return nil }
        self.init()
        self.lifetime = lifetime
        for (key, value) in zip(weeks.keys, weeks.values) {
            guard let counts = Counts(json: value) else { return nil }
            self.weeks[key] = counts
        }
        for (key, value) in zip(sites.keys, sites.values) {
            guard let counts = Counts(json: value) else { return nil }
            self.sites[key] = counts
        }
    }
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

    init?(json: JSONValue) {
        guard case .object(let object) = json, let pages = JSONCount.count(object["pages"]),
            let blocked = JSONCount.count(object["trackersBlocked"]),
            let allowed = JSONCount.count(object["trackersAllowed"]),
            let companies = JSONCount.counts(object["companiesBlocked"])
        else { return nil }
        self.init()
        self.pages = pages
        trackersBlocked = blocked
        trackersAllowed = allowed
        companiesBlocked = companies
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

    /// Reads what ``jsonValue()`` wrote. Tracker counts may be negative (a page took back a
    /// key it had counted: ``PageStats/takeTripleChanges()``); pages may not.
    init?(json: JSONValue) {
        guard case .object(let object) = json, case .string(let site)? = object["site"],
            case .string(let week)? = object["week"], let pages = JSONCount.count(object["pages"]),
            let blocked = JSONCount.count(object["trackersBlocked"], signed: true),
            let allowed = JSONCount.count(object["trackersAllowed"], signed: true),
            let companies = JSONCount.counts(object["companiesBlocked"], signed: true)
        else { return nil }
        self.init(
            site: site, week: week, pages: pages, trackersBlocked: blocked, trackersAllowed: allowed,
            companiesBlocked: companies)
    }
}

/// Counts in JSON: non-negative integers below 2^53 (exact as a JavaScript number).
enum JSONCount {
    /// The largest count, 2^53 - 1.
    static let maximum = 9_007_199_254_740_991

    /// The count, or nil when the value is not an integer of magnitude below 2^53, or is
    /// negative and `signed` is false.
    static func count(_ value: JSONValue?, signed: Bool = false) -> Int? {
        guard case .number(let number)? = value, number >= (signed ? -Double(maximum) : 0), number <= Double(maximum),
            number.rounded(.towardZero) == number
        else { return nil }
        return Int(number)
    }

    static func counts(_ value: JSONValue?, signed: Bool = false) -> [String: Int]? {
        guard case .object(let object)? = value else { return nil }
        var counts: [String: Int] = [:]
        for (key, member) in zip(object.keys, object.values) {
            guard let count = count(member, signed: signed) else { return nil }
            counts[key] = count
        }
        return counts
    }
}

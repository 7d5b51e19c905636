public import TrackerlessCore

extension PageSnapshot {
    /// The snapshot as JSON, schema `trackerless-dashboard` version ``schemaVersion``; members in
    /// a fixed order, lists sorted as in the snapshot. The DocC article "Dashboard snapshot"
    /// describes every field.
    public func jsonValue() -> JSONValue {
        var object = JSONObject()
        object.append("schema", .string("trackerless-dashboard"))
        object.append("schemaVersion", .number(Double(Self.schemaVersion)))
        object.append("tab", tab.map { .string($0.rawValue) } ?? .null)
        object.append("url", .string(url))
        object.append("committedURL", .string(committedURL))
        object.append("site", site.map(JSONValue.string) ?? .null)
        object.append("isProtected", .bool(isProtected))
        object.append("siteOwner", siteOwner.map { $0.jsonValue() } ?? .null)
        object.append("requests", .object(JSONObject([
            ("observed", count(requests.observed)), ("thirdParty", count(requests.thirdParty)),
            ("trackers", count(requests.trackers)),
        ])))
        object.append("trackers", .object(JSONObject([
            ("blocked", count(trackers.blocked)), ("allowed", count(trackers.allowed)),
            ("companiesBlocked", count(trackers.companiesBlocked)), ("companiesAllowed", count(trackers.companiesAllowed)),
        ])))
        object.append("allowedReasons", .array(allowedReasons.map {
            .object(JSONObject([("reason", .string($0.reason.rawValue)), ("trackers", count($0.trackers))]))
        }))
        object.append("categories", .array(categories.map {
            .object(JSONObject([
                ("category", .string($0.category.rawValue)), ("blocked", count($0.blocked)), ("allowed", count($0.allowed)),
            ]))
        }))
        object.append("companies", .array(companies.map { $0.jsonValue() }))
        object.append("surrogates", .array(surrogates.map {
            .object(JSONObject([("surrogate", .string($0.surrogate)), ("host", .string($0.host))]))
        }))
        object.append("counters", .object(JSONObject([
            ("messages", count(counters.messages)), ("duplicateEvents", count(counters.duplicateEvents)),
            ("eventsDroppedByScripts", count(counters.eventsDroppedByScripts)),
            ("eventsDroppedByHost", count(counters.eventsDroppedByHost)),
            ("unparseableURLs", count(counters.unparseableURLs)),
            ("unverifiedSurrogates", count(counters.unverifiedSurrogates)),
        ])))
        return .object(object)
    }

    /// ``jsonValue()`` as compact JSON text.
    public func jsonString() -> String { jsonValue().jsonString() }
}

extension PageSnapshot.Company {
    func jsonValue() -> JSONValue {
        .object(JSONObject([
            ("name", .string(name)), ("displayName", .string(displayName)),
            ("prevalence", prevalence.map(JSONValue.number) ?? .null), ("isMajorNetwork", .bool(isMajorNetwork)),
        ]))
    }
}

extension PageSnapshot.CompanyTrackers {
    func jsonValue() -> JSONValue {
        .object(JSONObject([
            ("company", company.jsonValue()), ("blocked", count(blocked)), ("allowed", count(allowed)),
            ("hosts", .array(hosts.map { $0.jsonValue() })),
        ]))
    }
}

extension PageSnapshot.HostState {
    func jsonValue() -> JSONValue {
        var object = JSONObject()
        object.append("host", .string(host))
        object.append("tracker", tracker.map(JSONValue.string) ?? .null)
        switch state {
        case .blocked:
            object.append("state", .string("blocked"))
        case .allowed(let reason):
            object.append("state", .string("allowed"))
            object.append("reason", .string(reason.rawValue))
        }
        object.append("category", .string(category.rawValue))
        object.append("requests", count(requests))
        if !decidedBy.isEmpty { object.append("decidedBy", .array(decidedBy.map { $0.jsonValue() })) }
        if !engineRules.isEmpty { object.append("engineRules", .array(engineRules.map { $0.jsonValue() })) }
        return .object(object)
    }
}

private func count(_ value: Int) -> JSONValue { .number(Double(value)) }

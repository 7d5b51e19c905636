public import TrackerlessCore

extension BlockingDecision {
    /// `{"action": "block" | "ignore" | "redirect" | null, "surrogate"?, "reason", "tracker"?,
    /// "entity"?, "decidedBy"?}`, the answer of `trackerless resolve` and of the C API's
    /// `tl_resolver_classify`, in the words of DuckDuckGo's reference tests (null: not a
    /// tracker); `decidedBy` is ``decidingEntry`` as ``DecidingEntry/jsonValue()`` writes it.
    public func jsonValue() -> JSONValue {
        var object = JSONObject()
        switch action {
        case .block?: object.append("action", .string("block"))
        case .ignore?: object.append("action", .string("ignore"))
        case .redirect(let surrogate)?:
            object.append("action", .string("redirect"))
            object.append("surrogate", .string(surrogate))
        case nil: object.append("action", .null)
        }
        object.append("reason", .string(reason.rawValue))
        if let tracker { object.append("tracker", .string(tracker.domain)) }
        if let entity = entity?.name ?? tracker?.ownerName { object.append("entity", .string(entity)) }
        if let decidingEntry { object.append("decidedBy", decidingEntry.jsonValue()) }
        return .object(object)
    }
}

extension BlockingDecision.DecidingEntry {
    /// `{"kind", ...}`: the case (``kind``) and the entry's position and text in its input, in
    /// the input's own member names.
    ///
    /// - `userAllowlist`: `domain`.
    /// - `featureNotEnabled`: `feature`, `state` (null: the feature is missing).
    /// - `unprotectedTemporary`: `index`, `domain`.
    /// - `featureException`: `feature`, `index`, `domain`.
    /// - `requestBlocklist`: `domain` (the entry's key), `index`, `rule`, `domains`, `reason`?.
    /// - `mainFrame`: nothing more.
    /// - `sameEntity`: `entity`. `sameSite`: `registrableDomain`.
    /// - `trackerAllowlist`: `tracker` (the entry's key), `index`, `rule`, `domains`, `reason`?.
    /// - `trackerRule`: `tracker`, `index`, `rule`, and as present `action`, `surrogate`,
    ///   `options` and `exceptions` (`{"domains"?, "types"?}`).
    /// - `trackerDefault`: `tracker`, `default` (null when missing).
    public func jsonValue() -> JSONValue {
        var object = JSONObject()
        object.append("kind", .string(kind))
        func index(_ value: Int) { object.append("index", .number(Double(value))) }
        func strings(_ values: [String]) -> JSONValue { .array(values.map { .string($0) }) }
        /// A rule of a configuration feature's settings: its entry's key, index and members.
        func settingsRule(key: (String, String), _ position: Int, _ rule: String, _ domains: [String], _ reason: String?) {
            object.append(key.0, .string(key.1))
            index(position)
            object.append("rule", .string(rule))
            object.append("domains", strings(domains))
            if let reason { object.append("reason", .string(reason)) }
        }
        switch self {
        case .userAllowlist(let domain):
            object.append("domain", .string(domain))
        case .unprotectedSite(.featureNotEnabled(let feature, let state)):
            object.append("feature", .string(feature))
            object.append("state", state.map { .string($0.rawValue) } ?? .null)
        case .unprotectedSite(.unprotectedTemporary(let position, let domain)):
            index(position)
            object.append("domain", .string(domain))
        case .unprotectedSite(.featureException(let feature, let position, let domain)):
            object.append("feature", .string(feature))
            index(position)
            object.append("domain", .string(domain))
        case .requestBlocklist(let domain, let position, let rule):
            settingsRule(key: ("domain", domain), position, rule.rule, rule.domains, rule.reason)
        case .mainFrame:
            break
        case .sameEntity(let entity):
            object.append("entity", .string(entity))
        case .sameSite(let registrableDomain):
            object.append("registrableDomain", .string(registrableDomain))
        case .trackerAllowlist(let trackerDomain, let position, let rule):
            settingsRule(key: ("tracker", trackerDomain), position, rule.rule, rule.domains, rule.reason)
        case .trackerRule(let reference):
            let rule = reference.rule
            object.append("tracker", .string(reference.trackerDomain))
            index(reference.index)
            object.append("rule", .string(rule.rule))
            if let action = rule.action { object.append("action", .string(action.rawValue)) }
            if let surrogate = rule.surrogate { object.append("surrogate", .string(surrogate)) }
            func condition(_ condition: Tracker.Rule.Condition) -> JSONValue {
                var members = JSONObject()
                if let domains = condition.domains { members.append("domains", strings(domains)) }
                if let types = condition.types { members.append("types", strings(types.map(\.rawValue))) }
                return .object(members)
            }
            if let options = rule.options { object.append("options", condition(options)) }
            if let exceptions = rule.exceptions { object.append("exceptions", condition(exceptions)) }
        case .trackerDefault(let trackerDomain, let defaultAction):
            object.append("tracker", .string(trackerDomain))
            object.append("default", defaultAction.map { .string($0.rawValue) } ?? .null)
        }
        return .object(object)
    }
}

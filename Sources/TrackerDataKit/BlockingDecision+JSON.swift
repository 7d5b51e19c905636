import TrackerlessCore

extension BlockingDecision {
    /// `{"action": "block" | "ignore" | "redirect" | null, "surrogate"?, "reason", "tracker"?,
    /// "entity"?}`, the answer of `trackerless resolve` and of the C API's `tl_resolver_classify`,
    /// in the words of DuckDuckGo's reference tests (null: not a tracker).
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
        if let entity = entity?.name ?? tracker?.owner?.name { object.append("entity", .string(entity)) }
        return .object(object)
    }
}

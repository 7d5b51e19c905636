public import TrackerlessCore

extension AppliedActions {
    /// `{"blocked": bool, "actions": [{"type": ..., "selector"?: ..., "notification"?: ...,
    /// "list"?: n, "rule"?: n}]}`: the answer of `trackerless decide` and of the C API's
    /// `tl_engine_actions_json`; `list` and `rule` (the list's index and the rule's index in it)
    /// when the answer names its rules (``ListActions/ruleIndices``).
    public func jsonValue() -> JSONValue {
        var actions: [JSONValue] = []
        for (listIndex, list) in lists.enumerated() {
            for (position, action) in list.actions.enumerated() {
                var object = JSONObject([("type", .string(action.type))])
                switch action {
                case .cssDisplayNone(let selector): object.append("selector", .string(selector))
                case .notify(let notification): object.append("notification", .string(notification))
                default: break
                }
                if position < list.ruleIndices.count {
                    object.append("list", .number(Double(listIndex)))
                    object.append("rule", .number(Double(list.ruleIndices[position])))
                }
                actions.append(.object(object))
            }
        }
        return .object(JSONObject([("blocked", .bool(isBlocked)), ("actions", .array(actions))]))
    }
}

import TrackerlessCore

extension AppliedActions {
    /// `{"blocked": bool, "actions": [{"type": ..., "selector"?: ..., "notification"?: ...}]}`:
    /// the answer of `trackerless decide` and of the C API's `tl_engine_actions_json`.
    public func jsonValue() -> JSONValue {
        let actions: [JSONValue] = actions.map { action in
            var object = JSONObject([("type", .string(action.type))])
            switch action {
            case .cssDisplayNone(let selector): object.append("selector", .string(selector))
            case .notify(let notification): object.append("notification", .string(notification))
            default: break
            }
            return .object(object)
        }
        return .object(JSONObject([("blocked", .bool(isBlocked)), ("actions", .array(actions))]))
    }
}

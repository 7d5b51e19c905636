public import TrackerlessCore

/// The rule of the installed lists that decided a load the host checked with the rule engine:
/// the list's index and the rule's index in that list's JSON array, as the engine names an
/// applied action (`AppliedActions.ListActions.ruleIndices`), and the input the rule was built
/// from when the host knows it (`RuleSource.jsonValue()`).
///
/// A host in engine mode passes it with its ``NativeObservation``; the dashboard snapshot then
/// carries it per host (``PageSnapshot/HostState/engineRules``) beside the resolver's entry.
public struct EngineRule: Sendable, Hashable {
    /// The index of the rule list, in the order the engine was given them.
    public var list: Int
    /// The index of the rule in that list's JSON array.
    public var rule: Int
    /// The input the rule was built from, as `RuleSource.jsonValue()` writes it; nil when the
    /// host does not know it.
    public var source: JSONValue?

    /// Rule `rule` of list `list`, made from `source` when known.
    public init(list: Int, rule: Int, source: JSONValue? = nil) {
        self.list = list
        self.rule = rule
        self.source = source
    }

    /// `{"list": 0, "rule": 12, "source"?: {...}}`.
    public func jsonValue() -> JSONValue {
        var object = JSONObject([("list", .number(Double(list))), ("rule", .number(Double(rule)))])
        if let source { object.append("source", source) }
        return .object(object)
    }
}

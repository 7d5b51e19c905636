import TrackerlessCore

/// The input a built WebKit rule came from: a tracker of the blocklist, a CNAME cloaking one, an
/// entity whose trackers have lists of their own, or an entry of the privacy configuration (or of
/// the user's allowlist).
///
/// ``RuleListBuild/sources`` holds one per rule of each list, so that an action the engine names
/// by list and rule index (`RuleEngine.actions(for:cache:)`) can be traced to what the host gave.
public struct RuleSource: Sendable, Hashable, CustomStringConvertible {
    /// What kind of input it is.
    public enum Kind: String, Sendable, Hashable {
        /// A tracker of the blocklist (`trackers["x.com"]`): its default action, its rules, or
        /// the first-party exception of its owner's sites.
        case tracker
        /// A host the blocklist's `cnames` map to a tracker (`cnames["t.site.com"]`).
        case cname
        /// An entity whose trackers have lists of their own: the one first-party exception that
        /// ends each of those lists (`entities["Example Inc"]`).
        case entity
        /// An entry of the privacy configuration or the user allowlist, or a rule the builder
        /// adds itself, named by its JSON path or a description.
        case configuration
    }

    /// What kind of input it is.
    public var kind: Kind
    /// The tracker's key, the cloaked host, the entity's name, or the configuration's path.
    public var name: String

    /// A source of `kind` named `name`.
    public init(kind: Kind, name: String) {
        self.kind = kind
        self.name = name
    }

    /// Where the input is: its JSON path in the blocklist (`trackers["x.com"]`) or the
    /// configuration's path or description.
    public var path: String {
        switch kind {
        case .tracker: JSONPath.root.appending(key: "trackers").appending(key: name).description
        case .cname: JSONPath.root.appending(key: "cnames").appending(key: name).description
        case .entity: JSONPath.root.appending(key: "entities").appending(key: name).description
        case .configuration: name
        }
    }

    /// The path, as a person reads it.
    public var description: String { path }

    /// `{"kind": "tracker", "name": "x.com", "path": "trackers[\"x.com\"]"}`: what
    /// `trackerless rules --sources` writes for each rule.
    public func jsonValue() -> JSONValue {
        .object(JSONObject([("kind", .string(kind.rawValue)), ("name", .string(name)), ("path", .string(path))]))
    }
}

public import TrackerlessCore

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
    /// Which input of the tracker the rule says, for a tracker's or a cloaked host's rule: its
    /// default action, one of its rules, or the exception for its owner's pages. Nil for the
    /// other kinds, and for the rule that cancels an enclosing tracker's rules for its hosts.
    public var part: Part?

    /// Which input of a tracker a built rule says.
    public enum Part: Sendable, Hashable {
        /// The tracker's default action (`trackers["x.com"].default`): the block of its hosts.
        case defaultAction(tracker: String)
        /// The tracker's rule at `index` (`trackers["x.com"].rules[3]`), whose `rule` is `text`.
        case rule(tracker: String, index: Int, text: String)
        /// The exception for pages first party to the tracker (`trackers["x.com"].owner`): its
        /// owner's sites, and its own where WebKit may find it third party.
        case firstPartyException(tracker: String)

        /// The tracker's key in `trackers`.
        public var tracker: String {
            switch self {
            case .defaultAction(let tracker), .rule(let tracker, _, _), .firstPartyException(let tracker): tracker
            }
        }

        /// The JSON path of the input in the blocklist: `trackers["x.com"].rules[3]`.
        public var path: String {
            let tracker = JSONPath.root.appending(key: "trackers").appending(key: tracker)
            return switch self {
            case .defaultAction: tracker.appending(key: "default").description
            case .rule(_, let index, _): tracker.appending(key: "rules").appending(index: index).description
            case .firstPartyException: tracker.appending(key: "owner").description
            }
        }
    }

    /// A source of `kind` named `name`; `part` says which input of a tracker.
    public init(kind: Kind, name: String, part: Part? = nil) {
        self.kind = kind
        self.name = name
        self.part = part
    }

    /// Where the input is: its JSON path in the blocklist (`trackers["x.com"].rules[3]`,
    /// `trackers["x.com"].default`, `cnames["t.site.com"]`) or the configuration's path or
    /// description.
    public var path: String {
        switch kind {
        case .tracker: part?.path ?? JSONPath.root.appending(key: "trackers").appending(key: name).description
        case .cname: JSONPath.root.appending(key: "cnames").appending(key: name).description
        case .entity: JSONPath.root.appending(key: "entities").appending(key: name).description
        case .configuration: name
        }
    }

    /// The path, as a person reads it; a cloaked host's adds the tracker's input it copies
    /// (`cnames["t.site.com"] (trackers["x.com"].rules[3])`).
    public var description: String {
        guard kind == .cname, let part else { return path }
        return "\(path) (\(part.path))"
    }

    /// `{"kind": "tracker", "name": "x.com", "path": "trackers[\"x.com\"].rules[3]",
    /// "tracker": "x.com", "part": "rule", "index": 3, "rule": "x\\.com/ads"}`: what
    /// `trackerless rules --sources` writes for each rule. `part` is `default`, `rule` (with
    /// `index` and `rule`) or `firstPartyException`, and comes with `tracker` and, for a cloaked
    /// host, `trackerPath`; absent where ``part`` is nil.
    public func jsonValue() -> JSONValue {
        var object = JSONObject([("kind", .string(kind.rawValue)), ("name", .string(name)), ("path", .string(path))])
        guard let part else { return .object(object) }
        if kind != .tracker { object.append("trackerPath", .string(part.path)) }
        object.append("tracker", .string(part.tracker))
        switch part {
        case .defaultAction:
            object.append("part", .string("default"))
        case .rule(_, let index, let text):
            object.append("part", .string("rule"))
            object.append("index", .number(Double(index)))
            object.append("rule", .string(text))
        case .firstPartyException:
            object.append("part", .string("firstPartyException"))
        }
        return .object(object)
    }
}

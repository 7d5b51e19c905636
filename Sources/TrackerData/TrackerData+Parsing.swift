import TrackerlessCore

extension TrackerData {
    /// Reads a tds.json document.
    ///
    /// - Parameters:
    ///   - bytes: the UTF-8 JSON.
    ///   - file: the name used in error messages and warnings.
    /// - Throws: ``TrackerDataError`` naming the file and the JSON path of the first problem, for
    ///   example `apple-tds.json: trackers["x.com"].rules[3].rule: expected a string, found a number`.
    ///
    /// What is strict and what is lenient:
    /// - Unknown fields anywhere are ignored, so newer files still load; `null` counts as absent.
    /// - A known field of the wrong type, a tracker or rule that is not an object, or a rule
    ///   without `rule`, is an error: the file is broken and guessing would change what is blocked.
    /// - An unknown rule `action` or tracker `default` is kept in the model and reported in
    ///   ``warnings``; the resolver skips such a rule (DuckDuckGo drops it when decoding) and
    ///   treats such a default as `ignore`.
    public init(parsing bytes: [UInt8], file: String? = nil) throws(TrackerDataError) {
        self = try TrackerDataError.decoding(bytes, file: file) { root throws(JSONDecodingError) in
            try TrackerData(root: root, file: file)
        }
    }

    /// Reads the tds.json file at `path`; messages name the file as `path`.
    public init(contentsOfFile path: String) throws(TrackerDataError) {
        let bytes: [UInt8]
        do throws(FileError) {
            bytes = try FileIO.read(path: path)
        } catch {
            throw .unreadable(error)
        }
        try self.init(parsing: bytes, file: path)
    }

    private init(root: JSONValue, file: String?) throws(JSONDecodingError) {
        self.init()
        let rootPath = JSONPath.root
        let object = try root.object(at: rootPath)

        if let value = object.optional("trackers") {
            let path = rootPath.appending(key: "trackers")
            let members = try value.object(at: path)
            trackers.reserveCapacity(members.count)
            for (key, trackerValue) in members.members {
                let tracker = try Self.tracker(
                    trackerValue, key: key, at: path.appending(key: key), file: file, warnings: &warnings)
                trackers[HostMatching.lowercased(key)] = tracker
            }
        }
        if let value = object.optional("entities") {
            let path = rootPath.appending(key: "entities")
            let members = try value.object(at: path)
            entities.reserveCapacity(members.count)
            for (name, entityValue) in members.members {
                entities[name] = try Self.entity(entityValue, name: name, at: path.appending(key: name))
            }
        }
        if let value = object.optional("domains") {
            domains = try Self.stringMap(value, at: rootPath.appending(key: "domains"), lowercasingValues: false)
        }
        if let value = object.optional("cnames") {
            cnames = try Self.stringMap(value, at: rootPath.appending(key: "cnames"), lowercasingValues: true)
        }
        builtWith = object.optional("_builtWith")
        if let value = object.optional("readme") {
            readme = try value.string(at: rootPath.appending(key: "readme"))
        }
    }

    private static func tracker(
        _ value: JSONValue, key: String, at path: JSONPath, file: String?, warnings: inout [InputWarning]
    ) throws(JSONDecodingError) -> Tracker {
        let object = try value.object(at: path)
        var tracker = Tracker(domain: HostMatching.lowercased(key), defaultAction: nil)
        if let value = object.optional("domain") {
            tracker.domain = HostMatching.lowercased(try value.string(at: path.appending(key: "domain")))
        }
        if let value = object.optional("owner") {
            tracker.owner = try owner(value, at: path.appending(key: "owner"))
        }
        if let value = object.optional("prevalence") {
            tracker.prevalence = try value.double(at: path.appending(key: "prevalence"))
        }
        if let value = object.optional("fingerprinting") {
            tracker.fingerprinting = try value.int(at: path.appending(key: "fingerprinting"))
        }
        if let value = object.optional("cookies") {
            tracker.cookies = try value.double(at: path.appending(key: "cookies"))
        }
        if let value = object.optional("categories") {
            tracker.categories = try value.stringArray(at: path.appending(key: "categories"))
        }
        if let value = object.optional("default") {
            let action = Tracker.DefaultAction(rawValue: try value.string(at: path.appending(key: "default")))
            if case .unsupported(let name) = action {
                warnings.append(InputWarning(
                    file: file, path: path.appending(key: "default"),
                    message: "unsupported default action \"\(name)\"; requests no rule matches will not be blocked"))
            }
            tracker.defaultAction = action
        }
        if let value = object.optional("rules") {
            let rulesPath = path.appending(key: "rules")
            let elements = try value.array(at: rulesPath)
            tracker.rules.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                let rule = try rule(element, at: rulesPath.appending(index: index))
                if let action = rule.action, !action.isSupported {
                    warnings.append(InputWarning(
                        file: file, path: rulesPath.appending(index: index).appending(key: "action"),
                        message: "unsupported action \"\(action.rawValue)\"; the rule is skipped"))
                }
                tracker.rules.append(rule)
            }
        }
        if let value = object.optional("subdomains") {
            tracker.subdomains = try value.stringArray(at: path.appending(key: "subdomains"))
        }
        return tracker
    }

    private static func owner(_ value: JSONValue, at path: JSONPath) throws(JSONDecodingError) -> Tracker.Owner {
        let object = try value.object(at: path)
        var owner = Tracker.Owner(name: try object.required("name", at: path).string(at: path.appending(key: "name")))
        owner.displayName = try optionalString(object, "displayName", at: path)
        owner.ownedBy = try optionalString(object, "ownedBy", at: path)
        owner.privacyPolicy = try optionalString(object, "privacyPolicy", at: path)
        owner.url = try optionalString(object, "url", at: path)
        owner.localizedName = try optionalString(object, "localizedName", at: path)
        return owner
    }

    private static func rule(_ value: JSONValue, at path: JSONPath) throws(JSONDecodingError) -> Tracker.Rule {
        let object = try value.object(at: path)
        var rule = Tracker.Rule(rule: try object.required("rule", at: path).string(at: path.appending(key: "rule")))
        if let value = object.optional("action") {
            rule.action = Tracker.Rule.Action(rawValue: try value.string(at: path.appending(key: "action")))
        }
        rule.surrogate = try optionalString(object, "surrogate", at: path)
        if let value = object.optional("options") {
            rule.options = try condition(value, at: path.appending(key: "options"))
        }
        if let value = object.optional("exceptions") {
            rule.exceptions = try condition(value, at: path.appending(key: "exceptions"))
        }
        if let value = object.optional("fingerprinting") {
            rule.fingerprinting = try value.int(at: path.appending(key: "fingerprinting"))
        }
        if let value = object.optional("cookies") {
            rule.cookies = try value.double(at: path.appending(key: "cookies"))
        }
        rule.comment = try optionalString(object, "comment", at: path)
        return rule
    }

    private static func condition(
        _ value: JSONValue, at path: JSONPath
    ) throws(JSONDecodingError) -> Tracker.Rule.Condition {
        let object = try value.object(at: path)
        var condition = Tracker.Rule.Condition()
        if let value = object.optional("domains") {
            condition.domains = try value.stringArray(at: path.appending(key: "domains"))
        }
        if let value = object.optional("types") {
            condition.types = try value.stringArray(at: path.appending(key: "types")).map(RequestType.init(rawValue:))
        }
        return condition
    }

    private static func entity(_ value: JSONValue, name: String, at path: JSONPath) throws(JSONDecodingError) -> Entity {
        let object = try value.object(at: path)
        var entity = Entity(name: name)
        entity.displayName = try optionalString(object, "displayName", at: path)
        if let value = object.optional("domains") {
            entity.domains = try value.stringArray(at: path.appending(key: "domains"))
        }
        if let value = object.optional("prevalence") {
            entity.prevalence = try value.double(at: path.appending(key: "prevalence"))
        }
        return entity
    }

    private static func stringMap(
        _ value: JSONValue, at path: JSONPath, lowercasingValues: Bool
    ) throws(JSONDecodingError) -> [String: String] {
        let object = try value.object(at: path)
        var map: [String: String] = [:]
        map.reserveCapacity(object.count)
        for (key, member) in object.members {
            let string = try member.string(at: path.appending(key: key))
            map[HostMatching.lowercased(key)] = lowercasingValues ? HostMatching.lowercased(string) : string
        }
        return map
    }

    static func optionalString(
        _ object: JSONObject, _ key: String, at path: @autoclosure () -> JSONPath
    ) throws(JSONDecodingError) -> String? {
        guard let value = object.optional(key) else { return nil }
        return try value.string(at: path().appending(key: key))
    }
}

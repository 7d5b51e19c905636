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
        // Without key indexes: the decoder only walks members.
        self = try TrackerDataError.decoding(bytes, file: file, indexingObjects: false) { root throws(JSONDecodingError) in
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

    // Decoding walks each object's members once and switches on the key, so unknown fields are
    // skipped for free and a duplicate key's last value wins, as in `JSON.parse`. Paths are
    // autoclosures: they are built only for an error or a warning.

    private init(root: JSONValue, file: String?) throws(JSONDecodingError) {
        self.init()
        for (key, value) in try root.object(at: .root).members where !value.isNull {
            switch key {
            case "trackers":
                let trackersPath = JSONPath.root.appending(key: "trackers")
                let members = try value.object(at: trackersPath)
                trackers.reserveCapacity(members.count)
                for (domain, trackerValue) in members.members {
                    trackers[HostMatching.normalized(domain)] = try Self.tracker(
                        trackerValue, key: domain, at: trackersPath.appending(key: domain), file: file,
                        warnings: &warnings)
                }
            case "entities":
                let entitiesPath = JSONPath.root.appending(key: "entities")
                let members = try value.object(at: entitiesPath)
                entities.reserveCapacity(members.count)
                for (name, entityValue) in members.members {
                    entities[name] = try Self.entity(entityValue, name: name, at: entitiesPath.appending(key: name))
                }
            case "domains":
                domains = try Self.stringMap(value, at: JSONPath.root.appending(key: "domains"), lowercasingValues: false)
            case "cnames":
                cnames = try Self.stringMap(value, at: JSONPath.root.appending(key: "cnames"), lowercasingValues: true)
            case "_builtWith":
                builtWith = value
            case "readme":
                readme = try value.string(at: JSONPath.root.appending(key: "readme"))
            default:
                continue
            }
        }
    }

    private static func tracker(
        _ value: JSONValue, key: String, at path: @autoclosure () -> JSONPath, file: String?,
        warnings: inout [InputWarning]
    ) throws(JSONDecodingError) -> Tracker {
        var tracker = Tracker(domain: HostMatching.normalized(key), defaultAction: nil)
        for (field, value) in try value.object(at: path()).members where !value.isNull {
            switch field {
            case "domain":
                tracker.domain = HostMatching.normalized(try value.string(at: path().appending(key: field)))
            case "owner":
                tracker.owner = try owner(value, at: path().appending(key: field))
            case "prevalence":
                tracker.prevalence = try value.double(at: path().appending(key: field))
            case "fingerprinting":
                tracker.fingerprinting = try value.int(at: path().appending(key: field))
            case "cookies":
                tracker.cookies = try value.double(at: path().appending(key: field))
            case "categories":
                tracker.categories = try value.stringArray(at: path().appending(key: field))
            case "default":
                let action = Tracker.DefaultAction(rawValue: try value.string(at: path().appending(key: field)))
                if case .unsupported(let name) = action {
                    warnings.append(InputWarning(
                        file: file, path: path().appending(key: field),
                        message: "unsupported default action \"\(name)\"; requests no rule matches will not be blocked"))
                }
                tracker.defaultAction = action
            case "rules":
                let elements = try value.array(at: path().appending(key: field))
                tracker.rules.reserveCapacity(elements.count)
                for (index, element) in elements.enumerated() {
                    let rule = try rule(element, at: path().appending(key: "rules").appending(index: index))
                    if let action = rule.action, !action.isSupported {
                        warnings.append(InputWarning(
                            file: file,
                            path: path().appending(key: "rules").appending(index: index).appending(key: "action"),
                            message: "unsupported action \"\(action.rawValue)\"; the rule is skipped"))
                    }
                    tracker.rules.append(rule)
                }
            case "subdomains":
                tracker.subdomains = try value.stringArray(at: path().appending(key: field))
            default:
                continue
            }
        }
        return tracker
    }

    private static func owner(
        _ value: JSONValue, at path: @autoclosure () -> JSONPath
    ) throws(JSONDecodingError) -> Tracker.Owner {
        let object = try value.object(at: path())
        var owner = Tracker.Owner(name: try object.required("name", at: path()).string(at: path().appending(key: "name")))
        for (field, value) in object.members where !value.isNull {
            switch field {
            case "displayName": owner.displayName = try value.string(at: path().appending(key: field))
            case "ownedBy": owner.ownedBy = try value.string(at: path().appending(key: field))
            case "privacyPolicy": owner.privacyPolicy = try value.string(at: path().appending(key: field))
            case "url": owner.url = try value.string(at: path().appending(key: field))
            case "localizedName": owner.localizedName = try value.string(at: path().appending(key: field))
            default: continue
            }
        }
        return owner
    }

    private static func rule(
        _ value: JSONValue, at path: @autoclosure () -> JSONPath
    ) throws(JSONDecodingError) -> Tracker.Rule {
        let object = try value.object(at: path())
        var rule = Tracker.Rule(rule: try object.required("rule", at: path()).string(at: path().appending(key: "rule")))
        for (field, value) in object.members where !value.isNull {
            switch field {
            case "action":
                rule.action = Tracker.Rule.Action(rawValue: try value.string(at: path().appending(key: field)))
            case "surrogate":
                rule.surrogate = try value.string(at: path().appending(key: field))
            case "options":
                rule.options = try condition(value, at: path().appending(key: field))
            case "exceptions":
                rule.exceptions = try condition(value, at: path().appending(key: field))
            case "fingerprinting":
                rule.fingerprinting = try value.int(at: path().appending(key: field))
            case "cookies":
                rule.cookies = try value.double(at: path().appending(key: field))
            case "comment":
                rule.comment = try value.string(at: path().appending(key: field))
            default:
                continue
            }
        }
        return rule
    }

    private static func condition(
        _ value: JSONValue, at path: @autoclosure () -> JSONPath
    ) throws(JSONDecodingError) -> Tracker.Rule.Condition {
        var condition = Tracker.Rule.Condition()
        for (field, value) in try value.object(at: path()).members where !value.isNull {
            switch field {
            case "domains":
                condition.domains = try value.stringArray(at: path().appending(key: field))
            case "types":
                condition.types = try value.stringArray(at: path().appending(key: field)).map(RequestType.init(rawValue:))
            default:
                continue
            }
        }
        return condition
    }

    private static func entity(
        _ value: JSONValue, name: String, at path: @autoclosure () -> JSONPath
    ) throws(JSONDecodingError) -> Entity {
        var entity = Entity(name: name)
        for (field, value) in try value.object(at: path()).members where !value.isNull {
            switch field {
            case "displayName": entity.displayName = try value.string(at: path().appending(key: field))
            case "domains": entity.domains = try value.stringArray(at: path().appending(key: field))
            case "prevalence": entity.prevalence = try value.double(at: path().appending(key: field))
            default: continue
            }
        }
        return entity
    }

    private static func stringMap(
        _ value: JSONValue, at path: @autoclosure () -> JSONPath, lowercasingValues: Bool
    ) throws(JSONDecodingError) -> [String: String] {
        let object = try value.object(at: path())
        var map: [String: String] = [:]
        map.reserveCapacity(object.count)
        for (key, member) in object.members {
            let string = try member.string(at: path().appending(key: key))
            map[HostMatching.normalized(key)] = lowercasingValues ? HostMatching.normalized(string) : string
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

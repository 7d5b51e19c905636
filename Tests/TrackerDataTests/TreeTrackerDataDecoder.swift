@testable import TrackerDataKit
import TrackerlessCore

/// The tds.json decoder before the direct reader: the whole document parsed into a `JSONValue`
/// tree, then walked. Kept as the oracle the direct reader must agree with, result for result and
/// error for error.
enum TreeTrackerDataDecoder {
    static func decode(_ bytes: [UInt8], file: String? = nil) throws(TrackerDataError) -> TrackerData {
        try TrackerDataError.decoding(bytes, file: file, indexingObjects: false) { root throws(JSONDecodingError) in
            try trackerData(root: root, file: file)
        }
    }

    private static func trackerData(root: JSONValue, file: String?) throws(JSONDecodingError) -> TrackerData {
        var data = TrackerData()
        for (key, value) in try root.object(at: .root).members {
            if value.isNull {
                if ["trackers", "entities", "domains"].contains(key) {
                    throw TrackerData.nullError(at: JSONPath.root.appending(key: key), expected: "an object")
                }
                continue
            }
            switch key {
            case "trackers":
                let trackersPath = JSONPath.root.appending(key: "trackers")
                let members = try value.object(at: trackersPath)
                data.trackers.reserveCapacity(members.count)
                for (domain, trackerValue) in members.members {
                    data.trackers[DomainName.normalized(domain)] = try Self.tracker(
                        trackerValue, key: domain, at: trackersPath.appending(key: domain), file: file,
                        warnings: &data.warnings)
                }
            case "entities":
                let entitiesPath = JSONPath.root.appending(key: "entities")
                let members = try value.object(at: entitiesPath)
                data.entities.reserveCapacity(members.count)
                for (name, entityValue) in members.members {
                    data.entities[name] = try Self.entity(entityValue, name: name, at: entitiesPath.appending(key: name))
                }
            case "domains":
                data.domains = try Self.stringMap(value, at: JSONPath.root.appending(key: "domains"), lowercasingValues: false)
            case "cnames":
                data.cnames = try Self.stringMap(value, at: JSONPath.root.appending(key: "cnames"), lowercasingValues: true)
            case "_builtWith":
                data.builtWith = value
            case "readme":
                if let problem = lenient({ () throws(JSONDecodingError) in
                    data.readme = try value.string(at: JSONPath.root.appending(key: "readme"))
                }) {
                    data.warnings.append(TrackerData.warning(problem, file: file, consequence: "the field is ignored"))
                }
            default:
                continue
            }
        }
        let members = try root.object(at: .root).members
        guard members.contains(where: { $0.0 == "trackers" }) else {
            throw JSONDecodingError(
                path: .root, reason: "the member \"trackers\" is missing; a blocklist without it would block nothing")
        }
        if data.trackers.isEmpty {
            data.warnings.append(InputWarning(
                file: file, path: JSONPath.root.appending(key: "trackers"), message: "empty: this blocklist blocks no tracker"))
        }
        return data
    }

    /// Runs `read`; returns its wrong value's error instead of throwing it.
    private static func lenient(_ read: () throws(JSONDecodingError) -> Void) -> JSONDecodingError? {
        do throws(JSONDecodingError) {
            try read()
            return nil
        } catch {
            return error
        }
    }

    private static func tracker(
        _ value: JSONValue, key: String, at path: @autoclosure () -> JSONPath, file: String?,
        warnings: inout [InputWarning]
    ) throws(JSONDecodingError) -> Tracker {
        var tracker = Tracker(domain: DomainName.normalized(key), defaultAction: nil)
        for (field, value) in try value.object(at: path()).members {
            if value.isNull {
                if field == "owner" { warnings.append(TrackerData.nullOwnerWarning(file: file, at: path().appending(key: field))) }
                continue
            }
            let problem = lenient { () throws(JSONDecodingError) in
            switch field {
            case "domain":
                tracker.domain = DomainName.normalized(try value.string(at: path().appending(key: field)))
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
                    var read: Tracker.Rule?
                    if let problem = lenient({ () throws(JSONDecodingError) in
                        read = try rule(element, at: path().appending(key: "rules").appending(index: index))
                    }) {
                        warnings.append(TrackerData.warning(problem, file: file, consequence: "the rule is dropped"))
                    }
                    if let rule = read {
                        if let action = rule.action, !action.isSupported {
                            warnings.append(InputWarning(
                                file: file,
                                path: path().appending(key: "rules").appending(index: index).appending(key: "action"),
                                message: "unsupported action \"\(action.rawValue)\"; the rule is skipped"))
                        }
                        tracker.rules.append(rule)
                    }
                }
            case "subdomains":
                tracker.subdomains = try value.stringArray(at: path().appending(key: field))
            default:
                break
            }
            }
            if let problem {
                warnings.append(TrackerData.warning(
                    problem, file: file, consequence: TrackerData.consequence(ofDroppingTrackerField: field)))
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
            map[DomainName.normalized(key)] = lowercasingValues ? DomainName.normalized(string) : string
        }
        return map
    }
}

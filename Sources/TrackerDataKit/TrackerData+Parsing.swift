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
    /// What is strict and what is lenient follows DuckDuckGo's decoder (TrackerRadarKit), which
    /// fails the whole file in some places and drops a value in others; where it drops one, we
    /// drop the same and report it in ``warnings`` with its JSON path, never in silence:
    /// - Unknown fields anywhere are ignored, so newer files still load; `null` counts as absent
    ///   for optional fields.
    /// - Errors (DuckDuckGo's decode fails): the root, `trackers`, `entities` or `domains` not
    ///   an object (`null` included), a tracker or an entity that is not an object, a field of
    ///   an entity of the wrong type, a `domains` or `cnames` value that is not a string.
    /// - Warnings, the value dropped (DuckDuckGo drops it): a tracker field of the wrong type
    ///   (`domain`, `owner`, `prevalence`, `fingerprinting`, `cookies`, `categories`, `default`,
    ///   `rules`, `subdomains`: the field is ignored); a rule that is not an object, lacks
    ///   `rule`, or has a field of the wrong type (the rule is dropped); `"owner": null` (the
    ///   tracker has no owner, so no site is first party to it); a `readme` that is not a string.
    /// - An unknown rule `action` or tracker `default` is kept in the model and reported in
    ///   ``warnings``; the resolver skips such a rule (DuckDuckGo drops it when decoding) and
    ///   treats such a default as `ignore`.
    public init(parsing bytes: [UInt8], file: String? = nil) throws(TrackerDataError) {
        try self.init(parsing: bytes, file: file, keepingEntityRecords: true)
    }

    /// Reads a tds.json document as ``init(parsing:file:)`` does, with or without its entity
    /// records.
    ///
    /// - Parameters:
    ///   - bytes: the UTF-8 JSON.
    ///   - file: the name used in error messages and warnings.
    ///   - keepingEntityRecords: false to leave ``entities`` empty: each entity is still read
    ///     and checked (the same errors), but not kept. For a caller that reads only trackers,
    ///     ``domains`` and ``cnames`` (a rule list build), so that the records never take room:
    ///     at 1,000,000 trackers their table alone is about 230 MB.
    /// - Throws: ``TrackerDataError``, the same as ``init(parsing:file:)``.
    public init(parsing bytes: [UInt8], file: String?, keepingEntityRecords: Bool) throws(TrackerDataError) {
        self = try TrackerDataError.reading(bytes, file: file) { (reader) throws(JSONReadError) in
            try TrackerData(reader: &reader, file: file, keepingEntityRecords: keepingEntityRecords)
        }
    }

    /// Reads a tds.json document as ``init(parsing:file:keepingEntityRecords:)`` does, giving
    /// the pages of `bytes` back to the system as the parse passes them: the document and what
    /// is made of it are not held in full at once (at 1,000,000 trackers, 389 MB of JSON).
    ///
    /// - Parameters:
    ///   - bytes: the UTF-8 JSON, used up by the parse.
    ///   - file: the name used in error messages and warnings.
    ///   - keepingEntityRecords: false to check the entities without keeping them.
    ///   - readAgain: the same document again, asked for only when it has a problem (the bytes
    ///     before the problem may be gone): its error is then the one
    ///     ``init(parsing:file:keepingEntityRecords:)`` reports.
    /// - Throws: ``TrackerDataError``, the same as ``init(parsing:file:)``.
    public init(
        consuming bytes: consuming [UInt8], file: String?, keepingEntityRecords: Bool,
        readAgain: () throws(TrackerDataError) -> [UInt8]
    ) throws(TrackerDataError) {
        do throws(JSONReadError) {
            self = try JSONReader.read(releasingReadBytesOf: bytes) { (reader) throws(JSONReadError) in
                try TrackerData(reader: &reader, file: file, keepingEntityRecords: keepingEntityRecords)
            }
        } catch {
            try self.init(parsing: readAgain(), file: file, keepingEntityRecords: keepingEntityRecords)
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

    // The document is read straight into the model, without a JSON tree (which cost a third of
    // the parse). Each object's members are read once in document order with a switch on the
    // key, so unknown fields are skipped and a duplicate key's last value wins, as in
    // `JSON.parse`. Paths are autoclosures: they are built only for an error or a warning.

    private init(reader: inout JSONReader, file: String?, keepingEntityRecords: Bool) throws(JSONReadError) {
        self.init()
        var hasTrackers = false
        var members = try reader.enterObject(at: .root)
        while let key = try reader.nextKey(in: &members) {
            if try reader.skipNull() {
                if let name = Self.requiredMembers.first(where: { $0 ~= key }) {
                    // DuckDuckGo's decoder needs these: null fails it, as a wrong type does.
                    throw .invalidValue(Self.nullError(at: JSONPath.root.appending(key: name.description), expected: "an object"))
                }
                continue
            }
            switch key {
            case "trackers":
                hasTrackers = true
                try readTrackers(&reader, file: file)
            case "entities":
                try readEntities(&reader, keeping: keepingEntityRecords)
            case "domains":
                domains = try Self.stringMap(&reader, at: JSONPath.root.appending(key: "domains"), lowercasingValues: false)
            case "cnames":
                cnames = try Self.stringMap(&reader, at: JSONPath.root.appending(key: "cnames"), lowercasingValues: true)
            case "_builtWith":
                builtWith = try reader.readValue()
            case "readme":
                if let problem = try Self.readLeniently(&reader, { (reader) throws(JSONReadError) in
                    readme = try reader.readString(at: JSONPath.root.appending(key: "readme"))
                }) {
                    warnings.append(Self.warning(problem, file: file, consequence: "the field is ignored"))
                }
            default:
                try reader.skipValue()
            }
        }
        // A tds without trackers is refused, as DuckDuckGo's decoders refuse it: a server that
        // answers `{}` must not turn blocking off. An empty one is valid, and said.
        guard hasTrackers else {
            throw .invalidValue(JSONDecodingError(
                path: .root, reason: "the member \"trackers\" is missing; a blocklist without it would block nothing"))
        }
        if trackers.isEmpty {
            warnings.append(InputWarning(
                file: file, path: JSONPath.root.appending(key: "trackers"), message: "empty: this blocklist blocks no tracker"))
        }
    }

    /// The members a tds must not have as `null`.
    static let requiredMembers: [StaticString] = ["trackers", "entities", "domains"]

    /// The error for a `null` where `expected` is needed, in JSONNode's words.
    static func nullError(at path: JSONPath, expected: String) -> JSONDecodingError {
        JSONDecodingError(path: path, reason: "expected \(expected), found null")
    }

    /// Reads the value that comes next with `read`; a wrong value (not a syntax error) is
    /// skipped and returned, for the caller to report.
    private static func readLeniently(
        _ reader: inout JSONReader, _ read: (inout JSONReader) throws(JSONReadError) -> Void
    ) throws(JSONReadError) -> JSONDecodingError? {
        let start = reader.checkpoint
        do throws(JSONReadError) {
            try read(&reader)
            return nil
        } catch {
            guard case .invalidValue(let problem) = error else { throw error }
            reader.restore(start)
            try reader.skipValue()
            return problem
        }
    }

    /// The warning for a value dropped because of `problem`.
    static func warning(_ problem: JSONDecodingError, file: String?, consequence: String) -> InputWarning {
        InputWarning(file: file, path: problem.path, message: "\(problem.reason); \(consequence)")
    }

    /// ``consequence(ofDroppingTrackerField:)-(String)`` of a key as read.
    private static func consequence(ofDroppingTrackerField field: JSONKey) -> String {
        if "owner" ~= field { return consequence(ofDroppingTrackerField: "owner") }
        if "rules" ~= field { return consequence(ofDroppingTrackerField: "rules") }
        if "default" ~= field { return consequence(ofDroppingTrackerField: "default") }
        return consequence(ofDroppingTrackerField: "")
    }

    /// What dropping a tracker's field of the wrong type means.
    static func consequence(ofDroppingTrackerField field: String) -> String {
        switch field {
        case "owner": "the owner is ignored, so no site is first party to this tracker"
        case "rules": "the tracker's rules are ignored"
        case "default": "the default is ignored, so requests no rule matches are not blocked"
        default: "the field is ignored"
        }
    }

    /// The warning for `"owner": null`.
    static func nullOwnerWarning(file: String?, at path: JSONPath) -> InputWarning {
        InputWarning(file: file, path: path, message: "null; the tracker has no owner, so no site is first party to it")
    }

    private mutating func readTrackers(_ reader: inout JSONReader, file: String?) throws(JSONReadError) {
        let trackersPath = JSONPath.root.appending(key: "trackers")
        var rules: [Tracker.Rule] = []
        var members = try reader.enterObject(at: trackersPath)
        // The table is sized once, from the members counted ahead, and each tracker goes into it
        // as it is read, in document order (the last of a repeated key wins): gathered first,
        // the pairs it was made from took half as much again as the table (75 MB at 1,000,000
        // trackers), and inserting into a growing table rehashed every key at each growth.
        if let count = reader.countObjectMembers(from: members) {
            trackers.reserveCapacity(trackers.count + count)
        }
        while let key = try reader.nextKey(in: &members) {
            let domain = key.string
            let tracker = try Self.tracker(
                &reader, key: domain, at: trackersPath.appending(key: domain), file: file, warnings: &warnings,
                rules: &rules)
            trackers[DomainName.normalized(domain)] = tracker
            // Between two members, the bytes read so far are given back when the reader may.
            reader.releaseReadBytes()
        }
    }

    /// Adds `pairs` read in document order to `dictionary`, the last value of a key winning.
    ///
    /// Members are gathered first and hashed into storage sized once: inserting them as they
    /// were read rehashed every key at each growth of the dictionary, a fifth of the parse.
    private static func insert<Value>(_ pairs: consuming [(String, Value)], into dictionary: inout [String: Value]) {
        guard dictionary.isEmpty else {
            // A repeated top-level key (`"trackers"` twice) adds to what the first one read.
            for (key, value) in pairs { dictionary[key] = value }
            return
        }
        dictionary.reserveCapacity(pairs.count)
        // From the last pair, each moved out of the array rather than copied: the first value
        // met for a key is then the document's last, which wins.
        dictionary.merge(sequence(state: pairs) { $0.popLast() }, uniquingKeysWith: { kept, _ in kept })
    }

    /// Reads the entities, into ``entities`` if `keeping`; otherwise each is checked and dropped.
    private mutating func readEntities(_ reader: inout JSONReader, keeping: Bool) throws(JSONReadError) {
        let entitiesPath = JSONPath.root.appending(key: "entities")
        var read: [(String, Entity)] = []
        var members = try reader.enterObject(at: entitiesPath)
        while let key = try reader.nextKey(in: &members) {
            let name = key.string
            let entity = try Self.entity(&reader, name: name, at: entitiesPath.appending(key: name))
            if keeping { read.append((name, entity)) }
            reader.releaseReadBytes()
        }
        Self.insert(read, into: &entities)
    }

    /// Reads a tracker; `rules` is where its rules are read before they are copied into an array
    /// of their own at its size (grown by doubling, three rules had room for four), kept from one
    /// tracker to the next.
    private static func tracker(
        _ reader: inout JSONReader, key: String, at path: @autoclosure () -> JSONPath, file: String?,
        warnings: inout [InputWarning], rules: inout [Tracker.Rule]
    ) throws(JSONReadError) -> Tracker {
        var tracker = Tracker(domain: DomainName.normalized(key), defaultAction: nil)
        var metadata = Tracker.Metadata()
        var members = try reader.enterObject(at: path())
        while let field = try reader.nextKey(in: &members) {
            if try reader.skipNull() {
                if "owner" ~= field { warnings.append(nullOwnerWarning(file: file, at: path().appending(key: "owner"))) }
                continue
            }
            // The key is valid only until the next read: what dropping it means is taken now.
            let consequence = consequence(ofDroppingTrackerField: field)
            let problem = try readLeniently(&reader) { (reader) throws(JSONReadError) in
            switch field {
            case "domain":
                tracker.domain = DomainName.normalized(try reader.readString(at: path().appending(key: "domain")))
            case "owner":
                tracker.owner = try owner(&reader, at: path().appending(key: "owner"))
            case "prevalence":
                metadata.prevalence = try reader.readDouble(at: path().appending(key: "prevalence"))
            case "fingerprinting":
                metadata.fingerprinting = try reader.readInt(at: path().appending(key: "fingerprinting"))
            case "cookies":
                metadata.cookies = try reader.readDouble(at: path().appending(key: "cookies"))
            case "categories":
                metadata.categories = try reader.readStringArray(at: path().appending(key: "categories"))
            case "default":
                let action = Tracker.DefaultAction(rawValue: try reader.readString(at: path().appending(key: "default")))
                if case .unsupported(let name) = action {
                    warnings.append(InputWarning(
                        file: file, path: path().appending(key: "default"),
                        message: "unsupported default action \"\(name.excerpt())\"; requests no rule matches will not be blocked"))
                }
                tracker.defaultAction = action
            case "rules":
                rules.removeAll(keepingCapacity: true)
                try readRules(&reader, into: &rules, at: path().appending(key: "rules"), file: file, warnings: &warnings)
                Tracker.Rule.Pattern.share(in: &rules)
                tracker.rules.reserveCapacity(tracker.rules.count + rules.count)
                tracker.rules.append(contentsOf: rules)
            case "subdomains":
                metadata.subdomains = try reader.readStringArray(at: path().appending(key: "subdomains"))
            default:
                try reader.skipValue()
            }
            }
            if let problem { warnings.append(warning(problem, file: file, consequence: consequence)) }
        }
        tracker.setMetadata(metadata)
        return tracker
    }

    /// Appends the rules of a `rules` array (a duplicate `rules` key adds its rules after the
    /// first one's), warning of unsupported actions.
    private static func readRules(
        _ reader: inout JSONReader, into rules: inout [Tracker.Rule], at path: @autoclosure () -> JSONPath,
        file: String?, warnings: inout [InputWarning]
    ) throws(JSONReadError) {
        var elements = try reader.enterArray(at: path())
        var index = 0
        while try reader.nextElement(in: &elements) {
            var read: Tracker.Rule?
            if let problem = try readLeniently(&reader, { (reader) throws(JSONReadError) in
                read = try rule(&reader, at: path().appending(index: index))
            }) {
                warnings.append(warning(problem, file: file, consequence: "the rule is dropped"))
            }
            if let rule = read {
                if let action = rule.action, !action.isSupported {
                    warnings.append(InputWarning(
                        file: file, path: path().appending(index: index).appending(key: "action"),
                        message: "unsupported action \"\(action.rawValue.excerpt())\"; the rule is skipped"))
                }
                rules.append(rule)
            }
            index += 1
        }
    }

    private static func owner(
        _ reader: inout JSONReader, at path: @autoclosure () -> JSONPath
    ) throws(JSONReadError) -> Tracker.Owner {
        var owner = Tracker.Owner(name: "")
        owner.name = try readObject(&reader, requiring: "name", at: path) { (reader, field) throws(JSONReadError) in
            switch field {
            case "displayName": owner.displayName = try reader.readString(at: path().appending(key: "displayName"))
            case "ownedBy": owner.ownedBy = try reader.readString(at: path().appending(key: "ownedBy"))
            case "privacyPolicy": owner.privacyPolicy = try reader.readString(at: path().appending(key: "privacyPolicy"))
            case "url": owner.url = try reader.readString(at: path().appending(key: "url"))
            case "localizedName": owner.localizedName = try reader.readString(at: path().appending(key: "localizedName"))
            default: try reader.skipValue()
            }
        }
        return owner
    }

    private static func rule(
        _ reader: inout JSONReader, at path: @autoclosure () -> JSONPath
    ) throws(JSONReadError) -> Tracker.Rule {
        var action: Tracker.Rule.Action?
        var fields = Tracker.Rule.RareFields()
        let pattern = try readObject(&reader, requiring: "rule", at: path) { (reader, field) throws(JSONReadError) in
            switch field {
            case "action":
                action = Tracker.Rule.Action(rawValue: try reader.readString(at: path().appending(key: "action")))
            case "surrogate":
                fields.surrogate = try reader.readString(at: path().appending(key: "surrogate"))
            case "options":
                fields.options = try condition(&reader, at: path().appending(key: "options"))
            case "exceptions":
                fields.exceptions = try condition(&reader, at: path().appending(key: "exceptions"))
            case "fingerprinting":
                fields.fingerprinting = try reader.readInt(at: path().appending(key: "fingerprinting"))
            case "cookies":
                fields.cookies = try reader.readDouble(at: path().appending(key: "cookies"))
            case "comment":
                fields.comment = try reader.readString(at: path().appending(key: "comment"))
            default:
                try reader.skipValue()
            }
        }
        return Tracker.Rule(rule: pattern, action: action, fields: fields)
    }

    /// Reads an object that must have the string member `required` (a rule's `rule`, an owner's
    /// `name`) and returns that string; `readMember` reads each other member that is not `null`.
    ///
    /// Problems are reported in the order of a lookup before the walk: first a missing or
    /// mistyped `required` (its last occurrence, which a lookup finds), then the first wrong
    /// member in document order. As the reader cannot look ahead, on any problem the object is
    /// read again as a tree to see which comes first.
    private static func readObject(
        _ reader: inout JSONReader, requiring required: StaticString, at path: () -> JSONPath,
        _ readMember: (inout JSONReader, JSONKey) throws(JSONReadError) -> Void
    ) throws(JSONReadError) -> String {
        let start = reader.checkpoint
        var memberError: JSONReadError?
        do throws(JSONReadError) {
            var requiredString: String?
            var members = try reader.enterObject(at: path())
            while let field = try reader.nextKey(in: &members) {
                if required ~= field {
                    requiredString = try reader.readStringIfPresent()
                } else if try !reader.skipNull() {
                    try readMember(&reader, field)
                }
            }
            if let requiredString { return requiredString }
        } catch {
            guard case .invalidValue = error else { throw error }
            memberError = error
        }
        reader.restore(start)
        let value = try reader.readValue()
        do throws(JSONDecodingError) {
            let requiredKey = required.description
            _ = try JSONNode(value, path: path()).required(requiredKey).string()
        } catch {
            throw .invalidValue(error)
        }
        guard let memberError else {
            preconditionFailure("\(path()): \(required) is a string, yet it was not read as one")
        }
        throw memberError
    }

    private static func condition(
        _ reader: inout JSONReader, at path: @autoclosure () -> JSONPath
    ) throws(JSONReadError) -> Tracker.Rule.Condition {
        var condition = Tracker.Rule.Condition()
        var members = try reader.enterObject(at: path())
        while let field = try reader.nextKey(in: &members) {
            if try reader.skipNull() { continue }
            switch field {
            case "domains":
                condition.domains = try reader.readStringArray(at: path().appending(key: "domains"))
            case "types":
                condition.types = try reader.readStringArray(at: path().appending(key: "types")).map(RequestType.init(rawValue:))
            default:
                try reader.skipValue()
            }
        }
        return condition
    }

    private static func entity(
        _ reader: inout JSONReader, name: String, at path: @autoclosure () -> JSONPath
    ) throws(JSONReadError) -> Entity {
        var entity = Entity(name: name)
        var members = try reader.enterObject(at: path())
        while let field = try reader.nextKey(in: &members) {
            if try reader.skipNull() { continue }
            switch field {
            case "displayName": entity.displayName = try reader.readString(at: path().appending(key: "displayName"))
            case "domains": entity.domains = try reader.readStringArray(at: path().appending(key: "domains"))
            case "prevalence": entity.prevalence = try reader.readDouble(at: path().appending(key: "prevalence"))
            default: try reader.skipValue()
            }
        }
        return entity
    }

    private static func stringMap(
        _ reader: inout JSONReader, at path: @autoclosure () -> JSONPath, lowercasingValues: Bool
    ) throws(JSONReadError) -> [String: String] {
        var read: [(String, String)] = []
        var members = try reader.enterObject(at: path())
        while let key = try reader.nextKey(in: &members) {
            let name = key.string
            let string = try reader.readString(at: path().appending(key: name))
            read.append((DomainName.normalized(name), lowercasingValues ? DomainName.normalized(string) : string))
            reader.releaseReadBytes()
        }
        var map: [String: String] = [:]
        insert(read, into: &map)
        return map
    }
}

import TrackerlessCore

extension PrivacyConfiguration {
    /// Reads a privacy configuration document.
    ///
    /// DuckDuckGo's clients (BrowserServicesKit's `PrivacyConfigurationData`) refuse only a
    /// document whose root is not an object; anything else of the wrong type they drop in
    /// silence. We drop the same, and report each in ``warnings`` with its JSON path and what
    /// dropping it means:
    /// - `version` (a number), `readme` and a feature's `hash` (strings): the field is ignored;
    /// - `features` not an object: every feature is ignored (so `contentBlocking` is off);
    /// - a feature that is not an object or has no string `state`: the feature is ignored;
    /// - `exceptions`, `unprotectedTemporary` not an array: ignored; an entry that is not
    ///   `{"domain": string, "reason"?: string}`: the entry is dropped;
    /// - `settings` not an object: the settings are ignored;
    /// - the settings the SDK reads (`trackerAllowlist`'s `allowlistedTrackers`,
    ///   `requestBlocklist`'s `blockedRequests`, the `cookie` feature's `trackerCookie` and
    ///   `excludedCookieDomains`, and any feature's `aboutBlankEnabled`, `aboutBlankSites` and
    ///   `scripts`): the wrong part is dropped.
    /// Unknown fields are ignored.
    ///
    /// - Parameters:
    ///   - bytes: the UTF-8 JSON.
    ///   - file: the name used in error messages and warnings.
    ///   - publicSuffixList: used to check that request-blocklist entries are keyed by eTLD+1.
    public init(
        parsing bytes: [UInt8], file: String? = nil, publicSuffixList: PublicSuffixList = .bundled
    ) throws(TrackerDataError) {
        self = try TrackerDataError.reading(bytes, file: file) { (reader) throws(JSONReadError) in
            try PrivacyConfiguration(reader: &reader, file: file, publicSuffixList: publicSuffixList)
        }
    }

    /// Reads the privacy configuration file at `path`.
    public init(contentsOfFile path: String, publicSuffixList: PublicSuffixList = .bundled) throws(TrackerDataError) {
        let bytes: [UInt8]
        do throws(FileError) {
            bytes = try FileIO.read(path: path)
        } catch {
            throw .unreadable(error)
        }
        try self.init(parsing: bytes, file: path, publicSuffixList: publicSuffixList)
    }

    // Members are read once in document order. As a lookup finds them, the last of duplicate
    // keys wins (with its warnings only) and `null` counts as absent; warnings are reported in
    // the order of the fields below, whatever the order of the document.

    private init(reader: inout JSONReader, file: String?, publicSuffixList: PublicSuffixList) throws(JSONReadError) {
        self.init()
        var version: Lenient<Double>?, readme: Lenient<String>?
        var features: Lenient<[String: Feature]>?, unprotectedTemporary: Lenient<[Exception]>?
        let featuresPath = JSONPath.root.appending(key: "features")
        var members = try reader.enterObject(at: .root)
        while let key = try reader.nextKey(in: &members) {
            let isNull = try reader.skipNull()
            switch key {
            case "version":
                version = isNull ? nil : try Lenient(&reader, file: file, "the field is ignored") { (reader) throws(JSONReadError) in
                    try reader.readDouble(at: JSONPath.root.appending(key: "version"))
                }
            case "readme":
                readme = isNull ? nil : try Lenient(&reader, file: file, "the field is ignored") { (reader) throws(JSONReadError) in
                    try reader.readString(at: JSONPath.root.appending(key: "readme"))
                }
            case "features":
                features = isNull ? nil : try Self.features(&reader, at: featuresPath, file: file, "every feature is ignored, so contentBlocking is off")
            case "unprotectedTemporary":
                unprotectedTemporary = isNull ? nil : try Self.exceptions(&reader, at: JSONPath.root.appending(key: "unprotectedTemporary"), file: file)
            default:
                if !isNull { try reader.skipValue() }
            }
        }
        self.version = version?.value
        self.readme = readme?.value
        self.features = features?.value ?? [:]
        self.unprotectedTemporary = unprotectedTemporary?.value ?? []
        var reader = LenientReader(file: file)
        reader.warnings = (version?.warnings ?? []) + (readme?.warnings ?? []) + (features?.warnings ?? [])
            + (unprotectedTemporary?.warnings ?? [])
        for name in self.features.keys.sorted() {
            guard let feature = self.features[name] else { continue }
            Self.checkSettings(of: feature, named: name, at: featuresPath.appending(key: name), reader: &reader)
        }
        warnings = reader.warnings
        if let settings = self.features[FeatureName.trackerAllowlist]?.settings,
            case .object(let object) = settings, let allowlisted = object[nonNull: "allowlistedTrackers"]
        {
            trackerAllowlist = TrackerAllowlist(
                allowlistedTrackers: allowlisted, file: file,
                at: featuresPath.appending(key: FeatureName.trackerAllowlist).appending(key: "settings")
                    .appending(key: "allowlistedTrackers"))
            warnings += trackerAllowlist.warnings
        }
        if let settings = self.features[FeatureName.requestBlocklist]?.settings,
            case .object(let object) = settings, let blocked = object[nonNull: "blockedRequests"]
        {
            requestBlocklist = RequestBlocklist(
                blockedRequests: blocked, file: file,
                at: featuresPath.appending(key: FeatureName.requestBlocklist).appending(key: "settings")
                    .appending(key: "blockedRequests"),
                publicSuffixList: publicSuffixList)
            warnings += requestBlocklist.warnings
        }
    }

    /// A value DuckDuckGo's clients drop when it has the wrong type: nil then, with a warning.
    struct Lenient<Value> {
        var value: Value?
        var warnings: [InputWarning] = []

        /// Reads the value that comes next with `read`; a wrong value is skipped with a warning
        /// saying `consequence`.
        init(
            _ reader: inout JSONReader, file: String?, _ consequence: String,
            _ read: (inout JSONReader, inout [InputWarning]) throws(JSONReadError) -> Value
        ) throws(JSONReadError) {
            var warnings: [InputWarning] = []
            switch try reader.readResult({ (reader) throws(JSONReadError) in try read(&reader, &warnings) }) {
            case .success(let value):
                self.value = value
                self.warnings = warnings
            case .failure(.invalidValue(let problem)):
                self.warnings = [LenientReader.warning(problem, file: file, consequence)]
            case .failure(let error):
                throw error
            }
        }

        init(
            _ reader: inout JSONReader, file: String?, _ consequence: String,
            _ read: (inout JSONReader) throws(JSONReadError) -> Value
        ) throws(JSONReadError) {
            try self.init(&reader, file: file, consequence) { (reader, _) throws(JSONReadError) in try read(&reader) }
        }
    }

    /// Collects a warning for each value of the settings tree dropped because of its type.
    struct LenientReader {
        var file: String?
        var warnings: [InputWarning] = []

        /// `decode(node)`, or nil with a warning saying `consequence`.
        mutating func read<T>(
            _ node: JSONNode, _ consequence: String, _ decode: (JSONNode) throws(JSONDecodingError) -> T
        ) -> T? {
            do throws(JSONDecodingError) {
                return try decode(node)
            } catch {
                warnings.append(Self.warning(error, file: file, consequence))
                return nil
            }
        }

        static func warning(_ problem: JSONDecodingError, file: String?, _ consequence: String) -> InputWarning {
            InputWarning(file: file, path: problem.path, message: "\(problem.reason); \(consequence)")
        }
    }

    /// The features of the object that comes next, by name (the last of duplicates wins), with
    /// the warnings of every one in document order.
    private static func features(
        _ reader: inout JSONReader, at path: JSONPath, file: String?, _ consequence: String
    ) throws(JSONReadError) -> Lenient<[String: Feature]> {
        try Lenient(&reader, file: file, consequence) { (reader, warnings) throws(JSONReadError) in
            var features: [String: Feature] = [:]
            var members = try reader.enterObject(at: path)
            while let key = try reader.nextKey(in: &members) {
                let name = key.string
                let (feature, featureWarnings) = try feature(&reader, at: path.appending(key: name), file: file)
                warnings += featureWarnings
                if let feature { features[name] = feature }
            }
            return features
        }
    }

    /// The feature that comes next, nil when it is not an object with a string `state`, and the
    /// warnings of its members in the order `exceptions`, `settings`, `hash`, `features`.
    private static func feature(
        _ reader: inout JSONReader, at path: JSONPath, file: String?
    ) throws(JSONReadError) -> (Feature?, [InputWarning]) {
        let consequence = "the feature is ignored"
        guard try reader.nextKind() == .object else {
            let value = try reader.readValue()
            let problem = JSONDecodingError(path: path, reason: "expected an object, found \(JSONNode.typeName(of: value))")
            return (nil, [LenientReader.warning(problem, file: file, consequence)])
        }
        var state: Result<String, JSONReadError>?
        var exceptions: Lenient<[Exception]>?, settings: Lenient<JSONValue>?, hash: Lenient<String>?
        var minSupportedVersion: JSONValue?, subfeatures: Lenient<[String: Feature]>?
        var members = try reader.enterObject(at: path)
        while let key = try reader.nextKey(in: &members) {
            if "state" ~= key {
                // `null` is a state of the wrong type, not a missing one.
                state = try reader.readResult { (reader) throws(JSONReadError) in try reader.readString(at: path.appending(key: "state")) }
                continue
            }
            let isNull = try reader.skipNull()
            switch key {
            case "exceptions":
                exceptions = isNull ? nil : try Self.exceptions(&reader, at: path.appending(key: "exceptions"), file: file)
            case "settings":
                settings = isNull ? nil : try Lenient(&reader, file: file, "the settings are ignored") { (reader) throws(JSONReadError) in
                    guard try reader.nextKind() == .object else {
                        _ = try reader.enterObject(at: path.appending(key: "settings"))
                        preconditionFailure("\(path): settings that are not an object were entered")
                    }
                    return try reader.readValue()
                }
            case "minSupportedVersion":
                minSupportedVersion = isNull ? nil : try reader.readValue()
            case "hash":
                hash = isNull ? nil : try Lenient(&reader, file: file, "the field is ignored") { (reader) throws(JSONReadError) in
                    try reader.readString(at: path.appending(key: "hash"))
                }
            case "features":
                subfeatures = isNull ? nil : try Self.features(&reader, at: path.appending(key: "features"), file: file, "the sub-features are ignored")
            default:
                if !isNull { try reader.skipValue() }
            }
        }
        switch state {
        case nil:
            let problem = JSONDecodingError(path: path, reason: "missing required member \"state\"")
            return (nil, [LenientReader.warning(problem, file: file, consequence)])
        case .failure(.invalidValue(let problem)):
            return (nil, [LenientReader.warning(problem, file: file, consequence)])
        case .failure(let error):
            throw error
        case .success(let name):
            var feature = Feature(state: Feature.State(rawValue: name))
            feature.exceptions = exceptions?.value ?? []
            feature.settings = settings?.value
            feature.minSupportedVersion = minSupportedVersion
            feature.hash = hash?.value
            feature.features = subfeatures?.value ?? [:]
            let warnings = (exceptions?.warnings ?? []) + (settings?.warnings ?? []) + (hash?.warnings ?? [])
                + (subfeatures?.warnings ?? [])
            return (feature, warnings)
        }
    }

    /// The exceptions of the array that comes next; an entry that is not `{"domain": string,
    /// "reason"?: string}` is dropped with a warning.
    private static func exceptions(
        _ reader: inout JSONReader, at path: JSONPath, file: String?
    ) throws(JSONReadError) -> Lenient<[Exception]> {
        try Lenient(&reader, file: file, "the list is ignored") { (reader, warnings) throws(JSONReadError) in
            var exceptions: [Exception] = []
            var elements = try reader.enterArray(at: path)
            var index = 0
            while try reader.nextElement(in: &elements) {
                let entry = try Lenient(&reader, file: file, "the entry is dropped") { (reader) throws(JSONReadError) in
                    try exception(&reader, at: path.appending(index: index))
                }
                warnings += entry.warnings
                if let exception = entry.value { exceptions.append(exception) }
                index += 1
            }
            return exceptions
        }
    }

    /// `{"domain": string, "reason"?: string}`, the domain checked before the reason.
    private static func exception(_ reader: inout JSONReader, at path: JSONPath) throws(JSONReadError) -> Exception {
        var domain: Result<String, JSONReadError>?, reason: Result<String, JSONReadError>?
        var members = try reader.enterObject(at: path)
        while let key = try reader.nextKey(in: &members) {
            switch key {
            case "domain":
                domain = try reader.readResult { (reader) throws(JSONReadError) in try reader.readString(at: path.appending(key: "domain")) }
            case "reason":
                reason = try reader.skipNull()
                    ? nil : try reader.readResult { (reader) throws(JSONReadError) in try reader.readString(at: path.appending(key: "reason")) }
            default:
                try reader.skipValue()
            }
        }
        guard let domain else {
            throw .invalidValue(JSONDecodingError(path: path, reason: "missing required member \"domain\""))
        }
        return Exception(domain: HostMatching.normalized(try domain.get()), reason: try reason?.get())
    }

    /// Warns of the settings the SDK reads that it cannot use: `aboutBlankEnabled` (a string),
    /// `aboutBlankSites` and `scripts` (arrays of `{"domain": string}`) of any feature, and the
    /// cookie feature's `trackerCookie` and `excludedCookieDomains` (strings or `{"domain"}`).
    private static func checkSettings(of feature: Feature, named name: String, at path: JSONPath, reader: inout LenientReader) {
        guard case .object(let settings)? = feature.settings else { return }
        let settingsPath = path.appending(key: "settings")
        func checkString(_ key: String) {
            guard let value = settings[nonNull: key] else { return }
            _ = reader.read(JSONNode(value, path: settingsPath.appending(key: key)), "the setting is ignored") {
                (node) throws(JSONDecodingError) in try node.string()
            }
        }
        func checkDomains(_ key: String, plainStringsAllowed: Bool) {
            guard let value = settings[nonNull: key] else { return }
            guard let elements = reader.read(JSONNode(value, path: settingsPath.appending(key: key)), "the setting is ignored", {
                (node) throws(JSONDecodingError) in try node.array()
            }) else { return }
            for element in elements {
                if plainStringsAllowed, case .string = element.value { continue }
                _ = reader.read(element, "the entry is dropped") { (element) throws(JSONDecodingError) in
                    try element.required("domain").string()
                }
            }
        }
        checkString("aboutBlankEnabled")
        checkDomains("aboutBlankSites", plainStringsAllowed: false)
        checkDomains("scripts", plainStringsAllowed: false)
        if name == CookieProtection.Settings.featureName || name == CookieProtection.Settings.legacyFeatureName {
            checkString("trackerCookie")
            checkDomains("excludedCookieDomains", plainStringsAllowed: true)
        }
    }
}

extension JSONObject {
    /// The member named `key`, treating an explicit `null` as absent: producers of optional
    /// fields write either.
    subscript(nonNull key: String) -> JSONValue? {
        guard let value = self[key] else { return nil }
        if case .null = value { return nil }
        return value
    }
}

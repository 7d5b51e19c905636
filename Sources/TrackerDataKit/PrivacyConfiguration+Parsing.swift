public import TrackerlessCore

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
        let allowlistPath = featuresPath.appending(key: FeatureName.trackerAllowlist).appending(key: "settings")
        if let allowlist = Self.readSetting(
            "allowlistedTrackers", of: self.features[FeatureName.trackerAllowlist], { (reader) throws(JSONReadError) in
                try TrackerAllowlist(allowlistedTrackers: &reader, file: file, at: allowlistPath.appending(key: "allowlistedTrackers"))
            })
        {
            trackerAllowlist = allowlist
            warnings += trackerAllowlist.warnings
        }
        let blocklistPath = featuresPath.appending(key: FeatureName.requestBlocklist).appending(key: "settings")
        if let blocklist = Self.readSetting(
            "blockedRequests", of: self.features[FeatureName.requestBlocklist], { (reader) throws(JSONReadError) in
                try RequestBlocklist(
                    blockedRequests: &reader, file: file, at: blocklistPath.appending(key: "blockedRequests"),
                    publicSuffixList: publicSuffixList)
            })
        {
            requestBlocklist = blocklist
            warnings += requestBlocklist.warnings
        }
    }

    /// Reads the last member `key` of `feature`'s settings with `read`, when the settings are an
    /// object with such a member that is not `null`.
    private static func readSetting<Value>(
        _ key: String, of feature: Feature?, _ read: (inout JSONReader) throws(JSONReadError) -> Value
    ) -> Value? {
        guard let settings = feature?.settingsText else { return nil }
        // The settings were checked for syntax when the document was read, and `read` drops
        // wrong values with warnings: reading them cannot fail.
        let value = try? settings.read { (reader) throws(JSONReadError) -> Value? in
            guard let object = try reader.indexObjectIfPresent(at: .root) else { return nil }
            defer { reader.leave(object) }
            guard reader.seek(key, in: object), !(try reader.skipNull()) else { return nil }
            return try read(&reader)
        }
        return value ?? nil
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

        /// Reads the value that comes next with `read`, or skips it and returns nil with a warning
        /// saying `consequence`.
        mutating func read<T>(
            _ reader: inout JSONReader, _ consequence: String, _ read: (inout JSONReader) throws(JSONReadError) -> T
        ) throws(JSONReadError) -> T? {
            switch try reader.readResult(read) {
            case .success(let value):
                return value
            case .failure(.invalidValue(let problem)):
                warnings.append(Self.warning(problem, file: file, consequence))
                return nil
            case .failure(let error):
                throw error
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
        let kind = try reader.nextKind()
        guard kind == .object else {
            try reader.skipValue()
            let problem = JSONDecodingError(path: path, reason: "expected an object, found \(kind.typeName)")
            return (nil, [LenientReader.warning(problem, file: file, consequence)])
        }
        var state: Result<String, JSONReadError>?
        var exceptions: Lenient<[Exception]>?, settings: Lenient<JSONText>?, hash: Lenient<String>?
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
                    return try reader.readText()
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
            feature.settingsText = settings?.value
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
        return Exception(domain: DomainName.normalized(try domain.get()), reason: try reason?.get())
    }

    /// Warns of the settings the SDK reads that it cannot use: `aboutBlankEnabled` (a string),
    /// `aboutBlankSites` and `scripts` (arrays of `{"domain": string}`) of any feature, and the
    /// cookie feature's `trackerCookie` and `excludedCookieDomains` (strings or `{"domain"}`).
    private static func checkSettings(of feature: Feature, named name: String, at path: JSONPath, reader lenient: inout LenientReader) {
        guard let settings = feature.settingsText else { return }
        let settingsPath = path.appending(key: "settings")
        var keys = ["aboutBlankEnabled", "aboutBlankSites", "scripts"]
        let isCookie = name == CookieProtection.Settings.featureName || name == CookieProtection.Settings.legacyFeatureName
        if isCookie { keys += ["trackerCookie", "excludedCookieDomains"] }
        // The settings were checked for syntax when the document was read: reading them cannot fail.
        _ = try? settings.read { (reader) throws(JSONReadError) in
            guard let object = try reader.indexObjectIfPresent(at: settingsPath) else { return }
            defer { reader.leave(object) }
            for key in keys {
                guard reader.seek(key, in: object), !(try reader.skipNull()) else { continue }
                let keyPath = object.path(of: key)
                switch key {
                case "aboutBlankEnabled", "trackerCookie":
                    _ = try lenient.read(&reader, "the setting is ignored") { (reader) throws(JSONReadError) in
                        try reader.readString(at: keyPath)
                    }
                default:
                    try checkDomains(&reader, at: keyPath, plainStringsAllowed: key == "excludedCookieDomains", lenient: &lenient)
                }
            }
        }
    }

    /// Warns of an array of `{"domain": string}` (or plain strings, when allowed) that is not one,
    /// and of each entry that is not one.
    private static func checkDomains(
        _ reader: inout JSONReader, at path: JSONPath, plainStringsAllowed: Bool, lenient: inout LenientReader
    ) throws(JSONReadError) {
        guard try reader.nextKind() == .array else {
            _ = try lenient.read(&reader, "the setting is ignored") { (reader) throws(JSONReadError) in
                _ = try reader.enterArray(at: path)
            }
            return
        }
        var elements = try reader.enterArray(at: path)
        var index = 0
        while try reader.nextElement(in: &elements) {
            if plainStringsAllowed, try reader.nextKind() == .string {
                try reader.skipValue()
            } else {
                _ = try lenient.read(&reader, "the entry is dropped") { (reader) throws(JSONReadError) in
                    let entry = try reader.indexObject(at: path.appending(index: index))
                    defer { reader.leave(entry) }
                    _ = try reader.requiredString("domain", in: entry)
                }
            }
            index += 1
        }
    }
}

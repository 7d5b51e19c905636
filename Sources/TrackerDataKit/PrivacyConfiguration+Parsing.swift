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
        self = try TrackerDataError.decoding(bytes, file: file) { root throws(JSONDecodingError) in
            try PrivacyConfiguration(root: root, file: file, publicSuffixList: publicSuffixList)
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

    private init(root: JSONValue, file: String?, publicSuffixList: PublicSuffixList) throws(JSONDecodingError) {
        self.init()
        let object = try root.object(at: .root)
        var reader = LenientReader(file: file)
        if let value = object.optional("version") {
            version = reader.read(value, at: JSONPath.root.appending(key: "version"), "the field is ignored") {
                (value, path) throws(JSONDecodingError) in try value.double(at: path)
            }
        }
        if let value = object.optional("readme") {
            readme = reader.read(value, at: JSONPath.root.appending(key: "readme"), "the field is ignored") {
                (value, path) throws(JSONDecodingError) in try value.string(at: path)
            }
        }
        let featuresPath = JSONPath.root.appending(key: "features")
        if let value = object.optional("features") {
            features = Self.features(value, at: featuresPath, reader: &reader)
        }
        if let value = object.optional("unprotectedTemporary") {
            unprotectedTemporary = Self.exceptions(value, at: JSONPath.root.appending(key: "unprotectedTemporary"), reader: &reader)
        }
        for name in features.keys.sorted() {
            guard let feature = features[name] else { continue }
            Self.checkSettings(of: feature, named: name, at: featuresPath.appending(key: name), reader: &reader)
        }
        warnings = reader.warnings
        if let settings = features[FeatureName.trackerAllowlist]?.settings,
            case .object(let object) = settings, let allowlisted = object.optional("allowlistedTrackers")
        {
            trackerAllowlist = TrackerAllowlist(
                allowlistedTrackers: allowlisted, file: file,
                at: featuresPath.appending(key: FeatureName.trackerAllowlist).appending(key: "settings")
                    .appending(key: "allowlistedTrackers"))
            warnings += trackerAllowlist.warnings
        }
        if let settings = features[FeatureName.requestBlocklist]?.settings,
            case .object(let object) = settings, let blocked = object.optional("blockedRequests")
        {
            requestBlocklist = RequestBlocklist(
                blockedRequests: blocked, file: file,
                at: featuresPath.appending(key: FeatureName.requestBlocklist).appending(key: "settings")
                    .appending(key: "blockedRequests"),
                publicSuffixList: publicSuffixList)
            warnings += requestBlocklist.warnings
        }
    }

    /// Reads values that DuckDuckGo's clients drop when they have the wrong type, collecting a
    /// warning for each one dropped.
    struct LenientReader {
        var file: String?
        var warnings: [InputWarning] = []

        /// `decode(value, path)`, or nil with a warning saying `consequence`.
        mutating func read<T>(
            _ value: JSONValue, at path: JSONPath, _ consequence: String,
            _ decode: (JSONValue, JSONPath) throws(JSONDecodingError) -> T
        ) -> T? {
            do throws(JSONDecodingError) {
                return try decode(value, path)
            } catch {
                warn(error, consequence)
                return nil
            }
        }

        mutating func warn(_ problem: JSONDecodingError, _ consequence: String) {
            warnings.append(InputWarning(file: file, path: problem.path, message: "\(problem.reason); \(consequence)"))
        }
    }

    private static func features(_ value: JSONValue, at path: JSONPath, reader: inout LenientReader) -> [String: Feature] {
        guard let members = reader.read(value, at: path, "every feature is ignored, so contentBlocking is off", {
            (value, path) throws(JSONDecodingError) in try value.object(at: path)
        }) else { return [:] }
        var features: [String: Feature] = [:]
        for (name, featureValue) in members.members {
            if let feature = feature(featureValue, at: path.appending(key: name), reader: &reader) {
                features[name] = feature
            }
        }
        return features
    }

    private static func feature(_ value: JSONValue, at path: JSONPath, reader: inout LenientReader) -> Feature? {
        let state = reader.read(value, at: path, "the feature is ignored") { (value, path) throws(JSONDecodingError) in
            try value.object(at: path).required("state", at: path).string(at: path.appending(key: "state"))
        }
        guard let state, case .object(let object) = value else { return nil }
        var feature = Feature(state: Feature.State(rawValue: state))
        if let value = object.optional("exceptions") {
            feature.exceptions = exceptions(value, at: path.appending(key: "exceptions"), reader: &reader)
        }
        if let settings = object.optional("settings") {
            feature.settings = reader.read(settings, at: path.appending(key: "settings"), "the settings are ignored") {
                (value, path) throws(JSONDecodingError) -> JSONValue in _ = try value.object(at: path); return value
            }
        }
        feature.minSupportedVersion = object.optional("minSupportedVersion")
        if let hash = object.optional("hash") {
            feature.hash = reader.read(hash, at: path.appending(key: "hash"), "the field is ignored") {
                (value, path) throws(JSONDecodingError) in try value.string(at: path)
            }
        }
        if let value = object.optional("features") {
            let subfeaturesPath = path.appending(key: "features")
            if let members = reader.read(value, at: subfeaturesPath, "the sub-features are ignored", {
                (value, path) throws(JSONDecodingError) in try value.object(at: path)
            }) {
                for (name, subfeatureValue) in members.members {
                    if let subfeature = Self.feature(subfeatureValue, at: subfeaturesPath.appending(key: name), reader: &reader) {
                        feature.features[name] = subfeature
                    }
                }
            }
        }
        return feature
    }

    private static func exceptions(_ value: JSONValue, at path: JSONPath, reader: inout LenientReader) -> [Exception] {
        guard let elements = reader.read(value, at: path, "the list is ignored", {
            (value, path) throws(JSONDecodingError) in try value.array(at: path)
        }) else { return [] }
        var exceptions: [Exception] = []
        for (index, element) in elements.enumerated() {
            let exception = reader.read(element, at: path.appending(index: index), "the entry is dropped") {
                (element, elementPath) throws(JSONDecodingError) -> Exception in
                let object = try element.object(at: elementPath)
                let domain = try object.required("domain", at: elementPath).string(at: elementPath.appending(key: "domain"))
                let reason = try object.optionalString("reason", at: elementPath)
                return Exception(domain: HostMatching.normalized(domain), reason: reason)
            }
            if let exception { exceptions.append(exception) }
        }
        return exceptions
    }

    /// Warns of the settings the SDK reads that it cannot use: `aboutBlankEnabled` (a string),
    /// `aboutBlankSites` and `scripts` (arrays of `{"domain": string}`) of any feature, and the
    /// cookie feature's `trackerCookie` and `excludedCookieDomains` (strings or `{"domain"}`).
    private static func checkSettings(of feature: Feature, named name: String, at path: JSONPath, reader: inout LenientReader) {
        guard case .object(let settings)? = feature.settings else { return }
        let settingsPath = path.appending(key: "settings")
        func checkString(_ key: String) {
            guard let value = settings.optional(key) else { return }
            _ = reader.read(value, at: settingsPath.appending(key: key), "the setting is ignored") {
                (value, path) throws(JSONDecodingError) in try value.string(at: path)
            }
        }
        func checkDomains(_ key: String, plainStringsAllowed: Bool) {
            guard let value = settings.optional(key) else { return }
            let listPath = settingsPath.appending(key: key)
            guard let elements = reader.read(value, at: listPath, "the setting is ignored", {
                (value, path) throws(JSONDecodingError) in try value.array(at: path)
            }) else { return }
            for (index, element) in elements.enumerated() {
                if plainStringsAllowed, case .string = element { continue }
                _ = reader.read(element, at: listPath.appending(index: index), "the entry is dropped") {
                    (element, path) throws(JSONDecodingError) in
                    try element.object(at: path).required("domain", at: path).string(at: path.appending(key: "domain"))
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

import TrackerlessCore

extension PrivacyConfiguration {
    /// Reads a privacy configuration document.
    ///
    /// The structure (`features` as an object of objects, each `state` a string, each
    /// `exceptions` an array of `{domain, reason}`, `unprotectedTemporary` likewise) is strict:
    /// a wrong type is an error naming its path. The settings of `trackerAllowlist` and
    /// `requestBlocklist` are lenient: an invalid entry is dropped and reported in ``warnings``,
    /// as DuckDuckGo's clients drop it. Unknown fields are ignored.
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
        if let value = object.optional("version") {
            version = try value.double(at: JSONPath.root.appending(key: "version"))
        }
        readme = try object.optionalString("readme", at: .root)
        if let value = object.optional("features") {
            features = try Self.features(value, at: JSONPath.root.appending(key: "features"))
        }
        if let value = object.optional("unprotectedTemporary") {
            unprotectedTemporary = try Self.exceptions(value, at: JSONPath.root.appending(key: "unprotectedTemporary"))
        }
        let featuresPath = JSONPath.root.appending(key: "features")
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

    private static func features(_ value: JSONValue, at path: JSONPath) throws(JSONDecodingError) -> [String: Feature] {
        var features: [String: Feature] = [:]
        for (name, featureValue) in try value.object(at: path).members {
            features[name] = try feature(featureValue, at: path.appending(key: name))
        }
        return features
    }

    private static func feature(_ value: JSONValue, at path: JSONPath) throws(JSONDecodingError) -> Feature {
        let object = try value.object(at: path)
        let state = try object.required("state", at: path).string(at: path.appending(key: "state"))
        var feature = Feature(state: Feature.State(rawValue: state))
        if let value = object.optional("exceptions") {
            feature.exceptions = try exceptions(value, at: path.appending(key: "exceptions"))
        }
        feature.settings = object.optional("settings")
        feature.minSupportedVersion = object.optional("minSupportedVersion")
        feature.hash = try object.optionalString("hash", at: path)
        if let value = object.optional("features") {
            feature.features = try features(value, at: path.appending(key: "features"))
        }
        return feature
    }

    private static func exceptions(_ value: JSONValue, at path: JSONPath) throws(JSONDecodingError) -> [Exception] {
        var exceptions: [Exception] = []
        for (index, element) in try value.array(at: path).enumerated() {
            let elementPath = path.appending(index: index)
            let object = try element.object(at: elementPath)
            let domain = try object.required("domain", at: elementPath).string(at: elementPath.appending(key: "domain"))
            let reason = try object.optionalString("reason", at: elementPath)
            exceptions.append(Exception(domain: HostMatching.normalized(domain), reason: reason))
        }
        return exceptions
    }
}

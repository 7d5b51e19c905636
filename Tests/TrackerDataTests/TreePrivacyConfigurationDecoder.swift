@testable import TrackerDataKit
import TrackerlessCore

/// The privacy configuration decoder before the single reader: the document parsed into a
/// `JSONValue` tree, then looked up. Kept as the oracle the reader must agree with, configuration
/// for configuration, warning for warning and error for error.
enum TreePrivacyConfigurationDecoder {
    static func decode(
        _ bytes: [UInt8], file: String? = nil, publicSuffixList: PublicSuffixList = .bundled
    ) throws(TrackerDataError) -> PrivacyConfiguration {
        try TrackerDataError.decoding(bytes, file: file) { root throws(JSONDecodingError) in
            try configuration(root: root, file: file, publicSuffixList: publicSuffixList)
        }
    }

    private static func configuration(root: JSONValue, file: String?, publicSuffixList: PublicSuffixList) throws(JSONDecodingError) -> PrivacyConfiguration {
        var configuration = PrivacyConfiguration()
        let object = try root.object(at: .root)
        var reader = LenientReader(file: file)
        if let value = object.optional("version") {
            configuration.version = reader.read(value, at: JSONPath.root.appending(key: "version"), "the field is ignored") {
                (value, path) throws(JSONDecodingError) in try value.double(at: path)
            }
        }
        if let value = object.optional("readme") {
            configuration.readme = reader.read(value, at: JSONPath.root.appending(key: "readme"), "the field is ignored") {
                (value, path) throws(JSONDecodingError) in try value.string(at: path)
            }
        }
        let featuresPath = JSONPath.root.appending(key: "features")
        if let value = object.optional("features") {
            configuration.features = Self.features(value, at: featuresPath, reader: &reader)
        }
        if let value = object.optional("unprotectedTemporary") {
            configuration.unprotectedTemporary = Self.exceptions(value, at: JSONPath.root.appending(key: "unprotectedTemporary"), reader: &reader)
        }
        for name in configuration.features.keys.sorted() {
            guard let feature = configuration.features[name] else { continue }
            Self.checkSettings(of: feature, named: name, at: featuresPath.appending(key: name), reader: &reader)
        }
        configuration.warnings = reader.warnings
        if let settings = configuration.features[PrivacyConfiguration.FeatureName.trackerAllowlist]?.settings,
            case .object(let object) = settings, let allowlisted = object.optional("allowlistedTrackers")
        {
            configuration.trackerAllowlist = TrackerAllowlist(
                tree: allowlisted, file: file,
                at: featuresPath.appending(key: PrivacyConfiguration.FeatureName.trackerAllowlist).appending(key: "settings")
                    .appending(key: "allowlistedTrackers"))
            configuration.warnings += configuration.trackerAllowlist.warnings
        }
        if let settings = configuration.features[PrivacyConfiguration.FeatureName.requestBlocklist]?.settings,
            case .object(let object) = settings, let blocked = object.optional("blockedRequests")
        {
            configuration.requestBlocklist = RequestBlocklist(
                tree: blocked, file: file,
                at: featuresPath.appending(key: PrivacyConfiguration.FeatureName.requestBlocklist).appending(key: "settings")
                    .appending(key: "blockedRequests"),
                publicSuffixList: publicSuffixList)
            configuration.warnings += configuration.requestBlocklist.warnings
        }
        return configuration
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

    private static func features(_ value: JSONValue, at path: JSONPath, reader: inout LenientReader) -> [String: PrivacyConfiguration.Feature] {
        guard let members = reader.read(value, at: path, "every feature is ignored, so contentBlocking is off", {
            (value, path) throws(JSONDecodingError) in try value.object(at: path)
        }) else { return [:] }
        var features: [String: PrivacyConfiguration.Feature] = [:]
        for (name, featureValue) in members.members {
            if let feature = feature(featureValue, at: path.appending(key: name), reader: &reader) {
                features[name] = feature
            }
        }
        return features
    }

    private static func feature(_ value: JSONValue, at path: JSONPath, reader: inout LenientReader) -> PrivacyConfiguration.Feature? {
        let state = reader.read(value, at: path, "the feature is ignored") { (value, path) throws(JSONDecodingError) in
            try value.object(at: path).required("state", at: path).string(at: path.appending(key: "state"))
        }
        guard let state, case .object(let object) = value else { return nil }
        var feature = PrivacyConfiguration.Feature(state: PrivacyConfiguration.Feature.State(rawValue: state))
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

    private static func exceptions(_ value: JSONValue, at path: JSONPath, reader: inout LenientReader) -> [PrivacyConfiguration.Exception] {
        guard let elements = reader.read(value, at: path, "the list is ignored", {
            (value, path) throws(JSONDecodingError) in try value.array(at: path)
        }) else { return [] }
        var exceptions: [PrivacyConfiguration.Exception] = []
        for (index, element) in elements.enumerated() {
            let exception = reader.read(element, at: path.appending(index: index), "the entry is dropped") {
                (element, elementPath) throws(JSONDecodingError) -> PrivacyConfiguration.Exception in
                let object = try element.object(at: elementPath)
                let domain = try object.required("domain", at: elementPath).string(at: elementPath.appending(key: "domain"))
                let reason = try object.optionalString("reason", at: elementPath)
                return PrivacyConfiguration.Exception(domain: DomainName.normalized(domain), reason: reason)
            }
            if let exception { exceptions.append(exception) }
        }
        return exceptions
    }

    /// Warns of the settings the SDK reads that it cannot use: `aboutBlankEnabled` (a string),
    /// `aboutBlankSites` and `scripts` (arrays of `{"domain": string}`) of any feature, and the
    /// cookie feature's `trackerCookie` and `excludedCookieDomains` (strings or `{"domain"}`).
    private static func checkSettings(of feature: PrivacyConfiguration.Feature, named name: String, at path: JSONPath, reader: inout LenientReader) {
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

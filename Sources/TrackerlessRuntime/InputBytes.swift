import ContentRuleList
import TrackerDataKit
import TrackerlessCore
import UserScripts

/// The bytes of each input, and the identity of the set they make.
struct InputBytes: Sendable {
    let inputs: ProtectionInputs
    var bytes: [ProtectionInput: [UInt8]]

    /// The set identity (``ProtectionSet/identity``): SHA-256 (hex) of the SDK version, the templates, every
    /// input and the settings, each field by its name, its length and its XXH64 under two seeds;
    /// equal exactly when the set would be built the same.
    ///
    /// Each field's bytes are hashed with XXH64 (8.7 GB/s here) rather than SHA-256 (about 13 ms
    /// of CPU for each 2.7 MB, at every launch and update): 128 bits against an accidental
    /// change. An adversary who chooses the inputs chooses the set anyway.
    var identity: String {
        var fields: [UInt8] = []
        func add(_ field: String, _ value: [UInt8]) {
            fields += Array("\(field)\u{0}\(value.count)\u{0}".utf8)
            for seed: UInt64 in [0, 1] {
                let digest = XXH64.digest(value, seed: seed)
                fields += (0..<8).map { UInt8(truncatingIfNeeded: digest >> (8 * UInt64($0))) }
            }
        }
        add("sdk", Array(ProtectionSet.sdkVersion.utf8))
        let templates = inputs.templates
        add("template blocking", Array(templates.blocking.utf8))
        add("template inference", Array(templates.inference.utf8))
        add("template message queue", Array(templates.messageQueue.utf8))
        for (bridge, text) in templates.bridges.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            add("bridge \(bridge.rawValue)", Array(text.utf8))
        }
        for (input, _) in inputs.documents {
            if let value = bytes[input] { add(input.rawValue, value) } else { add(input.rawValue + " absent", []) }
        }
        add("webkit", Array(inputs.webKit.name.utf8))
        // Only settings other than the default: a set built before they existed keeps its identity.
        if let ruleLists = inputs.ruleLists.identityText { add("rule lists", Array(ruleLists.utf8)) }
        // Every setting, as the scripts carry them: a new setting is part of the identity.
        add("settings", inputs.scriptSettings.json.jsonBytes())
        return SHA256.hexDigest(fields)
    }

    /// Parses every input.
    ///
    /// - Throws: ``ProtectionError/invalidInput(_:detail:)`` naming the input, the file and the
    ///   JSON path.
    func parse() throws(ProtectionError) -> ParsedInputs {
        let trackerData = try parseTrackerData()
        return ParsedInputs(trackerData: trackerData, others: try parseOthers())
    }

    /// Parses every input, the blocklist without its entity records
    /// (``ProtectionInputs/parseWithoutEntityRecords()``); a blocklist read from a file gives
    /// its bytes back to the system as they are parsed, and is read again only to report a
    /// problem (``TrackerData/init(consuming:file:keepingEntityRecords:readAgain:)``).
    ///
    /// - Throws: ``ProtectionError/invalidInput(_:detail:)``, the same as ``parse()``.
    consuming func parseWithoutEntityRecords() throws(ProtectionError) -> ParsedInputs {
        guard case .file = inputs.trackerData, let document = bytes.removeValue(forKey: .trackerData) else {
            return ParsedInputs(trackerData: try parseTrackerData(keepingEntityRecords: false), others: try parseOthers())
        }
        let trackerData: TrackerData
        do throws(TrackerDataError) {
            trackerData = try TrackerData(
                consuming: document, file: inputs.trackerData.name, keepingEntityRecords: false
            ) { () throws(TrackerDataError) in
                do throws(FileError) {
                    return try inputs.trackerData.read()
                } catch {
                    throw .unreadable(error)
                }
            }
        } catch {
            throw .invalidInput(.trackerData, detail: error.description)
        }
        return ParsedInputs(trackerData: trackerData, others: try parseOthers())
    }

    /// Parses the blocklist, the largest input by far.
    func parseTrackerData(keepingEntityRecords: Bool = true) throws(ProtectionError) -> TrackerData {
        do throws(TrackerDataError) {
            return try TrackerData(
                parsing: bytes[.trackerData] ?? [], file: inputs.trackerData.name, keepingEntityRecords: keepingEntityRecords)
        } catch {
            throw .invalidInput(.trackerData, detail: error.description)
        }
    }

    /// Parses every input but the blocklist, and checks the script settings.
    func parseOthers() throws(ProtectionError) -> OtherInputs {
        var configuration: PrivacyConfiguration?
        if let document = inputs.privacyConfiguration, let value = bytes[.privacyConfiguration] {
            do throws(TrackerDataError) {
                configuration = try PrivacyConfiguration(parsing: value, file: document.name)
            } catch {
                throw .invalidInput(.privacyConfiguration, detail: error.description)
            }
        }
        var allowlist = UserAllowlist()
        if let document = inputs.userAllowlist, let value = bytes[.userAllowlist] {
            do throws(TrackerDataError) {
                allowlist = try UserAllowlist(parsing: value, file: document.name)
            } catch {
                throw .invalidInput(.userAllowlist, detail: error.description)
            }
        }
        var surrogates = SurrogateLibrary.bundled
        if let document = inputs.surrogates, let value = bytes[.surrogates] {
            surrogates = SurrogateLibrary(index: value, file: document.name)
        }
        do throws(ScriptRenderError) {
            try inputs.scriptSettings.validate()
        } catch {
            throw .invalidInput(.scriptSettings, detail: error.description)
        }
        let navigation = NavigationSettings(
            gpcOnForUser: inputs.globalPrivacyControl,
            httpsUpgrade: try inputs.httpsFilterDirectory.map { directory throws(ProtectionError) in
                try HTTPSFilterDirectory.read(directory, configuration: configuration)
            })
        return OtherInputs(
            configuration: configuration, userAllowlist: allowlist, surrogates: surrogates, settings: inputs.scriptSettings,
            navigation: navigation, webKit: inputs.webKit, ruleLists: inputs.ruleLists, templates: inputs.templates)
    }
}

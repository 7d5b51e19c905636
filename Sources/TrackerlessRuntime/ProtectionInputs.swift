public import ContentRuleList
import TrackerDataKit
import TrackerlessCore
public import UserScripts

/// Everything a ``ProtectionSet`` is made from: the blocklist, the privacy configuration, the
/// user allowlist, the surrogates and the script settings, each from a file or from bytes.
///
/// ```swift
/// var inputs = ProtectionInputs(trackerData: .file("tds.json"))
/// inputs.privacyConfiguration = .file("privacy-config.json")
/// inputs.scriptSettings.handler = "trackerless"
/// ```
public struct ProtectionInputs: Sendable, Hashable {
    /// The Tracker Radar blocklist (tds.json).
    public var trackerData: InputDocument
    /// The privacy configuration; nil for tracker blocking everywhere.
    public var privacyConfiguration: InputDocument?
    /// Sites (exact hosts) where protection is off in every artifact, a JSON array of hosts. The
    /// sites a user switches at run time belong in ``ProtectionRuntime/setProtection(_:forSite:)``,
    /// which needs no rebuild.
    public var userAllowlist: InputDocument?
    /// The surrogates in surrogates.txt format; nil for the bundled ones.
    public var surrogates: InputDocument?
    /// The script settings (bridge, handler name, batching, blocking in script).
    public var scriptSettings: ScriptSettings
    /// The user's Global Privacy Control setting, on unless the user turned it off: the
    /// navigation decision's `Sec-GPC` (``ProtectionSet/navigationProtector``) and the scripts'
    /// `navigator.globalPrivacyControl` both follow it. The same setting as
    /// `scriptSettings.globalPrivacyControl`; since the scripts carry it, a change builds them
    /// again.
    public var globalPrivacyControl: Bool {
        get { scriptSettings.globalPrivacyControl }
        set { scriptSettings.globalPrivacyControl = newValue }
    }
    /// A directory of DuckDuckGo's Smarter Encryption files (`https_bloomfilter.bin`,
    /// `https_bloomfilter_spec.json`, `https_allowlist.json` if present) for the navigation
    /// decision's HTTPS upgrade; nil for no upgrade.
    ///
    /// It changes no rule list, script or engine, so it is not part of
    /// ``ProtectionSet/identity``: a change of it loads the cached artifacts.
    public var httpsFilterDirectory: String?
    /// The WebKit that will run the rule lists: they use only what it knows, with the resolver's
    /// meaning as it evaluates them (`WebKitTarget` of ContentRuleList). A host sets the one it
    /// runs on (`TrackerlessWebKit` and the WebKitGTK adapter do so from the running WebKit);
    /// the default, `WebKitTarget.oldest`, suits every supported WebKit. Part
    /// of ``ProtectionSet/identity``: a new WebKit builds the set again.
    public var webKit: WebKitTarget = .oldest
    /// The script templates: the bundled ones unless a host or build tool brings its own
    /// (`trackerless scripts --templates`). Part of ``ProtectionSet/identity``.
    public var templates: ScriptTemplates = .bundled

    /// Inputs with the given documents.
    public init(
        trackerData: InputDocument, privacyConfiguration: InputDocument? = nil, userAllowlist: InputDocument? = nil,
        surrogates: InputDocument? = nil, scriptSettings: ScriptSettings = ScriptSettings()
    ) {
        self.trackerData = trackerData
        self.privacyConfiguration = privacyConfiguration
        self.userAllowlist = userAllowlist
        self.surrogates = surrogates
        self.scriptSettings = scriptSettings
    }

    /// The bundled sample blocklist (`TrackerData.sampleDocument`) and nothing
    /// else: for trying the runtime out.
    public static let sample = ProtectionInputs(
        trackerData: .bytes(Array(TrackerData.sampleDocument.utf8), name: "(bundled sample tds.json)"))

    /// The documents by input, in a fixed order.
    var documents: [(ProtectionInput, InputDocument?)] {
        [(.trackerData, trackerData), (.privacyConfiguration, privacyConfiguration), (.userAllowlist, userAllowlist),
         (.surrogates, surrogates)]
    }

    /// Reads every document.
    ///
    /// - Throws: ``ProtectionError/invalidInput(_:detail:)`` naming the input and its file.
    func read() throws(ProtectionError) -> InputBytes {
        var bytes: [ProtectionInput: [UInt8]] = [:]
        for (input, document) in documents {
            guard let document else { continue }
            do throws(FileError) {
                bytes[input] = try document.read()
            } catch {
                throw .invalidInput(input, detail: error.description)
            }
        }
        return InputBytes(inputs: self, bytes: bytes)
    }

    /// Every input read and parsed as ``ProtectionBuild`` reads and parses them, without building
    /// anything: for a tool that resolves requests or builds one kind of list itself (the
    /// command line's `rules`, `cookies`, `resolve`, `stats`).
    ///
    /// - Throws: ``ProtectionError/invalidInput(_:detail:)`` naming the input, the file and the
    ///   JSON path.
    public func parse() throws(ProtectionError) -> ParsedInputs {
        try read().parse()
    }
}

/// The bytes of each input, and the identity of the set they make.
struct InputBytes: Sendable {
    let inputs: ProtectionInputs
    let bytes: [ProtectionInput: [UInt8]]

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

    /// Parses the blocklist, the largest input by far.
    func parseTrackerData() throws(ProtectionError) -> TrackerData {
        do throws(TrackerDataError) {
            return try TrackerData(parsing: bytes[.trackerData] ?? [], file: inputs.trackerData.name)
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
            navigation: navigation, webKit: inputs.webKit, templates: inputs.templates)
    }
}

/// Every input but the blocklist, parsed: small, and read at each launch.
struct OtherInputs: Sendable {
    let configuration: PrivacyConfiguration?
    let userAllowlist: UserAllowlist
    let surrogates: SurrogateLibrary
    let settings: ScriptSettings
    /// The user's GPC setting and the HTTPS filter.
    var navigation = NavigationSettings()
    /// The WebKit the rule lists are for.
    var webKit: WebKitTarget = .oldest
    /// The script templates.
    var templates: ScriptTemplates = .bundled
}

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
    /// How the rule lists (blocking, Click-to-Load and cookie lists) are written: the page-site
    /// condition style, exact path matches, the most rules and bytes per list; the settings of
    /// `trackerless rules` and `trackerless cookies`. The default suits every host. Part of
    /// ``ProtectionSet/identity`` when not the default.
    public var ruleLists = RuleListSettings()
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
        do throws(RuleListSettingsError) {
            try ruleLists.validate()
        } catch {
            throw .invalidInput(.ruleListSettings, detail: error.description)
        }
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
    /// anything: for a tool that resolves requests (the command line's `resolve`, `stats`), or
    /// runs one stage of the build (`rules` and `cookies`: ``ParsedInputs/blockingRules(recordingSources:)``,
    /// ``ParsedInputs/cookieRules()``).
    ///
    /// - Throws: ``ProtectionError/invalidInput(_:detail:)`` naming the input, the file and the
    ///   JSON path.
    public func parse() throws(ProtectionError) -> ParsedInputs {
        try read().parse()
    }

    /// ``parse()`` without the blocklist's entity records (``ParsedInputs/withoutEntityRecords()``
    /// of it), which are checked as they are read but never kept: for a tool that builds only
    /// rule lists (`trackerless rules`, `cookies`), so that they take no room at the parse's peak.
    /// A blocklist read from a file gives its bytes back to the system as the parse passes them.
    ///
    /// - Throws: ``ProtectionError/invalidInput(_:detail:)``, the same as ``parse()``.
    public func parseWithoutEntityRecords() throws(ProtectionError) -> ParsedInputs {
        try read().parseWithoutEntityRecords()
    }
}

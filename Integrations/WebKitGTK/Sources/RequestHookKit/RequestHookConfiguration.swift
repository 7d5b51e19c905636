/// What the web-process extension needs to decide requests, as plain values: the UI process
/// sends it to every web process as the extensions' initialization user data (a GVariant of
/// type ``variantType``), again for each new web process, since WebKitGTK 6.0 swaps processes
/// across sites.
///
/// Files are passed by path, not as bytes: WebKit turns the user data into text and parses it
/// again in each web process, which would cost more than reading a file. Each path must be
/// inside the web process's sandbox (`webkit_web_context_add_path_to_sandbox`).
public struct RequestHookConfiguration: Sendable, Equatable {
    /// The GVariant type of the user data: (blocks, engine, navigation data, allowlist, GPC).
    public static let variantType = "(bssasb)"

    /// Whether the extension blocks requests with the engine (`--mode engine`); when false it
    /// only sets the headers of the navigation protections.
    public var blocksRequests: Bool
    /// The compiled engine of the current protection set (``RuleEngineKit/RuleEngine/compiled()``);
    /// empty when ``blocksRequests`` is false.
    public var enginePath: String
    /// The current protection set's navigation data (`ProtectionSet.navigationData`: what the
    /// navigation protections read of its privacy configuration and blocklist, written by the one
    /// build), which the extension loads instead of parsing tds.json and the configuration; empty
    /// for none (then no Sec-GPC header and no trimming).
    public var navigationDataPath: String
    /// Sites (exact hosts) where protection is off: the user allowlist and the sites the user
    /// switched off. No request of their pages is blocked and no header changed.
    public var sitesWithProtectionOff: [String]
    /// The user's Global Privacy Control setting (``TrackerlessRuntime/ProtectionInputs/globalPrivacyControl``):
    /// when false, no request gets `Sec-GPC`.
    public var globalPrivacyControl: Bool

    /// A configuration.
    public init(
        blocksRequests: Bool, enginePath: String = "", navigationDataPath: String = "", sitesWithProtectionOff: [String] = [],
        globalPrivacyControl: Bool = true
    ) {
        self.blocksRequests = blocksRequests
        self.enginePath = enginePath
        self.navigationDataPath = navigationDataPath
        self.sitesWithProtectionOff = sitesWithProtectionOff
        self.globalPrivacyControl = globalPrivacyControl
    }
}

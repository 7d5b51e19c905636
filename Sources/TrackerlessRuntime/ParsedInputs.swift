public import TrackerDataKit
public import UserScripts
import ContentRuleList

/// The inputs of a build, parsed (``ProtectionInputs/parse()``): what the one build reads, for a
/// tool that needs the documents themselves.
public struct ParsedInputs: Sendable {
    /// The blocklist.
    public internal(set) var trackerData: TrackerData
    /// The privacy configuration; nil when none was given (tracker blocking on everywhere).
    public let configuration: PrivacyConfiguration?
    /// The user allowlist; empty when none was given.
    public let userAllowlist: UserAllowlist
    /// The surrogates: the bundled ones unless the inputs name others.
    public let surrogates: SurrogateLibrary
    let settings: ScriptSettings
    let navigation: NavigationSettings
    let webKit: WebKitTarget
    let ruleLists: RuleListSettings
    let templates: ScriptTemplates

    init(trackerData: TrackerData, others: OtherInputs) {
        self.trackerData = trackerData
        configuration = others.configuration
        userAllowlist = others.userAllowlist
        surrogates = others.surrogates
        settings = others.settings
        navigation = others.navigation
        webKit = others.webKit
        ruleLists = others.ruleLists
        templates = others.templates
    }

    /// These inputs without the blocklist's entity records (names, display names, prominence),
    /// which no rule list reads: for a tool that builds only rule lists (`trackerless rules`,
    /// `cookies`), so that they are let go before its build. The resolver and the scripts need
    /// them.
    public func withoutEntityRecords() -> ParsedInputs {
        var inputs = self
        inputs.trackerData.entities = [:]
        return inputs
    }

    /// The resolver of these inputs: what the rules and the scripts mean, and what the
    /// statistics classify with.
    ///
    /// - Parameter userAllowlist: an allowlist in place of the inputs' (a runtime's, with its
    ///   site toggles).
    public func resolver(userAllowlist: UserAllowlist? = nil) -> TrackerResolver {
        TrackerResolver(
            trackerData: trackerData, surrogates: surrogates.surrogates, privacyConfiguration: configuration,
            userAllowlist: userAllowlist ?? self.userAllowlist)
    }
}

import ContentRuleList
import TrackerDataKit
import TrackerlessCore
import UserScripts

/// The inputs, parsed.
struct ParsedInputs: Sendable {
    let trackerData: TrackerData
    let configuration: PrivacyConfiguration?
    let userAllowlist: UserAllowlist
    let surrogates: SurrogateLibrary
    let settings: ScriptSettings
    let navigation: NavigationSettings
    let webKit: WebKitTarget
    let templates: ScriptTemplates

    init(trackerData: TrackerData, others: OtherInputs) {
        self.trackerData = trackerData
        configuration = others.configuration
        userAllowlist = others.userAllowlist
        surrogates = others.surrogates
        settings = others.settings
        navigation = others.navigation
        webKit = others.webKit
        templates = others.templates
    }

    /// The resolver of these inputs: what the rules and the scripts mean, and what the
    /// statistics classify with.
    func resolver(userAllowlist: UserAllowlist? = nil) -> TrackerResolver {
        TrackerResolver(
            trackerData: trackerData, surrogates: surrogates.surrogates, privacyConfiguration: configuration,
            userAllowlist: userAllowlist ?? self.userAllowlist)
    }
}

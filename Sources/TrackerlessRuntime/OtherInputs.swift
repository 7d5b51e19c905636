import ContentRuleList
import TrackerDataKit
import TrackerlessCore
import UserScripts

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
    /// How the rule lists are written.
    var ruleLists = RuleListSettings()
    /// The script templates.
    var templates: ScriptTemplates = .bundled
}

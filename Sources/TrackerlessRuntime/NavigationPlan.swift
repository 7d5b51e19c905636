public import NavigationProtections

/// What a web view gets for one navigation: the set's rule lists and both scripts when the site
/// is protected; only the inference script when the user turned protection off for it.
///
/// An adapter asks for the plan when it decides the navigation (before the load starts), and
/// makes the web view's content match it: add or remove the rule lists, add or remove the
/// blocking script. The message handler stays registered either way, so the page's statistics
/// keep counting what it loads.
public struct NavigationPlan: Sendable {
    /// The set everything comes from.
    public let protectionSet: ProtectionSet
    /// The URL to load: the one asked for, or the navigation decision's (``decision``).
    public let url: String
    /// Whether protection is on for the URL's site.
    public let isProtected: Bool
    /// The navigation decision of ``protectionSet`` that chose ``url`` (AMP link resolved,
    /// tracking parameters removed, upgraded to https; the headers), when the plan was asked for
    /// a `Navigation` (NavigationProtections); nil when it was asked for a URL alone.
    public let decision: NavigationDecision?

    init(protectionSet: ProtectionSet, url: String, isProtected: Bool, decision: NavigationDecision? = nil) {
        self.protectionSet = protectionSet
        self.url = url
        self.isProtected = isProtected
        self.decision = decision
    }

    /// The rule lists to attach: all of the set's when protected, none otherwise.
    public var ruleLists: [EncodedRuleList] { isProtected ? protectionSet.ruleLists : [] }
    /// The rule lists to attach once the user clicked to load the embeds of `actions` on this
    /// page: ``ruleLists`` without those actions' Click-to-Load lists.
    public func ruleLists(unblocking actions: Set<String>) -> [EncodedRuleList] {
        isProtected ? protectionSet.ruleLists(unblocking: actions) : []
    }
    /// The scripts to inject: both when protected; without protection only the inference script,
    /// which reports what the page loaded and blocks nothing.
    public var scripts: [UserScript] { isProtected ? protectionSet.scripts : protectionSet.scripts.filter({ !$0.isBlocking }) }
    /// The message handler to register, in every world of ``ProtectionSet/messageHandlerWorlds``.
    public var messageHandlerName: String { protectionSet.messageHandlerName }
}

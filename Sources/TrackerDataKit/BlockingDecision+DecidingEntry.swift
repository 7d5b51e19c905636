extension BlockingDecision {
    /// The one input entry that decided a request: a tds rule or default, a privacy
    /// configuration entry, the user's site toggle, or the page's own company.
    ///
    /// ``TrackerResolver`` records it where the step of its procedure that decides returns, from
    /// the entry that step found; it holds positions and the entry's own values, and texts are
    /// only made when asked (``BlockingDecision/jsonValue()``). The configuration's rules, met on
    /// few requests, are boxed (`indirect`), so that a decision stays small for the others.
    public enum DecidingEntry: Sendable, Hashable {
        /// The user turned protection off for the site: `domain` is the ``UserAllowlist`` entry,
        /// the site host itself (step 2).
        case userAllowlist(domain: String)
        /// The privacy configuration turned `contentBlocking` off for the site (step 2): the
        /// feature's state, an `unprotectedTemporary` entry or a feature exception.
        case unprotectedSite(PrivacyConfiguration.FeatureOff)
        /// `requestBlocklist.settings.blockedRequests[domain][index]`, which is `rule` (step 3).
        indirect case requestBlocklist(domain: String, index: Int, rule: RequestBlocklist.Rule)
        /// The request is the page itself, which is never blocked (step 5).
        case mainFrame
        /// The tracker's owner is the site's entity, `entity` in tds.json's `entities` (step 6).
        case sameEntity(entity: String)
        /// The request and the site share the registrable domain `registrableDomain` (step 6).
        case sameSite(registrableDomain: String)
        /// `trackerAllowlist.settings.allowlistedTrackers[trackerDomain].rules[index]`, which is
        /// `rule` (step 7).
        indirect case trackerAllowlist(trackerDomain: String, index: Int, rule: TrackerAllowlist.Rule)
        /// A rule of the tracker in tds.json, `trackers[trackerDomain].rules[index]` (step 8).
        case trackerRule(TrackerRuleReference)
        /// No rule of `trackers[trackerDomain]` applied: its `default`, nil when missing (step 9).
        case trackerDefault(trackerDomain: String, defaultAction: Tracker.DefaultAction?)

        /// The name of the case, as the JSON's `kind` spells it.
        public var kind: String {
            switch self {
            case .userAllowlist: "userAllowlist"
            case .unprotectedSite(.featureNotEnabled): "featureNotEnabled"
            case .unprotectedSite(.unprotectedTemporary): "unprotectedTemporary"
            case .unprotectedSite(.featureException): "featureException"
            case .requestBlocklist: "requestBlocklist"
            case .mainFrame: "mainFrame"
            case .sameEntity: "sameEntity"
            case .sameSite: "sameSite"
            case .trackerAllowlist: "trackerAllowlist"
            case .trackerRule: "trackerRule"
            case .trackerDefault: "trackerDefault"
            }
        }
    }
}

public import TrackerDataKit

/// Why the dashboard shows a tracker as allowed, in the words a user reads.
///
/// The resolver's reasons (`BlockingDecision.Reason-swift.enum`) map onto these; see
/// ``init(decision:siteEntityName:)``.
public enum AllowedReason: String, Sendable, Hashable, CaseIterable, Comparable {
    /// The tracker is on the site's own registrable domain (eTLD+1).
    case firstParty = "first party"
    /// The tracker belongs to the company that owns the site.
    case sameEntity = "same entity"
    /// The user turned protection off for the site.
    case userAllowlist = "user allowlist"
    /// The privacy configuration turns tracker blocking off for the site (a `contentBlocking`
    /// exception, `unprotectedTemporary`, or the feature disabled).
    case unprotectedSite = "unprotected site"
    /// A tds rule lets the request load: an `exceptions` match, an `action: ignore` rule, or a
    /// tracker whose `default` is `ignore` and that no rule blocks.
    case ruleException = "rule exception"
    /// The privacy configuration's tracker allowlist lets the request load (to keep the site working).
    case trackerAllowlist = "tracker allowlist"
    /// The user clicked the Click-to-Load placeholder of this embed on the page, and the host
    /// loaded it (a `clickToLoad` event from the blocking script, then the embed's load).
    case clickToLoad = "click to load"
    /// The resolver would block the request, yet the page saw it load: blocking was not in
    /// effect for it (rule lists not installed, or protections switched off in the host).
    case protectionsOff = "protections off"

    /// Maps a resolver decision that lets a tracker load; nil for decisions that block, and for
    /// requests that are not trackers.
    ///
    /// | Resolver reason | Allowed reason |
    /// |---|---|
    /// | `first party`, tracker owned by the site's entity | ``sameEntity`` |
    /// | `first party`, otherwise (same eTLD+1) | ``firstParty`` |
    /// | `user allowlist` | ``userAllowlist`` |
    /// | `unprotected domain` | ``unprotectedSite`` |
    /// | `tracker allowlist` | ``trackerAllowlist`` |
    /// | `matched rule - exception`, `matched rule - ignore`, `default ignore`, `main frame` | ``ruleException`` |
    public init?(decision: BlockingDecision, siteEntityName: String?) {
        guard decision.isTracker, !decision.isBlocked else { return nil }
        switch decision.reason {
        case .firstParty:
            if let owner = decision.tracker?.ownerName, owner == siteEntityName {
                self = .sameEntity
            } else {
                self = .firstParty
            }
        case .userAllowlist: self = .userAllowlist
        case .unprotectedDomain: self = .unprotectedSite
        case .trackerAllowlist: self = .trackerAllowlist
        case .matchedRuleException, .matchedRuleIgnore, .defaultIgnore, .mainFrame: self = .ruleException
        case .noMatch, .requestBlocklist, .matchedRuleSurrogate, .matchedRuleBlock, .defaultBlock: return nil
        }
    }

    /// Orders as `allCases` does.
    public static func < (lhs: AllowedReason, rhs: AllowedReason) -> Bool {
        (allCases.firstIndex(of: lhs) ?? 0) < (allCases.firstIndex(of: rhs) ?? 0)
    }
}

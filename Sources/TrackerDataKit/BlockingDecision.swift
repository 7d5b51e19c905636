/// What to do with one request, why, and which input entry decided it (``decidingEntry``).
///
/// ``action`` is nil when the request is not a tracker and nothing else blocks it; such a
/// request must not be reported as a tracker.
public struct BlockingDecision: Sendable, Hashable {
    /// What to do with the request.
    public enum Action: Sendable, Hashable {
        /// Do not load it.
        case block
        /// Load it: the request is a tracker, but an exception applies.
        case ignore
        /// Do not load it; run the named surrogate script in its place.
        case redirect(surrogate: String)
    }

    /// Why. The raw values of the first seven are the strings DuckDuckGo's resolvers report.
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// Not a tracker, and not in the request blocklist.
        case noMatch = "no match"
        /// The user turned protection off for the site (``UserAllowlist``).
        case userAllowlist = "user allowlist"
        /// Tracker blocking is off for the site in the privacy configuration: `contentBlocking`
        /// is disabled or lists the site as an exception, or the site is `unprotectedTemporary`.
        case unprotectedDomain = "unprotected domain"
        /// Blocked by the privacy configuration's request blocklist.
        case requestBlocklist = "request blocklist"
        /// The tracker belongs to the site's own company, or is on the site's own eTLD+1.
        case firstParty = "first party"
        /// A navigation: trackers are never blocked as the page itself.
        case mainFrame = "main frame"
        /// Allowed by the privacy configuration's tracker allowlist.
        case trackerAllowlist = "tracker allowlist"
        /// A rule matched but its `exceptions` cover this request.
        case matchedRuleException = "matched rule - exception"
        /// A rule with `action: ignore` matched.
        case matchedRuleIgnore = "matched rule - ignore"
        /// A rule with a known surrogate matched.
        case matchedRuleSurrogate = "matched rule - surrogate"
        /// A blocking rule matched.
        case matchedRuleBlock = "matched rule - block"
        /// No rule matched and the tracker's default is `ignore` (or unknown).
        case defaultIgnore = "default ignore"
        /// No rule matched and the tracker's default is `block`.
        case defaultBlock = "default block"
    }

    /// What to do, or nil when the request is not a tracker and is not blocked.
    public var action: Action?
    /// Why.
    public var reason: Reason
    /// The tracker the request belongs to (after CNAME uncloaking, the target's tracker).
    public var tracker: Tracker?
    /// The entity owning the tracker, when tds.json lists it.
    public var entity: Entity?
    /// The index in `tracker.rules` of the rule that decided, when one did.
    public var matchedRuleIndex: Int?
    /// The CNAME target the request host was uncloaked to, when the tracker was found that way.
    public var cnameTarget: String?
    /// The request-blocklist rule that blocked the request, for ``Reason-swift.enum/requestBlocklist``.
    public var requestBlocklistRule: RequestBlocklist.Rule?
    /// The input entry that decided, nil only for ``Reason-swift.enum/noMatch`` (nothing did).
    public var decidingEntry: DecidingEntry?

    /// Creates a decision.
    public init(
        action: Action?, reason: Reason, tracker: Tracker? = nil, entity: Entity? = nil,
        matchedRuleIndex: Int? = nil, cnameTarget: String? = nil, requestBlocklistRule: RequestBlocklist.Rule? = nil,
        decidingEntry: DecidingEntry? = nil
    ) {
        self.action = action
        self.reason = reason
        self.tracker = tracker
        self.entity = entity
        self.matchedRuleIndex = matchedRuleIndex
        self.cnameTarget = cnameTarget
        self.requestBlocklistRule = requestBlocklistRule
        self.decidingEntry = decidingEntry
    }

    /// Whether the request does not load from the network (blocked or redirected).
    public var isBlocked: Bool {
        switch action {
        case .block?, .redirect?: true
        case .ignore?, nil: false
        }
    }

    /// Whether the request belongs to a tracker (possibly uncloaked).
    public var isTracker: Bool { tracker != nil }

    /// Whether the tracker was found by uncloaking a CNAME.
    public var isCNAMEUncloaked: Bool { cnameTarget != nil }

    /// The matched rule, when one decided.
    public var matchedRule: Tracker.Rule? {
        guard let tracker, let index = matchedRuleIndex, tracker.rules.indices.contains(index) else { return nil }
        return tracker.rules[index]
    }
}

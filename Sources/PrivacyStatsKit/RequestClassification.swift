import TrackerDataKit
import TrackerlessCore

/// What the host's resolver says about one observed request, reduced to what the statistics need.
///
/// Immutable and shared (a class): the cache and every page that saw the request hold the same
/// one, which keeps copying it to one reference count.
final class RequestClassification: Sendable {
    /// The request host; "" when the URL does not parse.
    let host: String
    /// Whether the request goes to another registrable domain than the site.
    let isThirdParty: Bool
    /// The company the request is counted under: the tracker owner's parent (`owner.ownedBy`),
    /// else the owner (`owner.name`), else the registrable domain; nil when the request is not
    /// a tracker and is not blocked.
    let company: String?
    /// The tracker domain, for trackers.
    let trackerDomain: String?
    /// The tracker's Firefox bucket.
    let category: FirefoxCategory
    /// Whether the resolver blocks (or redirects) it.
    let blocks: Bool
    /// Why the resolver lets a tracker load.
    let allowedReason: AllowedReason?
    /// The surrogate the resolver redirects it to.
    let surrogate: String?
    /// The Click-to-Load rule action (`block-ctl-yt`) of the rule that blocks it, if one does.
    let clickToLoadAction: String?
    /// The input entry that decided (``BlockingDecision/decidingEntry``).
    let decidingEntry: BlockingDecision.DecidingEntry?

    init(
        host: String, isThirdParty: Bool, company: String? = nil, trackerDomain: String? = nil,
        category: FirefoxCategory = .other, blocks: Bool = false, allowedReason: AllowedReason? = nil,
        surrogate: String? = nil, clickToLoadAction: String? = nil, decidingEntry: BlockingDecision.DecidingEntry? = nil
    ) {
        self.host = host
        self.isThirdParty = isThirdParty
        self.company = company
        self.trackerDomain = trackerDomain
        self.category = category
        self.blocks = blocks
        self.allowedReason = allowedReason
        self.surrogate = surrogate
        self.clickToLoadAction = clickToLoadAction
        self.decidingEntry = decidingEntry
    }

    static let unparseable = RequestClassification(host: "", isThirdParty: false)

    /// The dashboard state of the request after the page saw it end `observed`; nil when it is
    /// not a tracker and nothing blocks it.
    ///
    /// A request the resolver blocks but that the page saw load was not blocked:
    /// ``AllowedReason/protectionsOff``. Pending or failed, it is taken as blocked, which is how a
    /// content blocker's block looks from the page. A Click-to-Load embed that loaded after the
    /// user clicked to load its action on the page (`clickedActions`) is
    /// ``AllowedReason/clickToLoad``.
    func state(observed: ObservedState, clickedActions: Set<String> = []) -> TrackerState? {
        guard company != nil else { return nil }
        if blocks {
            guard observed == .loaded else { return .blocked }
            if let clickToLoadAction, clickedActions.contains(clickToLoadAction) { return .allowed(.clickToLoad) }
            return .allowed(.protectionsOff)
        }
        return allowedReason.map { .allowed($0) }
    }
}

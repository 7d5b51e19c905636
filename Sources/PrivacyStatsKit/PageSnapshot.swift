public import TrackerDataKit
public import TrackerlessCore

/// The privacy dashboard's view of one page at one moment: what it requested, which trackers
/// were blocked or allowed and why, by company and by category, and which surrogates ran.
///
/// A value: take it with ``PrivacyStats/snapshot(tab:)`` or ``PageStats/snapshot(tab:)``,
/// write it with ``jsonString()`` (schema in the DocC article "Dashboard snapshot") or render it
/// with ``DashboardHTML/render(_:)``. Every list is sorted, so equal statistics give equal
/// snapshots and equal JSON.
public struct PageSnapshot: Sendable, Hashable {
    /// The version of the JSON schema, raised when a field changes meaning or is removed.
    public static let schemaVersion = 2

    /// The tab, when the snapshot was taken through ``PrivacyStats``.
    public var tab: TabID?
    /// The page's current URL.
    public var url: String
    /// The URL the page was committed with, which requests are classified against.
    public var committedURL: String
    /// The site's registrable domain (eTLD+1), or its host.
    public var site: String?
    /// Whether tracker protection is on for the site.
    public var isProtected: Bool
    /// The company that owns the site, when Tracker Radar knows it.
    public var siteOwner: Company?
    /// Request counts.
    public var requests: RequestCounts
    /// Tracker counts, deduplicated by (company, host, state).
    public var trackers: TrackerCounts
    /// Allowed trackers by reason, every reason listed (zeros included) in ``AllowedReason`` order.
    public var allowedReasons: [ReasonCount]
    /// Trackers by Firefox category, every category listed in `FirefoxCategory.dashboardOrder`.
    public var categories: [CategoryCount]
    /// Companies with at least one tracker request: those with blocked trackers first, then by
    /// prevalence (highest first), then by name.
    public var companies: [CompanyTrackers]
    /// Surrogates the blocking script ran, by surrogate then host.
    public var surrogates: [SurrogateUse]
    /// What happened to the page's messages and events.
    public var counters: Counters

    /// A company in Tracker Radar.
    public struct Company: Sendable, Hashable {
        /// The entity name (the key of tds `entities`), or a registrable domain when no entity is known.
        public var name: String
        /// The name to show.
        public var displayName: String
        /// The share of sites its trackers are on, as a percentage (tds entity `prevalence`).
        public var prevalence: Double?
        /// Whether its prevalence is at least ``PrivacyStats/Limits/majorNetworkPrevalence``.
        public var isMajorNetwork: Bool
    }

    /// How many requests the page made.
    public struct RequestCounts: Sendable, Hashable {
        /// Distinct requests observed: (URL, type), a report without a type (the host's, a
        /// script's `other`) counting with the URL's first request.
        public var observed: Int
        /// Those to another registrable domain than the site.
        public var thirdParty: Int
        /// Those the resolver calls trackers (or blocks through the request blocklist).
        public var trackers: Int
    }

    /// Trackers, one per (company, host, state).
    public struct TrackerCounts: Sendable, Hashable {
        /// Blocked (company, host) pairs.
        public var blocked: Int
        /// Allowed (company, host, reason) triples.
        public var allowed: Int
        /// Companies with a blocked tracker.
        public var companiesBlocked: Int
        /// Companies with an allowed tracker.
        public var companiesAllowed: Int
    }

    /// Allowed trackers of one reason.
    public struct ReasonCount: Sendable, Hashable {
        /// The reason.
        public var reason: AllowedReason
        /// Allowed trackers (company, host) with that reason.
        public var trackers: Int
    }

    /// Trackers of one category.
    public struct CategoryCount: Sendable, Hashable {
        /// The category.
        public var category: FirefoxCategory
        /// Blocked trackers in it.
        public var blocked: Int
        /// Allowed trackers in it.
        public var allowed: Int
    }

    /// One company's trackers on the page.
    public struct CompanyTrackers: Sendable, Hashable {
        /// The company.
        public var company: Company
        /// Its hosts with their states, by host then state.
        public var hosts: [HostState]
        /// Hosts blocked.
        public var blocked: Int
        /// Hosts allowed (per reason).
        public var allowed: Int
    }

    /// One host of a company in one state.
    public struct HostState: Sendable, Hashable {
        /// The request host.
        public var host: String
        /// The tracker domain in tds, nil for a request blocked by the request blocklist.
        public var tracker: String?
        /// Blocked or allowed with the reason.
        public var state: TrackerState
        /// The tracker's Firefox category.
        public var category: FirefoxCategory
        /// Distinct requests to the host in that state (as ``RequestCounts/observed`` counts them).
        public var requests: Int
        /// What the resolver named as deciding each of those requests, distinct, in the order
        /// first seen (see `BlockingDecision.DecidingEntry`). A request the
        /// page saw load although the resolver blocks it keeps the entry that blocks it: the
        /// state, not the entry, says it loaded.
        public var decidedBy: [BlockingDecision.DecidingEntry]
        /// The rule engine's rules the host named as deciding those requests (engine mode:
        /// ``NativeObservation/engineRule``), distinct, in the order first seen; empty when the
        /// host decided without the engine or did not ask which rule.
        public var engineRules: [EngineRule]

        /// Creates a host state.
        public init(
            host: String, tracker: String?, state: TrackerState, category: FirefoxCategory, requests: Int,
            decidedBy: [BlockingDecision.DecidingEntry] = [], engineRules: [EngineRule] = []
        ) {
            self.host = host
            self.tracker = tracker
            self.state = state
            self.category = category
            self.requests = requests
            self.decidedBy = decidedBy
            self.engineRules = engineRules
        }
    }

    /// A surrogate that ran in place of a script.
    public struct SurrogateUse: Sendable, Hashable {
        /// The surrogate's name, for example `analytics.js`.
        public var surrogate: String
        /// The host of the script it replaced.
        public var host: String

        /// Creates a use.
        public init(surrogate: String, host: String) {
            self.surrogate = surrogate
            self.host = host
        }
    }

    /// What happened to the page's messages and events.
    public struct Counters: Sendable, Hashable {
        /// Messages accepted for the page.
        public var messages = 0
        /// Distinct requests recorded.
        var requests = 0
        /// Requests to other registrable domains.
        var thirdPartyRequests = 0
        /// Requests classified as trackers or blocked.
        var trackerRequests = 0
        /// Events repeating what the page already knew.
        public var duplicateEvents = 0
        /// Events the scripts dropped (their `dropped` counts), at most 2^53 - 1.
        public var eventsDroppedByScripts = 0
        /// Events the host dropped: the page reached ``PrivacyStats/Limits/maxRequestsPerPage`` or
        /// ``PrivacyStats/Limits/maxSurrogatesPerPage``.
        public var eventsDroppedByHost = 0
        /// Requests whose URL does not parse (counted as observed, never as trackers).
        public var unparseableURLs = 0
        /// Surrogate events for URLs the resolver does not redirect to that surrogate (ignored).
        public var unverifiedSurrogates = 0

        /// Creates zero counters.
        public init() {}
    }
}

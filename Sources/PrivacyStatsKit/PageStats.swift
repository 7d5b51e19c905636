public import TrackerDataKit
import TrackerlessCore

/// The statistics of one page: one main-frame navigation of a tab, with every frame in it.
///
/// The synchronous core of ``PrivacyStats``: it takes observed events, classifies each request
/// with the resolver, and keeps the dashboard's counts. Not thread-safe by itself (a value type);
/// ``PrivacyStats`` guards one per tab.
///
/// ```swift
/// var page = PageStats(url: "https://news.example/", resolver: resolver)
/// page.record(.request(url: "https://www.google-analytics.com/analytics.js", type: .script, state: .failed))
/// page.snapshot().trackers.blocked   // 1
/// ```
///
/// ## Dedup
/// - A request is its (URL, type) on the page. A report whose type is unknown (a
///   ``NativeObservation`` without one, a script's `other`) is of the first request reported
///   with that URL; a request first reported with an unknown type takes the first known type
///   reported for its URL (and is classified again with it).
/// - The host's own report (a ``NativeObservation``) decides what happened to it: a page can
///   forge neither. Without one, its state is the strongest the scripts reported, whatever the
///   order: `failed` and `blocked` over `loaded` over `pending`. A block is what a content
///   blocker or the blocking script did, and wins over any load reported beside it.
/// - A surrogate that ran in place of a script counts as a surrogate, and its script URL as
///   blocked unless a request event says what else happened: `loaded` (the real script reached
///   the network too, as a parser-inserted script does when the blocking script runs the
///   surrogate but nothing blocks the load) makes it a load, `failed` or `blocked` a block. The
///   outcome depends on the events, not on their order.
/// - A tracker counts once per (company, host, state), the dashboard's key: ten blocked scripts
///   from `www.google-analytics.com` are one blocked tracker, as DuckDuckGo shows them.
///   Requests that move to another state move their key with them; a key with no request left
///   disappears.
/// - A surrogate counts once per (surrogate, host), and only when the resolver redirects that URL
///   to that surrogate.
public struct PageStats: Sendable {
    /// The URL the page was committed with (``PrivacyStats/didCommitNavigation(tab:url:)``); the
    /// site every request is classified against.
    public let committedURL: String
    /// The page's current URL: the committed one, or the latest same-document navigation.
    public private(set) var url: String
    /// The caps.
    public let limits: PrivacyStats.Limits

    let classifier: RequestClassifier
    private var requests: [RequestKey: RequestRecord] = [:]
    /// The first request of each URL, by the URL's key of type `other`: where reports of an
    /// unknown type go.
    private var firstOfURL: [RequestKey: RequestKey] = [:]
    private var triples: [TripleKey] = []
    private var tripleInfo: [TripleInfo] = []
    private var tripleIndex: [TripleKey: Int] = [:]
    /// Whether each key in ``triples`` is in the totals: it had requests at the last
    /// ``takeTripleChanges()``.
    private var inTotals: [Bool] = []
    /// Indices in ``triples`` whose requests went from none to some or back since the last
    /// ``takeTripleChanges()`` (repeats allowed).
    private var changedTriples: [Int] = []
    private var surrogates: [SurrogateKey: Int] = [:]
    var counters = PageSnapshot.Counters()
    /// The Click-to-Load actions the user clicked to load on this page.
    private var clickedActions: Set<String> = []

    /// Starts an empty page.
    public init(url: String, resolver: TrackerResolver, limits: PrivacyStats.Limits = .default) {
        self.init(url: url, resolver: resolver, limits: limits, cache: ClassificationCache())
    }

    /// Starts an empty page that shares what its ``PrivacyStats`` learnt from the resolver.
    init(url: String, resolver: TrackerResolver, limits: PrivacyStats.Limits, cache: ClassificationCache) {
        committedURL = url
        self.url = url
        self.limits = limits
        classifier = RequestClassifier(resolver: resolver, topURL: url, cache: cache)
    }

    /// The registrable domain (eTLD+1) of the committed URL, or its host; nil when it does not parse.
    public var siteDomain: String? { classifier.siteDomain }

    /// Records every event of a message the host accepted, and the events the script dropped.
    ///
    /// Same-document navigations count only from the top frame.
    public mutating func record(_ message: ScriptMessage) {
        counters.messages += 1
        // A page's `dropped` may claim any count up to 2^53: the sum stops there (exact in JSON)
        // instead of overflowing after a thousand such messages.
        counters.eventsDroppedByScripts = min(
            counters.eventsDroppedByScripts + min(max(message.dropped, 0), JSONCount.maximum), JSONCount.maximum)
        for event in message.events {
            if case .navigation = event, !message.page.isTopFrame { continue }
            record(event)
        }
    }

    /// Records one observed event.
    public mutating func record(_ event: ObservedEvent) {
        switch event {
        case .request(let url, let type, let state): recordRequest(url: url, type: type, state: state)
        case .surrogate(let url, let surrogate): recordSurrogate(url: url, surrogate: surrogate)
        case .navigation(let url): self.url = url
        case .clickToLoad(_, let action, _): recordClickToLoad(action: action)
        }
    }

    /// Records what the host itself saw of a request (see ``NativeObservation``): its outcome is
    /// the request's, whatever the scripts report. The page itself (type `main_frame`) is not
    /// one of its requests and is left out.
    public mutating func record(_ observation: NativeObservation) {
        let type = observation.type ?? .other
        if type == .mainFrame { return }
        let (key, existing) = find(url: observation.url, type: type)
        guard var record = existing else {
            add(key, reported: nil, isReplacedBySurrogate: false, native: observation.outcome, engineRule: observation.engineRule)
            return
        }
        // A load that went to the network outweighs a block of the same URL.
        guard record.native != .allowed, record.native != observation.outcome else {
            // The same outcome, now with the rule that decided it.
            if record.native == observation.outcome, record.engineRule == nil, let rule = observation.engineRule {
                record.engineRule = rule
                update(key, record)
            }
            return
        }
        record.native = observation.outcome
        record.engineRule = observation.engineRule
        update(key, record)
    }

    /// The user clicked to load `action`'s embeds: those that load from now on are allowed by
    /// the click, not by protections being off. A click loads nothing by itself.
    private mutating func recordClickToLoad(action: String) {
        guard clickedActions.insert(action).inserted else { return }
        for (key, record) in requests where record.classification.clickToLoadAction == action && record.outcome == .loaded {
            update(key, record)
        }
    }

    private mutating func recordRequest(url: String, type: RequestType, state: ObservedState) {
        let (key, existing) = find(url: url, type: type)
        guard var record = existing else {
            add(key, reported: state, isReplacedBySurrogate: false, native: nil)
            return
        }
        guard state.outranks(record.reported) else {
            counters.duplicateEvents += 1
            return
        }
        record.reported = state
        update(key, record)
    }

    /// The request a report of `url` and `type` is about, with its record when the page has one:
    /// the same (URL, type); for an unknown type (`other`), the URL's first request; for a known
    /// type, the URL's first request when its type is unknown, which takes this type.
    private mutating func find(url: String, type: RequestType) -> (RequestKey, RequestRecord?) {
        let key = RequestKey(url: url, type: type)
        if let record = requests[key] { return (key, record) }
        let urlKey = key.withType(.other)
        guard let first = firstOfURL[urlKey], var record = requests[first] else { return (key, nil) }
        if type == .other { return (first, record) }
        guard first.type == .other else { return (key, nil) }
        // Stored again at once under its known type, whatever the caller does next.
        requests[first] = nil
        let classification = classifier.classify(key)
        if (classification.company != nil) != (record.classification.company != nil) {
            counters.trackerRequests += classification.company != nil ? 1 : -1
        }
        record.classification = classification
        firstOfURL[urlKey] = key
        update(key, record)
        return (key, requests[key])
    }

    /// Records a request the page had not reported yet, unless the page is at its cap.
    private mutating func add(
        _ key: RequestKey, reported: ObservedState?, isReplacedBySurrogate: Bool, native: NativeObservation.Outcome?,
        engineRule: EngineRule? = nil
    ) {
        guard requests.count < limits.maxRequestsPerPage else {
            counters.eventsDroppedByHost += 1
            return
        }
        let classification = classifier.classify(key)
        counters.requests += 1
        if classification.host.isEmpty { counters.unparseableURLs += 1 }
        if classification.isThirdParty { counters.thirdPartyRequests += 1 }
        if classification.company != nil { counters.trackerRequests += 1 }
        let urlKey = key.withType(.other)
        if firstOfURL[urlKey] == nil { firstOfURL[urlKey] = key }
        update(key, RequestRecord(
            reported: reported, isReplacedBySurrogate: isReplacedBySurrogate, native: native, engineRule: engineRule,
            classification: classification, triple: nil))
    }

    /// Stores a request's record under the dashboard key of its outcome.
    private mutating func update(_ key: RequestKey, _ changed: RequestRecord) {
        var record = changed
        let classification = record.classification
        let triple = classification.state(observed: record.outcome, clickedActions: clickedActions).map { tripleKey(classification, $0) }
        let old = record.triple
        record.triple = move(from: old, to: triple, classification)
        if old != record.triple || record.countedEngineRule != record.engineRule {
            if let old { tripleInfo[old].count(rule: record.countedEngineRule, -1) }
            if let new = record.triple { tripleInfo[new].count(rule: record.engineRule, 1) }
            record.countedEngineRule = record.triple == nil ? nil : record.engineRule
        }
        requests[key] = record
    }

    private func tripleKey(_ classification: RequestClassification, _ state: TrackerState) -> TripleKey {
        TripleKey(company: classification.company ?? classification.host, host: classification.host, state: state)
    }

    /// Moves a request from one dashboard key to another, keeping the counts of requests under
    /// each key; returns the new key's index.
    private mutating func move(from old: Int?, to new: TripleKey?, _ classification: RequestClassification) -> Int? {
        var newIndex: Int?
        if let new {
            if let index = tripleIndex[new] {
                newIndex = index
            } else {
                let index = triples.count
                triples.append(new)
                tripleInfo.append(TripleInfo(
                    trackerDomain: classification.trackerDomain, category: classification.category, requests: 0))
                tripleIndex[new] = index
                inTotals.append(false)
                newIndex = index
            }
        }
        if old != newIndex {
            if let old {
                tripleInfo[old].requests -= 1
                tripleInfo[old].count(classification.decidingEntry, -1)
                if tripleInfo[old].requests == 0 { changedTriples.append(old) }
            }
            if let newIndex {
                tripleInfo[newIndex].requests += 1
                tripleInfo[newIndex].count(classification.decidingEntry, 1)
                if tripleInfo[newIndex].requests == 1 { changedTriples.append(newIndex) }
            }
        }
        return newIndex
    }

    private mutating func recordSurrogate(url: String, surrogate: String) {
        let classification = classifier.classify(RequestKey(url: url, type: .script))
        guard classification.surrogate == surrogate else {
            counters.unverifiedSurrogates += 1
            return
        }
        let key = SurrogateKey(surrogate: surrogate, host: classification.host)
        if surrogates[key] == nil, surrogates.count >= limits.maxSurrogatesPerPage {
            counters.eventsDroppedByHost += 1
            return
        }
        surrogates[key, default: 0] += 1
        let (request, existing) = find(url: url, type: .script)
        guard var record = existing else {
            add(request, reported: nil, isReplacedBySurrogate: true, native: nil)
            return
        }
        guard !record.isReplacedBySurrogate else {
            counters.duplicateEvents += 1
            return
        }
        record.isReplacedBySurrogate = true
        update(request, record)
    }

    /// Calls `body` with every dashboard key that has requests under it.
    func forEachTriple(_ body: (TripleKey, TripleInfo) -> Void) {
        for index in triples.indices where tripleInfo[index].requests > 0 { body(triples[index], tripleInfo[index]) }
    }

    /// Surrogates that ran, sorted.
    func surrogateUses() -> [PageSnapshot.SurrogateUse] {
        surrogates.keys.map { PageSnapshot.SurrogateUse(surrogate: $0.surrogate, host: $0.host) }
            .sorted { ($0.surrogate, $0.host) < ($1.surrogate, $1.host) }
    }

    /// The dashboard keys that appeared on the page or left it since the previous call: what
    /// ``PrivacyStats`` adds to the totals or takes back from them, so that the totals hold the
    /// page's final keys only (a script counted blocked for its surrogate, then reported loaded,
    /// moves from blocked to allowed in the totals too).
    mutating func takeTripleChanges() -> [TripleChange] {
        defer { changedTriples.removeAll(keepingCapacity: true) }
        var changes: [TripleChange] = []
        for index in changedTriples {
            let isOnPage = tripleInfo[index].requests > 0
            guard isOnPage != inTotals[index] else { continue }
            inTotals[index] = isOnPage
            changes.append(TripleChange(
                index: index, company: triples[index].company, state: triples[index].state, isAdded: isOnPage))
        }
        return changes
    }
}

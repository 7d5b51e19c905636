public import Foundation
public import TrackerDataKit
public import TrackerlessCore

/// The host side of the scripts' messages: checks each message, classifies every observed
/// request with the host's `TrackerResolver`, and keeps the privacy dashboard's statistics per
/// tab and page, and totals over time.
///
/// ```swift
/// let stats = PrivacyStats(resolver: resolver, secrets: [secret], store: try StatsStore(path: path))
/// stats.didCommitNavigation(tab: "1", url: "https://news.example/")    // main-frame commit
/// stats.receive(.json(body), tab: "1")                                // every script message
/// let page = stats.snapshot(tab: "1")                                 // the dashboard
/// try stats.flush()                                                   // totals to disk now (quitting)
/// ```
///
/// Callable from any thread: one lock guards the state; each call is short (a message of 200
/// events takes tens of microseconds).
///
/// ## What it trusts
/// Only the host's own word for which page a tab shows (``didCommitNavigation(tab:url:)``) and
/// the resolver's for what a request is. A message must carry a current render secret; a page
/// script that learns nothing of it cannot post. Even then a message can only say that a URL was
/// requested and whether it loaded: it cannot make a request a tracker or not, nor change a
/// company, category or reason.
///
/// ## Pages
/// A main-frame navigation starts a new page and empties the dashboard; every frame's messages
/// count towards the page that holds them. The first top-frame document to report after the
/// navigation becomes the page's document (one id per script: the blocking and inference scripts
/// draw their own); later top-frame messages from another document, and
/// messages from documents of earlier pages, are rejected as ``MessageRejection/stalePage``.
/// A page that ended still takes the messages of the documents that reported for it (the
/// tab's last four pages): what they send while going away, such as their unload beacons,
/// completes that page's own snapshot (``snapshot(tab:page:)``), never the next page's.
/// One exception: when the document of one of the tab's last four pages reports again right
/// after a navigation back to its URL (WebKit's back/forward cache keeps documents alive), that
/// page comes back with its counts.
public final class PrivacyStats: @unchecked Sendable {
    /// Caps on messages and on what one page may hold, so a flood cannot exhaust memory.
    public struct Limits: Sendable, Hashable {
        /// Largest message body accepted, in bytes (256 KiB).
        public var maxMessageBytes = 256 * 1024
        /// Most events in one message (500).
        public var maxEventsPerMessage = 500
        /// Longest URL in a message, in UTF-8 bytes (8,192).
        public var maxURLBytes = 8192
        /// Most distinct requests (URL, type) kept per page; later new requests are dropped and
        /// counted (5,000).
        public var maxRequestsPerPage = 5000
        /// Most distinct surrogate uses kept per page (256).
        public var maxSurrogatesPerPage = 256
        /// Entity prevalence (percent of sites) from which a company is a major tracker network:
        /// 25, as DuckDuckGo's current privacy dashboard (`MAJOR_TRACKER_THRESHOLD_PCT = 25` in
        /// duckduckgo/privacy-dashboard's site model; its older extension used 7).
        public var majorNetworkPrevalence: Double = 25

        /// The defaults of message protocol v1.
        public static let `default` = Limits()

        /// Creates the defaults.
        public init() {}
    }

    /// What ``receive(_:tab:)-(MessageBody,_)`` did with a message.
    public enum ReceiveResult: Sendable, Hashable {
        /// Accepted; its events (this many) are recorded.
        case accepted(events: Int)
        /// Refused, and counted under the reason; nothing recorded.
        case rejected(MessageRejection)

        /// Whether the message was accepted.
        public var isAccepted: Bool {
            if case .accepted = self { return true }
            return false
        }
    }

    /// The caps in force.
    public let limits: Limits
    /// The resolver that classifies the requests of pages that start from now on
    /// (``setResolver(_:)`` replaces it).
    public var resolver: TrackerResolver { withLock { currentResolver } }

    private let lock = NSLock()
    /// Held for the whole of a flush, so that records reach the journal in the order their counts
    /// were taken: a record that takes back a count must follow the one that added it.
    private let flushLock = NSLock()
    private var currentResolver: TrackerResolver
    private var secrets: [ScriptSecret]
    private var store: StatsStore?
    private let clock: @Sendable () -> Double
    private var tabs: [TabID: TabState] = [:]
    private var rejectionCounts: [MessageRejection: Int] = [:]
    private var liveTotals: TotalsSnapshot
    private var unflushed: [DeltaKey: TotalsDelta] = [:]
    private var cache = ClassificationCache()
    private let saving: SavingSchedule
    /// Set once, at the end of init: the writes ``saving`` asks for (nil without a store).
    private var savingTimer: SavingTimer?
    private var savingError: StatsStoreError?

    /// Creates the statistics of a host.
    ///
    /// - Parameters:
    ///   - resolver: classifies every observed request; the same resolver the rule lists were
    ///     built with.
    ///   - secrets: the secrets of the scripts currently rendered (`ScriptSecret`, TrackerlessCore);
    ///     `ScriptSecret.marker` among them accepts nothing, every page knows it.
    ///   - limits: caps on messages and pages.
    ///   - store: where totals persist; nil keeps them in memory only.
    ///   - saving: when the totals are written to `store` without a call to ``flush()``.
    ///   - clock: seconds since 1970 (UTC), which dates the totals; tests pass a fixed one.
    public init(
        resolver: TrackerResolver, secrets: [ScriptSecret], limits: Limits = .default, store: StatsStore? = nil,
        saving: SavingSchedule = .default, clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        currentResolver = resolver
        self.secrets = secrets
        self.limits = limits
        self.store = store
        self.saving = saving
        self.clock = clock
        liveTotals = store?.totals ?? TotalsSnapshot()
        if store != nil, saving != .manual {
            savingTimer = SavingTimer { [weak self] in self?.saveOnSchedule() }
        }
    }

    /// Replaces the accepted secrets, for example after rendering the scripts again.
    public func setSecrets(_ secrets: [ScriptSecret]) {
        withLock { self.secrets = secrets }
    }

    /// Replaces the resolver, for example after a blocklist update, keeping every tab, page,
    /// count and total.
    ///
    /// Pages open now stay classified by the resolver they started with (they were loaded with
    /// the rules of its blocklist); pages from the next ``didCommitNavigation(tab:url:)`` on use
    /// `resolver`. What was learnt from the old resolver is dropped, so no classification of one
    /// resolver is reused by the other.
    public func setResolver(_ resolver: TrackerResolver) {
        withLock {
            currentResolver = resolver
            cache = ClassificationCache()
        }
    }

    /// A main-frame navigation committed in `tab`: a new, empty page at `url`.
    public func didCommitNavigation(tab: TabID, url: String) {
        withLock {
            var state = tabs[tab] ?? TabState()
            if let page = state.page {
                state.retire(page)
                pageEnded()
            }
            state.pageCount += 1
            state.page = TabState.Page(
                stats: PageStats(url: url, resolver: currentResolver, limits: limits, cache: cache), number: state.pageCount)
            tabs[tab] = state
            addToTotals(site: state.page?.stats.siteDomain) { $0.pages += 1 }
        }
    }

    /// Checks a message from `tab` and records its events.
    public func receive(_ body: MessageBody, tab: TabID) -> ReceiveResult {
        let secrets = withLock { self.secrets }
        // Decoding needs no lock: it is the bulk of the work, and touches no shared state.
        let decoded = ScriptMessage.decode(body, limits: limits) { candidate in
            secrets.contains { $0.matches(candidate) }
        }
        return withLock {
            switch decoded {
            case .failure(let rejection): return reject(rejection)
            case .success(let message): return record(message, tab: tab)
            }
        }
    }

    /// Records a message already decoded and checked (``ScriptMessage/decode(_:limits:acceptsSecret:)``);
    /// only the page checks apply.
    public func receive(_ message: ScriptMessage, tab: TabID) -> ReceiveResult {
        withLock {
            guard secrets.contains(where: { $0.matches(message.secret) }) else { return reject(.wrongSecret) }
            return record(message, tab: tab)
        }
    }

    /// Records a request the host saw itself in `tab` (see ``NativeObservation``), in the tab's
    /// current page: the page that committed last (``didCommitNavigation(tab:url:)``). Its outcome
    /// is the request's, whatever the scripts report of it.
    ///
    /// - Returns: false when the tab has no page (nothing recorded).
    @discardableResult
    public func observe(_ observation: NativeObservation, tab: TabID) -> Bool {
        withLock {
            guard var state = tabs[tab], var page = state.page else { return false }
            // The tab's copy is released while the page is updated, so the page is changed in place.
            state.page = nil
            tabs[tab] = state
            page.stats.record(observation)
            addChangesToTotals(of: &page)
            state.page = page
            tabs[tab] = state
            return true
        }
    }

    /// The dashboard of the page in `tab`; an empty snapshot when the tab has no page.
    public func snapshot(tab: TabID) -> PageSnapshot {
        withLock { tabs[tab]?.page?.stats.snapshot(tab: tab) ?? .empty(tab: tab) }
    }

    /// The number of the page in `tab`: 1 for the tab's first navigation, one more at each;
    /// nil when the tab has no page.
    public func pageNumber(tab: TabID) -> Int? {
        withLock { tabs[tab]?.page?.number }
    }

    /// The dashboard of page `number` of `tab` (``pageNumber(tab:)``): the current page, or one
    /// of the last four that ended, with what its documents reported after it ended (a page
    /// that navigated itself away, its unload beacons); nil when the page is not kept.
    public func snapshot(tab: TabID, page number: Int) -> PageSnapshot? {
        withLock {
            guard let state = tabs[tab] else { return nil }
            if let page = state.page, page.number == number { return page.stats.snapshot(tab: tab) }
            return state.history.last { $0.number == number }?.stats.snapshot(tab: tab)
        }
    }

    /// The tabs that have a page, sorted.
    public func tabIDs() -> [TabID] {
        withLock { tabs.filter { $0.value.page != nil }.keys.sorted() }
    }

    /// The totals: those in the store when it was opened plus everything since, flushed or not.
    public func totals() -> TotalsSnapshot {
        withLock { liveTotals }
    }

    /// Rejected messages by reason, every reason listed.
    public func rejections() -> [MessageRejection: Int] {
        withLock {
            Dictionary(uniqueKeysWithValues: MessageRejection.allCases.map { ($0, rejectionCounts[$0] ?? 0) })
        }
    }

    /// Forgets a tab and its page (its counts stay in the totals).
    public func closeTab(_ tab: TabID) {
        withLock {
            if tabs.removeValue(forKey: tab)?.page != nil { pageEnded() }
        }
    }

    /// Writes the totals gathered since the last flush to the store as one durable record; when
    /// it returns, they survive a crash. Without a store (none given, or closed) it only forgets
    /// them as unflushed.
    ///
    /// - Throws: ``StatsStoreError`` when the store cannot write; the counts stay unflushed and
    ///   the next flush retries them.
    public func flush() throws(StatsStoreError) {
        flushLock.lock()
        defer { flushLock.unlock() }
        try flushHoldingFlushLock()
    }

    private func flushHoldingFlushLock() throws(StatsStoreError) {
        // The counts are taken out under the lock and written outside it, so messages keep
        // flowing while the journal syncs.
        let (deltas, store) = withLock {
            defer { unflushed.removeAll() }
            return (unflushed.values.sorted { ($0.week, $0.site) < ($1.week, $1.site) }, self.store)
        }
        do {
            try store?.append(deltas)
        } catch {
            withLock {
                for delta in deltas {
                    unflushed[DeltaKey(site: delta.site, week: delta.week), default: TotalsDelta(site: delta.site, week: delta.week)]
                        .add(delta)
                }
            }
            withLock { savingError = error }
            throw error
        }
        withLock { savingError = nil }
    }

    /// The last failure to write the totals, by ``flush()`` or on the ``SavingSchedule``; nil
    /// once a write succeeds. The counts it could not write stay unflushed and are retried.
    public var lastSavingError: StatsStoreError? {
        withLock { savingError }
    }

    /// A write the schedule asked for; its failure is kept in ``lastSavingError``.
    private func saveOnSchedule() {
        try? flush()
    }

    /// Whether counts gathered since the last flush are not in the store yet.
    public var hasUnflushedTotals: Bool {
        withLock { !unflushed.isEmpty }
    }

    /// Flushes, then lets go of the store, so that its files can be opened again (by a new
    /// runtime on the same cache, for example). The statistics keep working, with totals in
    /// memory only. Closing twice does nothing.
    ///
    /// - Throws: ``StatsStoreError`` when the last flush fails; the store is let go of all the
    ///   same, and the counts it could not write stay in ``totals()`` only.
    public func closeStore() throws(StatsStoreError) {
        flushLock.lock()
        defer { flushLock.unlock() }
        defer { withLock { store = nil } }
        try flushHoldingFlushLock()
    }

    // MARK: - Recording

    private func reject(_ rejection: MessageRejection) -> ReceiveResult {
        rejectionCounts[rejection, default: 0] += 1
        return .rejected(rejection)
    }

    private func record(_ message: ScriptMessage, tab: TabID) -> ReceiveResult {
        guard var state = tabs[tab], state.page != nil else { return reject(.unknownTab) }
        guard state.accepts(message) || state.restorePage(of: message) else {
            guard let index = state.endedPageIndex(of: message) else { return reject(.stalePage) }
            // A document of a page that ended, reporting as it goes away: that page's counts.
            state.history[index].stats.record(message)
            addChangesToTotals(of: &state.history[index])
            tabs[tab] = state
            return .accepted(events: message.events.count)
        }
        guard var page = state.page else { return reject(.unknownTab) }
        // The tab's copy is released while the page is updated, so the page is changed in place.
        state.page = nil
        tabs[tab] = state
        page.adopt(message)
        page.stats.record(message)
        addChangesToTotals(of: &page)
        state.page = page
        tabs[tab] = state
        return .accepted(events: message.events.count)
    }

    /// Adds to the totals the dashboard keys that appeared on the page or left it.
    private func addChangesToTotals(of page: inout TabState.Page) {
        let changes = page.stats.takeTripleChanges()
        if !changes.isEmpty {
            let site = page.stats.siteDomain ?? Self.noSite
            let week = currentWeek()
            var deltas: [String: TotalsDelta] = [:]
            for change in changes {
                // A key leaves the totals of the week it entered them in, so that no week's count
                // goes below what its pages showed.
                let changeWeek = change.isAdded ? week : page.totalsWeeks[change.index] ?? week
                if change.isAdded { page.totalsWeeks[change.index] = week }
                let sign = change.isAdded ? 1 : -1
                deltas[changeWeek, default: TotalsDelta(site: site, week: changeWeek)].add(change.state, of: change.company, sign)
            }
            for delta in deltas.values { addToTotals(delta) }
        }
    }

    private func currentWeek() -> String { ISOWeek.key(secondsSince1970: clock()) }

    private func addToTotals(site: String?, _ change: (inout TotalsDelta) -> Void) {
        var delta = TotalsDelta(site: site ?? Self.noSite, week: currentWeek())
        change(&delta)
        addToTotals(delta)
    }

    private func pageEnded() {
        if let seconds = saving.afterPageEnd { savingTimer?.request(within: seconds) }
    }

    private func addToTotals(_ delta: TotalsDelta) {
        if let seconds = saving.afterCount { savingTimer?.request(within: seconds) }
        liveTotals.apply(delta)
        unflushed[DeltaKey(site: delta.site, week: delta.week), default: TotalsDelta(site: delta.site, week: delta.week)]
            .add(delta)
    }

    /// The site of pages whose URL has no host.
    private static let noSite = "(no site)"

    private func withLock<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}

private struct DeltaKey: Hashable {
    var site: String
    var week: String
}

/// One tab: its current page and the documents of its earlier pages.
private struct TabState {
    struct Page {
        var stats: PageStats
        /// The top-frame document's id in each script, once that script has reported: the
        /// blocking and the inference script run in different worlds and draw their own ids.
        var topDocumentIDs: [ScriptMessage.Script: String] = [:]
        /// Every document that reported for the page (bounded).
        var documentIDs: Set<String> = []
        /// The week each of the page's dashboard keys (by index) entered the totals in.
        var totalsWeeks: [Int: String] = [:]
        /// The tab's navigation that made the page (``PrivacyStats/pageNumber(tab:)``).
        var number = 0

        mutating func adopt(_ message: ScriptMessage) {
            if message.page.isTopFrame, topDocumentIDs[message.script] == nil {
                topDocumentIDs[message.script] = message.page.id
            }
            if documentIDs.count < 1024 { documentIDs.insert(message.page.id) }
        }
    }

    var page: Page?
    /// Documents of earlier pages, whose late messages are stale.
    var retiredDocumentIDs: Set<String> = []
    /// The latest earlier pages, newest last, that a back/forward navigation may bring back.
    var history: [Page] = []
    static let maxHistory = 4
    /// Pages the tab has had.
    var pageCount = 0

    mutating func retire(_ page: Page) {
        if retiredDocumentIDs.count + page.documentIDs.count > 4096 { retiredDocumentIDs.removeAll() }
        retiredDocumentIDs.formUnion(page.documentIDs)
        if !page.topDocumentIDs.isEmpty {
            history.append(page)
            if history.count > Self.maxHistory { history.removeFirst() }
        }
    }

    /// Brings back an earlier page when its own top document reports again on a page that has
    /// not heard from its document yet, at the same URL: a back/forward navigation that WebKit
    /// served from its page cache, where the document (and its id) lives on. The page's counts
    /// come back with it, as DuckDuckGo restores a cached dashboard on back/forward.
    mutating func restorePage(of message: ScriptMessage) -> Bool {
        guard message.page.isTopFrame, let current = page, current.topDocumentIDs.isEmpty,
            let index = history.lastIndex(where: {
                $0.topDocumentIDs[message.script] == message.page.id && $0.stats.committedURL == current.stats.committedURL
            })
        else { return false }
        let restored = history.remove(at: index)
        retiredDocumentIDs.subtract(restored.documentIDs)
        page = restored
        return true
    }

    /// The index in ``history`` of the ended page whose document sent `message`: a document
    /// that reported for it before it ended. Nil for any other document.
    func endedPageIndex(of message: ScriptMessage) -> Int? {
        history.lastIndex { $0.documentIDs.contains(message.page.id) }
    }

    /// Whether a message belongs to the current page.
    func accepts(_ message: ScriptMessage) -> Bool {
        guard let page else { return false }
        if retiredDocumentIDs.contains(message.page.id) { return false }
        if message.page.isTopFrame {
            if let top = page.topDocumentIDs[message.script] { return top == message.page.id }
            // The first top-frame document must be on the committed page's host.
            return Self.host(message.page.frame) == Self.host(page.stats.committedURL)
        }
        // A frame reports the top URL as well as it knows it; a known, different host is another page.
        guard let reported = Self.host(message.page.url), let committed = Self.host(page.stats.committedURL) else {
            return true
        }
        return reported == committed
    }

    private static func host(_ url: String) -> String? {
        CanonicalURL(url).map(\.host)
    }
}

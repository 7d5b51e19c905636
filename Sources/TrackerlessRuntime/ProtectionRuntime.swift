import Foundation
public import PrivacyStatsKit
import TrackerDataKit
public import TrackerlessCore
public import UserScripts

/// What a host app embeds: the current ``ProtectionSet``, its updates, the sites where the user
/// turned protection off, and the privacy statistics of the host's tabs.
///
/// ```swift
/// let runtime = try ProtectionRuntime(inputs: inputs, cacheDirectory: cacheDirectory)
/// let set = runtime.currentSet                      // install its rule lists, scripts, handler
/// runtime.addObserver { set in /* install the new set */ }
/// let plan = runtime.navigationPlan(for: url)       // per navigation: what the web view gets
/// runtime.didCommitNavigation(tab: "1", url: url)   // main-frame commit
/// _ = runtime.receive(.json(body), tab: "1")        // every script message
/// runtime.didObserve(NativeObservation(url: uri, outcome: .allowed), tab: "1")   // a load the host saw
/// try await runtime.update(trackerData: .bytes(downloaded, name: "tds.json"))
/// ```
///
/// Callable from any thread. One lock guards the current state and is held only to read or swap
/// it; the work of an update or a toggle (reading, parsing, building, checking) runs outside it,
/// updates one at a time and toggles one at a time, and the result replaces the state in one
/// step. A reader therefore sees one whole set, never parts of two. A toggle never waits for an
/// update's build, only for its swap, and an update made while sites were toggled keeps them.
///
/// ## Updates
/// ``update(_:)`` reads, parses, builds and checks the new set off the caller's thread. It
/// replaces the current set only when every artifact is valid; otherwise the current set stays
/// and the error names the input and the place. The new set is written to the cache directory,
/// so the next launch loads it. The statistics keep their tabs and totals; pages loaded before
/// the update stay classified by the set they were loaded with.
///
/// ## One secret per run
/// Every set a runtime makes carries the same secret, drawn at launch (never written to disk).
/// Documents loaded before an update keep posting with the scripts they were given, so a secret
/// per set would either drop their messages or require accepting the old secret too; one secret
/// per run does neither, and a page learns no more from an update than before it.
///
/// ## Site toggles
/// ``setProtection(_:forSite:)`` turns protection off or on for one site as DuckDuckGo's
/// protections toggle does: a domain of the user allowlist (`DomainName.toggleDomain(_:)`), the
/// host without a leading `www.`, so `www.example.com` and `example.com` are one site and
/// `shop.example.com` another. The toggle is persisted atomically in the cache directory. It rebuilds no rule list: in WebKit an
/// `ignore-previous-rules` rule undoes only the blocks of its own list, so a small allowlist list
/// beside the big one could not unprotect a site, and folding the site into the big list means
/// recompiling it (seconds in WebKit). Instead the toggle decides what a navigation gets
/// (``navigationPlan(for:)-(String)``): a site with protection off gets no rule list and no blocking script
/// for its page, only the inference script, so it loads as without the SDK and its statistics
/// still count what it loaded. The statistics classify its requests with a resolver whose user
/// allowlist holds the site (reason "user allowlist"), made again at each toggle from the parsed
/// inputs (no rule list built). The adapter applies the plan per web view, at the navigation's
/// policy decision, so the toggle is in effect at the site's next navigation.
public final class ProtectionRuntime: @unchecked Sendable {
    /// The cache directory: the set's artifacts, the site toggles and the statistics' totals.
    public let cacheDirectory: String
    /// The statistics of the host's tabs, with their totals in the cache directory
    /// (`privacy-totals`, crash-safe, opened at launch, written on the default
    /// `SavingSchedule`: soon after each page ends and within 30 s of any count; call
    /// ``saveStatistics()`` when the host goes to the background or quits). Their resolver needs the parsed
    /// blocklist, which a warm launch leaves for later: they are made on first use, and the
    /// runtime starts that in the background at launch, so a first navigation rarely waits.
    public var stats: PrivacyStats { statsSlot.value }
    /// The secret every script of this run carries.
    public let secret: ScriptSecret

    private let cache: ProtectionCache
    /// Held from the start of init to deinit: one runtime per cache directory.
    private let cacheLock: CacheLock
    private let statsSlot: StatsSlot
    private let lock = NSLock()
    /// Held for the whole of an update, so updates apply one at a time.
    private let updateLock = NSLock()
    /// Held for a toggle, and for an update's swap only: a toggle never waits for a build, and
    /// no toggle is lost to an update built while it was made.
    private let toggleLock = NSLock()
    private var state: State
    private var observers: [Int: @Sendable (ProtectionSet) -> Void] = [:]
    private var nextObserver = 0
    private var storageError: ProtectionError?
    /// Why the statistics' store could not be opened at launch; their totals stay in memory.
    private let storeOpeningError: ProtectionError?
    /// The navigation decision with the toggled sites in its allowlist, for the last set and toggles.
    let toggledNavigation = ToggledNavigationProtector()

    /// What one swap replaces.
    private struct State {
        var inputs: ProtectionInputs
        var set: ProtectionSet
        /// Sites with protection off, beside the inputs' user allowlist.
        var sitesOff: UserAllowlist

        /// Whether protection is off for pages of `host`: toggled off, or in the inputs' user allowlist.
        func isOff(_ host: String) -> Bool { ProtectionRuntime.isOff(host, set: set, sitesOff: sitesOff) }
    }

    /// The file of the site toggles: a JSON array of hosts, a user allowlist.
    public var siteTogglesPath: String { cacheDirectory + "/protection-off.json" }

    /// Loads the set of `inputs` from the cache directory, or builds it and writes it there; reads
    /// the site toggles and opens the statistics' store.
    ///
    /// A warm launch (same inputs) reads and hashes the inputs, parses all but the blocklist, and
    /// loads the rule lists, scripts and engine without building them; the blocklist is parsed
    /// and the resolver made in the background (see ``stats``). Call it off the main thread when
    /// a cold build (hundreds of milliseconds on a full blocklist) matters.
    ///
    /// - Parameters:
    ///   - inputs: the documents of the first set.
    ///   - cacheDirectory: created when missing.
    ///   - statsLimits: the statistics' caps.
    ///   - secret: the run's secret; a fresh random one by default.
    /// - Throws: ``ProtectionError`` naming the input and the place, the artifact, or the store.
    public init(
        inputs: ProtectionInputs, cacheDirectory: String, statsLimits: PrivacyStats.Limits = .default,
        secret: ScriptSecret = .random()
    ) throws(ProtectionError) {
        try ProtectionCache.checkDirectoryPath(cacheDirectory)
        do throws(FileError) {
            try ProtectionCache.createDirectory(cacheDirectory)
        } catch {
            throw .unwritable(error)
        }
        // Before anything is read or written: a second runtime on this cache is refused here,
        // not after it has built a set and replaced the cached one.
        cacheLock = try CacheLock(directory: cacheDirectory)
        self.cacheDirectory = cacheDirectory
        self.secret = secret
        cache = ProtectionCache(directory: cacheDirectory)
        // What killed writes of an earlier run left; the lock says no one is writing now.
        for file in ["/protection-off.json", "/privacy-totals", "/privacy-totals.corrupt", "/privacy-totals.journal.corrupt"] {
            FileIO.removeStaleTemporaries(of: cacheDirectory + file)
        }
        let loaded = try ProtectionSet.load(inputs, cache: cache, secret: secret, expectingCache: true)
        storageError = loaded.storeIfBuilt(in: cache)
        var sitesOff = UserAllowlist()
        let togglesPath = cacheDirectory + "/protection-off.json"
        if FileManager.default.fileExists(atPath: togglesPath) {
            do throws(TrackerDataError) {
                sitesOff = try UserAllowlist(parsing: try Self.read(togglesPath), file: togglesPath)
            } catch {
                // Written atomically, so only a damaged disk gets here: protection on everywhere
                // (the safe side), and the host hears of it.
                storageError = .invalidInput(.userAllowlist, detail: error.description)
            }
        }
        // The statistics never gate protection: a store that cannot be opened (a full or
        // read-only disk, a damaged file, another program's hold on it, a newer Trackerless's
        // format) leaves the totals unsaved, and the host hears of it.
        let store: StatsStore?
        var storeOpeningError: ProtectionError?
        do throws(StatsStoreError) {
            store = try StatsStore(path: cacheDirectory + "/privacy-totals")
        } catch {
            storeOpeningError = .unwritable(FileError(path: error.path, reason: error.reason + "; the statistics' totals are not saved"))
            store = nil
        }
        self.storeOpeningError = storeOpeningError
        state = State(inputs: inputs, set: loaded.set, sitesOff: sitesOff)
        let secrets = [secret]
        statsSlot = StatsSlot(resolver: { [set = loaded.set, sitesOff] in Self.classifyingResolver(set: set, sitesOff: sitesOff) }) { resolver in
            PrivacyStats(resolver: resolver, secrets: secrets, limits: statsLimits, store: store)
        }
        // The blocklist parsed and the resolver made on the other core while the host installs
        // the set. Only the set is held there, not the statistics' store, which a relaunch in
        // the same process must be able to open as soon as this runtime is gone.
        DispatchQueue.global(qos: .userInitiated).async { [set = loaded.set, sitesOff] in
            if sitesOff.domains.isEmpty { _ = set.resolver } else { _ = set.inputs.parsed }
        }
    }

    deinit {
        // Its last counts written, the store is let go of, so that a new runtime on this cache can
        // open it while statistics handles taken from this one live on (in memory only).
        statsSlot.closeStore()
    }

    // MARK: - The current set

    /// The set in force now.
    public var currentSet: ProtectionSet { withLock { state.set } }

    /// The inputs of the set in force.
    public var inputs: ProtectionInputs { withLock { state.inputs } }

    /// The last failure to write the cache, to open or write the statistics' totals, or to read
    /// the site toggles, or the cached set's blocklist failing its deferred parse; protection
    /// went on without them (the next launch builds again; totals stay in memory and are retried;
    /// toggles start empty; the statistics' resolver knows no tracker).
    public var lastStorageError: ProtectionError? {
        let (error, set) = withLock { (storageError, state.set) }
        if let saving = statsSlot.existing?.lastSavingError {
            return .unwritable(FileError(path: saving.path, reason: saving.reason + "; the statistics' totals are not saved"))
        }
        return error ?? storeOpeningError ?? set.inputs.failure
    }

    /// Calls `observer` with each new set, after it became current, on the thread that applied
    /// it; returns a token for ``removeObserver(_:)``.
    @discardableResult
    public func addObserver(_ observer: @escaping @Sendable (ProtectionSet) -> Void) -> Int {
        withLock {
            nextObserver += 1
            observers[nextObserver] = observer
            return nextObserver
        }
    }

    /// Stops calling an observer.
    public func removeObserver(_ token: Int) {
        withLock { _ = observers.removeValue(forKey: token) }
    }

    // MARK: - Updates

    /// Replaces the blocklist and/or the privacy configuration; the other inputs stay.
    ///
    /// - Returns: the new current set.
    /// - Throws: ``ProtectionError`` naming the input and the place; the current set stays.
    @discardableResult
    public func update(
        trackerData: InputDocument? = nil, privacyConfiguration: InputDocument? = nil
    ) async throws(ProtectionError) -> ProtectionSet {
        try await apply { inputs in
            var inputs = inputs
            if let trackerData { inputs.trackerData = trackerData }
            if let privacyConfiguration { inputs.privacyConfiguration = privacyConfiguration }
            return inputs
        }
    }

    /// Replaces every input: parses, builds and checks the new set off the caller's thread and
    /// makes it current only when all of it is valid.
    ///
    /// - Returns: the new current set.
    /// - Throws: ``ProtectionError`` naming the input and the place; the current set stays.
    @discardableResult
    public func update(_ inputs: ProtectionInputs) async throws(ProtectionError) -> ProtectionSet {
        try await apply { _ in inputs }
    }

    private func apply(_ change: @escaping @Sendable (ProtectionInputs) -> ProtectionInputs) async throws(ProtectionError) -> ProtectionSet {
        let result = await Task.detached(priority: .userInitiated) { [self] in
            Result { () throws(ProtectionError) in try applyNow(change) }
        }.value
        return try result.get()
    }

    /// ``update(_:)`` on the calling thread, for benchmarks and tools that are off the main
    /// thread already.
    @discardableResult
    package func updateOnCurrentThread(_ inputs: ProtectionInputs) throws(ProtectionError) -> ProtectionSet {
        try applyNow { _ in inputs }
    }

    /// The work of an update, on the calling thread.
    private func applyNow(_ change: (ProtectionInputs) -> ProtectionInputs) throws(ProtectionError) -> ProtectionSet {
        updateLock.lock()
        defer { updateLock.unlock() }
        let inputs = change(withLock { state.inputs })
        let loaded = try ProtectionSet.load(inputs, cache: cache, secret: secret, expectingCache: false)
        withLock { didBuild }?()
        // The toggles as they are now, not as they were when the build began; held to the swap.
        toggleLock.lock()
        let sitesOff = withLock { state.sitesOff }
        let resolver = Self.classifyingResolver(set: loaded.set, sitesOff: sitesOff)
        let observers = withLock {
            state = State(inputs: inputs, set: loaded.set, sitesOff: sitesOff)
            // Under the same lock, so no navigation sees the new set with the old resolver.
            statsSlot.setResolver(resolver)
            return Array(self.observers.sorted { $0.key < $1.key }.map(\.value))
        }
        toggleLock.unlock()
        for observer in observers { observer(loaded.set) }
        // The cache serves the next launch only: written after the swap, off the update's path.
        if let error = loaded.storeIfBuilt(in: cache) { withLock { storageError = error } }
        return loaded.set
    }

    /// Called by an update on its thread once its set is built, before it reads the toggles and
    /// swaps: a test holds an update there to toggle sites while it runs.
    package var updateDidBuild: (@Sendable () -> Void)? {
        get { withLock { didBuild } }
        set { withLock { didBuild = newValue } }
    }
    private var didBuild: (@Sendable () -> Void)?

    // MARK: - Site toggles

    /// Whether protection is on for pages of `host` (`www.` or not; see the type's "Site toggles").
    public func isProtectionEnabled(forSite host: String) -> Bool {
        withLock { !state.isOff(host) }
    }

    /// The sites the user turned protection off for, sorted, each as a toggle domain (no `www.`).
    public var sitesWithProtectionOff: [String] { withLock { state.sitesOff.domains.sorted() } }

    /// Every site where protection is off, sorted: the toggled ones (``sitesWithProtectionOff``)
    /// and those of the user allowlist the current set was built from (as the build parsed it: the
    /// file is not read again). What a web process outside this one needs to know.
    public var allSitesWithProtectionOff: [String] {
        withLock { state.sitesOff.domains.union(state.set.inputs.others.userAllowlist.domains).sorted() }
    }

    /// Turns protection on or off for `host` from its next navigation, and saves the choice.
    ///
    /// A site in the inputs' user allowlist stays off: its exceptions are built into the rule
    /// lists.
    ///
    /// - Throws: ``ProtectionError/invalidInput(_:detail:)`` when `host` is not a host name (a
    ///   URL, spaces, more than 253 bytes) or IP address; ``ProtectionError/unwritable(_:)`` when
    ///   the toggles cannot be saved. Nothing changes then.
    public func setProtection(_ enabled: Bool, forSite host: String) throws(ProtectionError) {
        guard let siteHost = SiteHost(host) else {
            let shown = host.count > 80 ? String(host.prefix(80)) + "… (\(host.utf8.count) bytes)" : host
            throw .invalidInput(.userAllowlist, detail: "site toggle \"\(shown)\": \(SiteHost.requirement)")
        }
        // An update being built does not hold this lock: a toggle waits at most for its swap.
        toggleLock.lock()
        defer { toggleLock.unlock() }
        let (set, current) = withLock { (state.set, state.sitesOff) }
        var sitesOff = current
        let site: Set = [siteHost.name]
        if enabled { sitesOff.domains.subtract(site) } else { sitesOff.domains.formUnion(site) }
        guard sitesOff != current else { return }
        let json = JSONValue.array(sitesOff.domains.sorted().map(JSONValue.string))
        do throws(FileError) {
            try ProtectionCache.createDirectory(cacheDirectory)
            try FileIO.writeAtomically(json.jsonBytes(), to: siteTogglesPath)
        } catch {
            throw .unwritable(error)
        }
        let resolver = Self.classifyingResolver(set: set, sitesOff: sitesOff)
        withLock {
            state.sitesOff = sitesOff
            statsSlot.setResolver(resolver)
        }
    }

    /// What the web view gets for a navigation to `url`: the current set, protected or not.
    /// A URL without a host (`about:blank`) is protected.
    public func navigationPlan(for url: String) -> NavigationPlan {
        let host = CanonicalURL(url)?.host ?? ""
        return withLock {
            let off = !host.isEmpty && state.isOff(host)
            return NavigationPlan(protectionSet: state.set, url: url, isProtected: !off)
        }
    }

    /// The set in force and the sites toggled off, read together (one generation).
    var setAndSitesOff: (set: ProtectionSet, sitesOff: UserAllowlist) { withLock { (state.set, state.sitesOff) } }

    // MARK: - Statistics

    /// A main-frame navigation committed in `tab`: a new page in its statistics (a tab the
    /// statistics have not seen opens with it).
    public func didCommitNavigation(tab: TabID, url: String) {
        stats.didCommitNavigation(tab: tab, url: url)
    }

    /// The host closed `tab`: its page leaves the statistics (its counts stay in the totals).
    public func didCloseTab(_ tab: TabID) {
        stats.closeTab(tab)
    }

    /// Writes the statistics' totals now, durably: call it when the host goes to the background
    /// or quits (between those, the runtime writes them soon after each page ends and within 30
    /// seconds of any count).
    ///
    /// - Throws: ``ProtectionError/unwritable(_:)`` when they cannot be written (a full disk, a
    ///   store that could not be opened at launch); the counts stay in memory and are retried.
    public func saveStatistics() throws(ProtectionError) {
        if let storeOpeningError { throw storeOpeningError }
        guard let stats = statsSlot.existing else { return }
        do throws(StatsStoreError) {
            try stats.flush()
        } catch {
            throw .unwritable(FileError(path: error.path, reason: error.reason))
        }
    }

    /// A script message posted in `tab`, as the web view hands it over: checked (secret, limits,
    /// page) and counted.
    public func receive(_ body: MessageBody, tab: TabID) -> PrivacyStats.ReceiveResult {
        stats.receive(body, tab: tab)
    }

    /// A message already decoded, or made by the host from what it observed natively (carrying
    /// ``secret``): counted in `tab`.
    public func receive(_ message: ScriptMessage, tab: TabID) -> PrivacyStats.ReceiveResult {
        stats.receive(message, tab: tab)
    }

    /// A request the host saw itself in `tab` (WebKitGTK's `resource-load-started`, a request
    /// hook): counted in the tab's current page, where its outcome outweighs the scripts'.
    ///
    /// An observation whose `NativeObservation.engineRule` (PrivacyStatsKit) names a rule of
    /// ``currentSet``'s engine without its source gets the source from the set
    /// (``ProtectionSet/ruleSource(list:rule:)``): the host names list and rule, the dashboard
    /// shows what the rule was built from.
    ///
    /// - Returns: false when the tab has no page.
    @discardableResult
    public func didObserve(_ observation: NativeObservation, tab: TabID) -> Bool {
        var observation = observation
        if let rule = observation.engineRule, rule.source == nil {
            observation.engineRule?.source = currentSet.ruleSource(list: rule.list, rule: rule.rule)
        }
        return stats.observe(observation, tab: tab)
    }

    // MARK: - Helpers

    /// Whether protection is off for pages of `host`: toggled off, or in the set's user allowlist.
    static func isOff(_ host: String, set: ProtectionSet, sitesOff: UserAllowlist) -> Bool {
        sitesOff.contains(host: host) || set.inputs.others.userAllowlist.contains(host: host)
    }

    /// The resolver the statistics classify with: the set's own, or with the toggled sites in
    /// its user allowlist.
    private static func classifyingResolver(set: ProtectionSet, sitesOff: UserAllowlist) -> TrackerResolver {
        guard !sitesOff.domains.isEmpty else { return set.resolver }
        let parsed = set.inputs.parsed
        return parsed.resolver(userAllowlist: UserAllowlist(domains: Array(parsed.userAllowlist.domains.union(sitesOff.domains))))
    }

    private static func read(_ path: String) throws(TrackerDataError) -> [UInt8] {
        do throws(FileError) {
            return try FileIO.read(path: path)
        } catch {
            throw .unreadable(error)
        }
    }

    private func withLock<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}

/// The statistics, made on first use (``ProtectionRuntime/stats``): their first resolver needs
/// the parsed blocklist. A resolver set before then replaces the first one.
private final class StatsSlot: @unchecked Sendable {
    private let lock = NSLock()
    private var stats: PrivacyStats?
    private var firstResolver: @Sendable () -> TrackerResolver
    /// Holds the store until the slot goes, with the runtime: ``closeStore()`` lets the
    /// statistics' reference go first.
    private let make: @Sendable (TrackerResolver) -> PrivacyStats

    init(resolver: @escaping @Sendable () -> TrackerResolver, make: @escaping @Sendable (TrackerResolver) -> PrivacyStats) {
        firstResolver = resolver
        self.make = make
    }

    /// The statistics; the first call makes them, other callers waiting.
    var value: PrivacyStats {
        lock.lock()
        defer { lock.unlock() }
        if let stats { return stats }
        let made = make(firstResolver())
        stats = made
        return made
    }

    /// The statistics if made.
    var existing: PrivacyStats? {
        lock.lock()
        defer { lock.unlock() }
        return stats
    }

    /// Writes the statistics' last counts and lets go of their store (see
    /// ``PrivacyStats/closeStore()``); unmade statistics just drop theirs.
    func closeStore() {
        lock.lock()
        let stats = stats
        lock.unlock()
        try? stats?.closeStore()
    }

    /// ``PrivacyStats/setResolver(_:)``, or the resolver the statistics will start with.
    func setResolver(_ resolver: TrackerResolver) {
        lock.lock()
        defer { lock.unlock() }
        if let stats { stats.setResolver(resolver) } else { firstResolver = { resolver } }
    }
}

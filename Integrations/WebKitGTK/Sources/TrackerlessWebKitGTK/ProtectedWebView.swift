import CWebKitGTK
import NavigationProtections
public import PrivacyStatsKit
import TrackerDataKit
public import TrackerlessRuntime

/// A WebKitGTK web view that a ``TrackerlessRuntime/ProtectionRuntime`` protects: its rule lists
/// in the content filter store, its scripts in their worlds, its messages and the loads WebKit
/// reports counted in the tab's statistics.
///
/// - Every load WebKit reports (`resource-load-started`: the loads its content filters let
///   through; a blocked one is never reported) goes to the tab's statistics as a
///   ``PrivacyStatsKit/NativeObservation`` (allowed, no type: WebKit gives none) once a server
///   answered it (a response, a redirect, an error after the request went out: WebKit reports a
///   media load its filter stopped as finished without a response), and so does each URL a
///   redirect led to (`sent-request`), counted in the page that committed last; the scripts'
///   reports of the same URL count as the same request, and WebKit's outcome is the one
///   counted.
/// - Every load a content filter blocked, in every mode: WebKit reports none to the UI process
///   (a redirect a filter stopped fails the load with WebKitPolicyError 104, its target unnamed),
///   but adds a console message to the document for each, which the web-process extension reads
///   and sends (`RequestHookKit.ContentBlockerMessage`): counted blocked, without a type (the
///   scripts' report of the URL gives it). WebKit hands the extension no console message of a
///   page in an ephemeral ``NetworkSession``: give the view a persistent one.
///
/// - Rule lists are looked up in the store by identifier before anything is compiled, so a
///   relaunch with the same set compiles nothing; identifiers of earlier sets are removed.
/// - No unprotected load: ``load(_:)`` starts the navigation only once every list of the plan
///   is ready, and an update keeps the lists in force until the new set's lists are ready.
/// - Site toggles take effect at the next navigation: the runtime's navigation plan says whether
///   the page gets the rule lists and the blocking script.
/// - Navigation protections: a navigation loads the URL of the runtime's navigation decision
///   (tracking parameters removed, AMP link resolved, upgraded to https); see
///   `ProtectedWebView+Navigation.swift` for which navigations.
/// - Click-to-Load: the user's click on a placeholder removes that action's list for the page
///   only, then answers the page, which loads the embed; the next page is blocked again.
///
/// Every call must come from the thread that runs the GLib main context.
public final class ProtectedWebView {
    /// The web view.
    public let webView: WebView
    /// The tab of the runtime's statistics this view reports to.
    public let tab: TabID
    let runtime: ProtectionRuntime
    private let store: ContentFilterStore
    /// Compiled lists by identifier, for the sets this view has used.
    private var filters: [String: ContentFilter] = [:]
    /// What the user content holds now: the set identity and whether it was protected.
    private var installed: (setIdentity: String, isProtected: Bool)?
    /// The identifiers of the lists the user content holds now.
    private var installedFilters: [String] = []
    /// The Click-to-Load actions the user allowed on the current page.
    var unblockedActions: Set<String> = []
    /// The URL of the navigation this view started itself, already decided: not decided again.
    var hostNavigation: String?
    private var registeredHandlers: Set<String> = []
    /// The set whose stale lists were last removed from the store: once per set, not per load.
    private var cleanedSet: String?
    /// The store's listings and removals of replaced lists under way.
    private var storeTasks = 0
    /// What ``whenStoreSettled(_:)`` was given while they were.
    private var whenStoreSettledActions: [() -> Void] = []
    private var observerToken: Int?
    private var extensionObservations: WebProcessObservations?

    /// Where requests are blocked: content filters (the default), the web-process extension, or
    /// the blocking script alone. Set it before the first ``load(_:)``. A protected page has the
    /// WebKit features the mode cannot see turned off (``RequestBlocking/disabledFeatures``); a
    /// page whose site the user turned off has them.
    public var requestBlocking = RequestBlocking.contentFilters
    /// Whether ``RequestBlocking/disabledFeatures`` are off now (WebKit's default: on).
    private var featuresOff = false

    /// Called when a list could not be compiled or loaded, with WebKit's error.
    public var onFilterError: ((ContentFilterStoreError) -> Void)?
    /// Called after each script message was handed to the runtime, with what it made of it.
    public var onMessage: ((PrivacyStats.ReceiveResult) -> Void)?
    /// Called with the URL before each navigation ``load(_:)`` starts (after a site toggle, the
    /// host sends the web processes their new configuration here).
    public var willLoad: ((String) -> Void)?
    /// Called after each request the web-process extension reported was counted: in engine mode
    /// each request it decided, in every mode each load a content filter blocked.
    public var onObservation: ((NativeObservation) -> Void)?
    /// How many lists the store compiled (not found by identifier) since this view was created.
    public private(set) var compiledListCount = 0
    /// How many lists the store already held (found by identifier, nothing compiled).
    public private(set) var foundListCount = 0

    /// A view in `tab`, protected by `runtime`, its lists kept in `store`; in `context` (nil:
    /// WebKit's default one).
    public init(runtime: ProtectionRuntime, store: ContentFilterStore, tab: TabID, session: NetworkSession? = nil, context: WebContext? = nil) {
        self.runtime = runtime
        self.store = store
        self.tab = tab
        webView = WebView(session: session, context: context)
        let previous = webView.onLoadEvent
        webView.onLoadEvent = { [weak self] event in
            if event == .committed, let self, let url = self.webView.url { self.runtime.didCommitNavigation(tab: self.tab, url: url) }
            previous?(event)
        }
        webView.protectionLoadStarted = { [weak self] load in
            guard let self, self.requestBlocking != .webProcessExtension, load.isMainResource else { return }
            self.runtime.didObserve(NativeObservation(url: load.url, type: .mainFrame, outcome: .allowed), tab: self.tab)
        }
        webView.protectionLoadChanged = { [weak self] index in
            guard let self, self.requestBlocking != .webProcessExtension else { return }
            self.countURLsReachingServer(ofLoad: index)
        }
        decideNavigations()
        extensionObservations = WebProcessObservations(
            webView: webView,
            observe: { [weak self] observation in
                guard let self, self.requestBlocking == .webProcessExtension else { return }
                self.runtime.didObserve(observation, tab: self.tab)
                self.onObservation?(observation)
            },
            observeContentBlocked: { [weak self] observation in
                // Only a content filter makes one: every load the rules stop in rules mode, the
                // WebSocket handshakes of engine mode's filter.
                guard let self else { return }
                self.runtime.didObserve(observation, tab: self.tab)
                self.onObservation?(observation)
            })
        let reference = MainContextReference(self)
        observerToken = runtime.addObserver { set in
            MainContext.post {
                guard let view = reference.value else { return }
                view.prepare(set) { [weak view] in view?.reinstallForCurrentPage() }
            }
        }
    }

    deinit {
        if let observerToken { runtime.removeObserver(observerToken) }
    }

    /// Loads the URL of the runtime's navigation decision for `url` (the same when nothing
    /// applies) with the protection the runtime plans for it, once its lists are ready.
    public func load(_ url: String) {
        start(runtime.navigationPlan(for: Navigation(url: url)))
    }

    /// Loads a plan's URL once its lists are ready; the navigation is not decided again.
    func start(_ plan: NavigationPlan) {
        willLoad?(plan.url)
        prepare(plan.protectionSet) { [weak self] in
            guard let self else { return }
            self.unblockedActions = []
            self.install(plan)
            self.hostNavigation = plan.url
            self.webView.load(plan.url)
        }
    }

    /// Compiles (or finds) every list of `set`, then calls `ready`; removes the store's lists
    /// that no set of the runtime uses any more.
    func prepare(_ set: ProtectionSet, ready: @escaping () -> Void) {
        var pending = filtersToInstall(for: set.ruleLists).filter { filters[$0.identifier] == nil }
        guard !pending.isEmpty else {
            if cleanedSet != set.identity {
                cleanedSet = set.identity
                removeStaleLists(of: set)
            }
            return ready()
        }
        let list = pending.removeFirst()
        store.filter(identifier: list.identifier, source: list.source) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let (filter, compiled)):
                self.filters[list.identifier] = filter
                if compiled { self.compiledListCount += 1 } else { self.foundListCount += 1 }
                self.prepare(set, ready: ready)
            case .failure(let error):
                self.onFilterError?(error)
            }
        }
    }

    private func removeStaleLists(of set: ProtectionSet) {
        storeTasks += 1
        store.identifiers { [weak self] identifiers in
            guard let self else { return }
            for identifier in identifiers
            where set.isStale(ruleListIdentifier: identifier) || WebSocketRuleList.isStale(identifier, lists: set.ruleLists) {
                self.filters[identifier] = nil
                self.storeTasks += 1
                self.store.remove(identifier: identifier) { [weak self] _ in self?.storeTaskEnded() }
            }
            self.storeTaskEnded()
        }
    }

    /// Calls `action` once the store has finished removing the lists of replaced sets (at once
    /// when it is not removing any): a process that quits right after a set change (a headless
    /// run) waits for it, so no replaced list is left behind in the store.
    public func whenStoreSettled(_ action: @escaping () -> Void) {
        if storeTasks == 0 { action() } else { whenStoreSettledActions.append(action) }
    }

    private func storeTaskEnded() {
        storeTasks -= 1
        guard storeTasks == 0 else { return }
        let actions = whenStoreSettledActions
        whenStoreSettledActions = []
        for action in actions { action() }
    }

    /// Puts the plan's lists (without those of the page's unblocked Click-to-Load actions),
    /// scripts and handler in the view's user content (only what changed).
    func install(_ plan: NavigationPlan) {
        let content = webView.userContent
        if featuresOff != plan.isProtected {
            for feature in requestBlocking.disabledFeatures { webView.setFeature(feature, enabled: !plan.isProtected) }
            featuresOff = plan.isProtected
        }
        let wanted = filtersToInstall(for: plan.ruleLists(unblocking: unblockedActions)).map(\.identifier)
        if wanted != installedFilters {
            // The new lists in before the old ones out: no moment without a list.
            for identifier in wanted where !installedFilters.contains(identifier) {
                if let filter = filters[identifier] { content.add(filter) }
            }
            for identifier in installedFilters where !wanted.contains(identifier) { content.removeFilter(identifier: identifier) }
            installedFilters = wanted
        }
        if installed?.setIdentity != plan.protectionSet.identity || installed?.isProtected != plan.isProtected {
            content.removeAllScripts()
            for script in plan.scripts { content.addScript(script.source, world: script.world.name) }
            installed = (plan.protectionSet.identity, plan.isProtected)
        }
        let name = plan.messageHandlerName
        if !registeredHandlers.contains(name) {
            registeredHandlers.insert(name)
            let worlds = plan.protectionSet.messageHandlerWorlds.map(\.name)
            content.registerMessageHandler(name: name, worlds: worlds) { [weak self] json in
                guard let self else { return }
                let result = self.runtime.receive(.json(json), tab: self.tab) { [weak self] click in self?.allowClickToLoad(click) }
                self.onMessage?(result)
            }
        }
    }

    /// The content filters this mode installs for `lists`, each with its JSON to compile when the
    /// store lacks it: the lists themselves (rules mode), their WebSocket rules alone (engine
    /// mode: ``WebSocketRuleList``), none (script mode).
    private func filtersToInstall(for lists: [EncodedRuleList]) -> [(identifier: String, source: () -> [UInt8])] {
        switch requestBlocking {
        case .contentFilters: lists.map { list in (list.identifier, { list.json }) }
        case .webProcessExtension: lists.compactMap(WebSocketRuleList.init).map { list in (list.identifier, list.json) }
        case .blockingScript: []
        }
    }

    /// After an update or a site toggle: the current page's plan, for the loads it still makes
    /// (WebKit applies a list from the next load).
    private func reinstallForCurrentPage() {
        install(runtime.navigationPlan(for: webView.url ?? "about:blank"))
    }

    /// Counts, allowed, the URLs of a load (not the page's own) known to have reached a server
    /// that were not counted yet (rules and script modes): its first URL and each redirect's once
    /// answered, not before, since WebKit reports a media load a content filter stopped as
    /// started and finished without a response.
    private func countURLsReachingServer(ofLoad index: Int) {
        guard index < webView.loads.count, !webView.loads[index].isMainResource else { return }
        let load = webView.loads[index]
        let reached = load.urlsReachingServer
        guard reached > load.countedURLs else { return }
        for url in load.urls[load.countedURLs..<reached] {
            runtime.didObserve(NativeObservation(url: url, outcome: .allowed), tab: tab)
        }
        webView.setCountedURLs(reached, ofLoad: index)
    }
}

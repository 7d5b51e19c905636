// The Apple adapter: the runtime on WKUserContentController. It exists only where Apple's WebKit
// does (`#if canImport(WebKit)`); on Linux this module is empty. It cannot be built on the
// machines that build and test this package (Linux), so it is kept thin: every decision (which
// lists and scripts a navigation gets, stale identifiers, routing messages to a tab) is the
// runtime's, tested on Linux (TrackerlessRuntimeTests) and through the same calls in the
// WebKitGTK adapter (Integrations/WebKitGTK, ProtectedWebView), which runs in CI in a real web view.
#if canImport(WebKit)
public import Foundation
public import PrivacyStatsKit
public import TrackerlessRuntime
public import WebKit

/// Attaches a ``TrackerlessRuntime/ProtectionRuntime`` to one web view's user content
/// controller: the rule lists through `WKContentRuleListStore`, looked up by identifier before
/// anything is compiled and stale identifiers removed; the blocking script in the page world and
/// the inference script in the isolated world; one message handler in both worlds, its messages
/// counted in the tab's statistics.
///
/// ```swift
/// // In webView(_:decidePolicyFor:decisionHandler:), for a main-frame navigation:
/// _ = try await protection.prepareNavigation(to: url)   // then allow it
/// ```
///
/// No unprotected load: ``prepareNavigation(to:)`` returns only once every list of the plan is
/// compiled or found, so the host allows the navigation after it.
@MainActor
public final class WebKitProtection {
    /// The runtime whose sets and statistics this view uses.
    public let runtime: ProtectionRuntime
    /// The tab of the runtime's statistics this view reports to.
    public let tab: TabID
    /// The web view's user content controller (`configuration.userContentController`).
    public let userContentController: WKUserContentController
    /// Called after each script message was handed to the runtime, with what it made of it.
    public var onMessage: ((PrivacyStats.ReceiveResult) -> Void)?
    /// Called when a list of an updated set could not be compiled, with WebKit's error; the
    /// view keeps the lists it had.
    public var onRuleListError: ((any Error) -> Void)?

    private let store: WKContentRuleListStore
    private var lists: [String: WKContentRuleList] = [:]
    private var installed: (setIdentity: String, isProtected: Bool)?
    private var handler: ScriptMessageForwarder?
    private var cleanedSet: String?
    private var observerToken: Int?

    /// Protection for the web view whose content controller is `userContentController`, its
    /// lists kept in `store`.
    public init(
        runtime: ProtectionRuntime, tab: TabID, userContentController: WKUserContentController,
        store: WKContentRuleListStore = .default()
    ) {
        self.runtime = runtime
        self.tab = tab
        self.userContentController = userContentController
        self.store = store
        observerToken = runtime.addObserver { [weak self] set in
            Task { @MainActor in
                guard let self else { return }
                // An update: compile the new lists while the old ones stay in force, then switch.
                do {
                    try await self.prepare(set)
                } catch {
                    self.onRuleListError?(error)
                    return
                }
                if let url = self.currentURL { self.install(self.runtime.navigationPlan(for: url)) }
            }
        }
    }

    /// The URL of the page the view shows; the host sets it when a navigation commits.
    public var currentURL: String?

    /// Call when a main-frame navigation commits: the tab's statistics start a new page.
    public func didCommitNavigation(to url: URL) {
        currentURL = url.absoluteString
        runtime.didCommitNavigation(tab: tab, url: url.absoluteString)
    }

    /// Makes the view's content match the runtime's plan for `url` (its site toggle, the
    /// current set), compiling or finding the lists first. Call it before allowing a main-frame
    /// navigation.
    ///
    /// - Throws: WebKit's error when a list could not be compiled; the view keeps what it had.
    @discardableResult
    public func prepareNavigation(to url: URL) async throws -> NavigationPlan {
        let plan = runtime.navigationPlan(for: url.absoluteString)
        try await prepare(plan.protectionSet)
        install(plan)
        return plan
    }

    /// Finds every list of `set` in the store or compiles it; then removes the store's lists
    /// that the set no longer uses (once per set).
    private func prepare(_ set: ProtectionSet) async throws {
        for list in set.ruleLists where lists[list.identifier] == nil {
            if let found = try? await store.contentRuleList(forIdentifier: list.identifier) {
                lists[list.identifier] = found
            } else if let compiled = try await store.compileContentRuleList(
                forIdentifier: list.identifier, encodedContentRuleList: list.jsonString)
            {
                lists[list.identifier] = compiled
            }
        }
        guard cleanedSet != set.identity else { return }
        cleanedSet = set.identity
        for identifier in await store.availableIdentifiers() ?? [] where set.isStale(ruleListIdentifier: identifier) {
            lists[identifier] = nil
            try? await store.removeContentRuleList(forIdentifier: identifier)
        }
    }

    /// Puts the plan's lists, scripts and handler in the content controller (only what changed).
    private func install(_ plan: NavigationPlan) {
        let set = plan.protectionSet
        if installed?.setIdentity != set.identity || installed?.isProtected != plan.isProtected {
            userContentController.removeAllContentRuleLists()
            for list in plan.ruleLists { if let compiled = lists[list.identifier] { userContentController.add(compiled) } }
            userContentController.removeAllUserScripts()
            for script in plan.scripts {
                userContentController.addUserScript(WKUserScript(
                    source: script.source, injectionTime: .atDocumentStart, forMainFrameOnly: false,
                    in: Self.world(script.world)))
            }
            installed = (set.identity, plan.isProtected)
        }
        if handler?.name != plan.messageHandlerName {
            if let handler {
                for world in set.messageHandlerWorlds {
                    userContentController.removeScriptMessageHandler(forName: handler.name, contentWorld: Self.world(world))
                }
            }
            let forwarder = ScriptMessageForwarder(name: plan.messageHandlerName) { [weak self] body in
                guard let self else { return }
                let result = self.runtime.receive(MessageBody(foundationObject: body), tab: self.tab)
                self.onMessage?(result)
            }
            for world in set.messageHandlerWorlds {
                userContentController.add(forwarder, contentWorld: Self.world(world), name: forwarder.name)
            }
            handler = forwarder
        }
    }

    private static func world(_ world: ScriptWorld) -> WKContentWorld {
        switch world {
        case .page: .page
        case .isolated(let name): .world(name: name)
        }
    }
}
#endif

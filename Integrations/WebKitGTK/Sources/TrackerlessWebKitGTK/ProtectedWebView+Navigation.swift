import NavigationProtections
import TrackerlessRuntime

extension ProtectedWebView {
    /// Decides each navigation WebKit asks about by the runtime's navigation decision, and resets
    /// the page's Click-to-Load allowances when a new page starts.
    ///
    /// Which navigations: WebKitGTK does not say whether a navigation action is the main frame's
    /// or a frame's (a frame's load arrives as type `other`, like the main frame's own), and
    /// loading a frame's URL in the main frame would be worse than leaving it alone. So the
    /// decision is applied to
    /// - the navigations this view starts (``load(_:)``: the address bar, a bookmark, each URL of
    ///   the headless mode), decided before they start;
    /// - a link the top document's page followed: type `link clicked`, no other target than the
    ///   frame itself, not a redirect, and a `Referer` that is the top page's URL or its origin
    ///   (what WebKit sends from the top document; a frame's document sends its own).
    /// Script navigations (`location.href = …`), form submissions and redirects load as WebKit
    /// has them.
    ///
    /// When the decision changes the URL, the navigation is cancelled and the decided URL loaded
    /// instead, with its own plan; that navigation is not decided again, so no rewrite loops.
    func decideNavigations() {
        webView.decideNavigations { [weak self] action in
            guard let self else { return .use }
            if let started = self.hostNavigation, started == action.url {
                self.hostNavigation = nil
                return .use
            }
            guard let top = self.webView.url, Self.isTopDocumentLink(action, top: top) else { return .use }
            let plan = self.runtime.navigationPlan(for: Navigation(url: action.url, initiator: top, referrer: action.referrer))
            guard plan.url != action.url else { return .use }
            self.start(plan)
            return .ignore
        }
        webView.protectionLoadEvent = { [weak self] event in
            guard let self, event == .started else { return }
            self.hostNavigation = nil
            // A new page: the Click-to-Load lists are back.
            if !self.unblockedActions.isEmpty {
                self.unblockedActions = []
                let plan = self.runtime.navigationPlan(for: self.webView.url ?? "about:blank")
                self.prepare(plan.protectionSet) { [weak self] in self?.install(plan) }
            }
        }
    }

    /// Whether `action` follows a link of the top document at `top` in the main frame.
    static func isTopDocumentLink(_ action: NavigationAction, top: String) -> Bool {
        guard action.kind == .linkClicked, !action.isRedirect, let referrer = action.referrer else { return false }
        if let target = action.targetFrameName, !target.isEmpty, target != "_self", target != "_top" { return false }
        return referrer == top || referrer == origin(of: top)
    }

    /// `scheme://host[:port]/` of a URL, as a `Referer` cut to its origin reads.
    static func origin(of url: String) -> String? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let rest = url[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return String(url[..<schemeEnd.upperBound]) + authority + "/"
    }
}

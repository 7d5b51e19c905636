import TrackerlessRuntime

extension ProtectedWebView {
    /// The user clicked a Click-to-Load placeholder (the runtime handed over the blocking
    /// script's click): the action's list leaves the page's lists, then the page is answered with
    /// the click's token and puts the embeds back, which load. Until the next page starts.
    ///
    /// The lists change before the answer is sent, and both go to the web process in that order,
    /// so the embeds' loads meet the page's new lists. The lists are the current set's, once
    /// they are ready (an update may still be compiling them). Nothing happens where protection
    /// is off (no Click-to-Load list is installed there, and the blocking script is not running).
    func allowClickToLoad(_ click: ClickToLoadRequest) {
        let plan = runtime.navigationPlan(for: webView.url ?? "about:blank")
        guard plan.isProtected else { return }
        unblockedActions.insert(click.action)
        prepare(plan.protectionSet) { [weak self] in
            guard let self, self.unblockedActions.contains(click.action) else { return }
            self.install(plan)
            self.webView.runInPage(click.answerScript)
        }
    }
}

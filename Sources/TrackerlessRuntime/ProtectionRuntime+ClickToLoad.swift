public import PrivacyStatsKit

extension ProtectionRuntime {
    /// A script message posted in `tab`, as `receive(_:tab:)` counts it, and each
    /// Click-to-Load click it carries handed to `onClickToLoad`: only from the blocking script
    /// (which posts them for the user's own clicks only) and only when the statistics accepted
    /// the message (current secret, the tab's current page), so a page that cannot post with the
    /// secret cannot unblock an embed.
    public func receive(
        _ body: MessageBody, tab: TabID, onClickToLoad: (ClickToLoadRequest) -> Void
    ) -> PrivacyStats.ReceiveResult {
        let decoded = ScriptMessage.decode(body, limits: stats.limits) { Self.isSecret($0, secret.value) }
        guard case .success(let message) = decoded else {
            // Decoded again there, so that the statistics count the rejection under its reason.
            return stats.receive(body, tab: tab)
        }
        let result = stats.receive(message, tab: tab)
        guard result.isAccepted, message.script == .blocking else { return result }
        for event in message.events {
            if case .clickToLoad(let url, let action, let token) = event {
                onClickToLoad(ClickToLoadRequest(url: url, action: action, token: token))
            }
        }
        return result
    }

    /// Compares a message's secret with the run's in time independent of where they differ, as
    /// the statistics do, so a page learns nothing from how long a refusal takes.
    private static func isSecret(_ candidate: String, _ secret: String) -> Bool {
        var difference = candidate.utf8.count == secret.utf8.count ? 0 : 1
        for (expected, given) in zip(secret.utf8, candidate.utf8) { difference |= Int(expected ^ given) }
        return difference == 0
    }
}

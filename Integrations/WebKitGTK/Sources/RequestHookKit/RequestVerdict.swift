/// What the extension does with one request: cancel it, or send it with these headers.
public struct RequestVerdict: Sendable, Equatable {
    /// Cancel the load (`send-request` returns TRUE).
    public var isBlocked: Bool
    /// The `Sec-GPC` value to set, or nil for none.
    public var globalPrivacyControl: String?
    /// The `Referer` to send instead of the request's, or nil to leave it as it is.
    public var trimmedReferrer: String?
    /// The engine's rule that blocked the request; nil when it is not blocked.
    public var blockingRule: BlockingRule?

    /// A verdict.
    public init(isBlocked: Bool, globalPrivacyControl: String? = nil, trimmedReferrer: String? = nil, blockingRule: BlockingRule? = nil) {
        self.isBlocked = isBlocked
        self.blockingRule = blockingRule
        self.globalPrivacyControl = globalPrivacyControl
        self.trimmedReferrer = trimmedReferrer
    }
}

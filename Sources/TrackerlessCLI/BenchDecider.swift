import ContentRuleList

/// What `bench` times: one decision at a time, passes over the requests.
protocol BenchDecider {
    /// Called before each pass: a fresh page cache, as for a new browsing session.
    mutating func startPass()
    /// Decides one load.
    mutating func isBlocked(_ request: Request) -> Bool
}

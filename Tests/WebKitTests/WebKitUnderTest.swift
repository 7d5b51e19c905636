import ContentRuleList

extension WebKitHarness {
    /// The target of the WebKitGTK the harness runs (the machine's, or the root's with
    /// `TRACKERLESS_WEBKIT_ROOT`): the tests build and check lists for it. ``WebKitTarget/newest``
    /// when the harness cannot tell (then the tests that need WebKit fail or skip anyway).
    static let target: WebKitTarget = {
        guard let version = try? version() else { return .newest }
        return WebKitTarget.webKitGTK(major: version.major, minor: version.minor) ?? .oldest
    }()
}

/// Where a ``ProtectedWebView``'s requests are blocked (`trackerless-browser --mode`).
public enum RequestBlocking: String, Sendable, CaseIterable {
    /// WebKit's content filters (the rule lists); the loads they let through are observed in
    /// `resource-load-started`. The default.
    case contentFilters = "rules"
    /// The web-process extension, with the compiled engine, in `send-request`: no content filter;
    /// the extension reports every request it sees, blocked or not, and `resource-load-started`
    /// is not counted (it would count each allowed request a second time and each blocked one,
    /// which it reports as a cancelled load, as allowed).
    case webProcessExtension = "engine"
    /// The blocking script alone (`blockInScript`): no content filter, no extension blocking; the
    /// loads WebKit lets through are observed in `resource-load-started`.
    case blockingScript = "script"

    /// Whether the view installs the set's rule lists.
    public var usesContentFilters: Bool { self == .contentFilters }
}

/// What the evaluator needs of a rule once an index has found it.
struct RuleRecord: Sendable, Equatable {
    /// WebKit's trigger flags (resource types, load types, load contexts, method).
    var flags: UInt32
    /// The global action location (lists' locations follow each other).
    var location: UInt32
    /// The condition's index in the page's condition bits.
    var condition: UInt32
    var conditionMode: ConditionMode
    /// Index in ``Program/matchers``, ``separatorAfterHost`` or ``matchesEverything``.
    var matcher: Int32

    /// A host-indexed rule whose pattern ends with `[:/]` right after the host.
    static let separatorAfterHost: Int32 = -1
    /// A rule whose url-filter matches every URL (it has flags or a condition).
    static let matchesEverything: Int32 = -2
}

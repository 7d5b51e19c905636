extension Tracker.Rule {
    /// A rule's rarer fields (a named action, surrogate, conditions, metadata, comment), kept in
    /// a ``FieldBox``.
    struct RareFields: BoxedFields {
        /// A named action (``Action/blockClickToLoad(_:)``, ``Action/unsupported(_:)``); the
        /// others are the rule's ``ActionTag``.
        var action: Action?
        var surrogate: String?
        var options: Condition?
        var exceptions: Condition?
        var fingerprinting: Int?
        var cookies: Double?
        var comment: String?

        var isEmpty: Bool {
            action == nil && surrogate == nil && options == nil && exceptions == nil && fingerprinting == nil
                && cookies == nil && comment == nil
        }
    }
}

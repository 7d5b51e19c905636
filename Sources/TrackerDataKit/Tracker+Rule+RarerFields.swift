extension Tracker.Rule {
    /// The fields of a rule that fewer rules have than those of ``RareFields``, which keeps
    /// them in a ``FieldBox``: a named action, a surrogate, options, a comment.
    struct RarerFields: BoxedFields {
        /// A named action (``Action/blockClickToLoad(_:)``, ``Action/unsupported(_:)``); the
        /// others are the rule's ``ActionTag``.
        var action: Action?
        var surrogate: String?
        var options: Condition?
        var comment: String?

        var isEmpty: Bool {
            action == nil && surrogate == nil && options == nil && comment == nil
        }
    }
}

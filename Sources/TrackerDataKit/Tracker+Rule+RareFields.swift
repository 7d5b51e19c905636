extension Tracker.Rule {
    /// A rule's rarer fields, kept in a ``FieldBox``: inline, the exceptions and the metadata
    /// most rules with any of these fields have (DuckDuckGo's blocklist gives most rules
    /// `cookies` and `fingerprinting`); the others in a box of their own (``RarerFields``), so
    /// that a rule's box is 72 bytes rather than 136 (a blocklist of 1,000,000 trackers, each
    /// with an exception, holds 1,000,000 of them).
    struct RareFields: BoxedFields {
        var exceptions: Condition?
        var cookies: Double?
        var fingerprinting: Int?
        private var rarer: FieldBox<RarerFields>?

        /// A named action (``Action/blockClickToLoad(_:)``, ``Action/unsupported(_:)``); the
        /// others are the rule's ``ActionTag``.
        var action: Action? {
            get { rarer?.fields.action }
            set { rarer = .changing(rarer) { $0.action = newValue } }
        }

        var surrogate: String? {
            get { rarer?.fields.surrogate }
            set { rarer = .changing(rarer) { $0.surrogate = newValue } }
        }

        var options: Condition? {
            get { rarer?.fields.options }
            set { rarer = .changing(rarer) { $0.options = newValue } }
        }

        var comment: String? {
            get { rarer?.fields.comment }
            set { rarer = .changing(rarer) { $0.comment = newValue } }
        }

        var isEmpty: Bool {
            exceptions == nil && cookies == nil && fingerprinting == nil && rarer == nil
        }
    }
}

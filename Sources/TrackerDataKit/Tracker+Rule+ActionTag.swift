extension Tracker.Rule {
    /// A rule's action in one byte: the actions without a name inline, a named one
    /// (Click-to-Load, unsupported) in the rule's box of rarer fields.
    enum ActionTag: UInt8, Sendable, Hashable {
        /// No action (block).
        case none
        /// ``Action/block``.
        case block
        /// ``Action/ignore``.
        case ignore
        /// An action with a name, kept in the rule's box.
        case named

        init(_ action: Action?) {
            switch action {
            case nil: self = .none
            case .block: self = .block
            case .ignore: self = .ignore
            case .blockClickToLoad, .unsupported: self = .named
            }
        }
    }
}

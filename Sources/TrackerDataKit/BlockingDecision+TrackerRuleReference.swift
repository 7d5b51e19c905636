extension BlockingDecision {
    /// A rule of a tds tracker by its position, `trackers[trackerDomain].rules[index]`, with the
    /// rule read on demand: a decision holds one reference to the tracker's rules instead of a
    /// copy of the rule's text and options.
    public struct TrackerRuleReference: Sendable, Hashable {
        /// The tracker's key in tds.json's `trackers`.
        public let trackerDomain: String
        /// The rule's index in the tracker's `rules`.
        public let index: Int
        /// The tracker's rules, shared; the rule is `rules.rules[position]`.
        private let rules: Rules
        private let position: Int

        /// A reference to `rule`, `trackers[trackerDomain].rules[index]`.
        public init(trackerDomain: String, index: Int, rule: Tracker.Rule) {
            self.trackerDomain = trackerDomain
            self.index = index
            rules = Rules([rule])
            position = 0
        }

        /// A reference into rules the resolver prepared once per tracker.
        init(trackerDomain: String, index: Int, in rules: Rules) {
            self.trackerDomain = trackerDomain
            self.index = index
            self.rules = rules
            position = index
        }

        /// The rule: its text, action, surrogate, options and exceptions.
        public var rule: Tracker.Rule { rules.rules[position] }

        public static func == (left: Self, right: Self) -> Bool {
            left.trackerDomain == right.trackerDomain && left.index == right.index && left.rule == right.rule
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(trackerDomain)
            hasher.combine(index)
        }

        /// A tracker's rules behind one reference.
        final class Rules: Sendable {
            let rules: [Tracker.Rule]

            init(_ rules: [Tracker.Rule]) {
                self.rules = rules
            }
        }
    }
}

public import ContentRuleList

extension RuleEngine {
    /// What the engine decided for one load: the summary a host needs on every request, and
    /// every applied action on demand (``appliedActions``).
    ///
    /// Deciding allocates nothing unless the load gets more than four actions.
    public struct Decision: Sendable, Hashable {
        /// Whether WebKit checks the load at all (not for invalid and `data:` URLs).
        public let isChecked: Bool
        /// Whether any list blocks the load.
        public let isBlocked: Bool
        /// Whether any list strips the load's cookies.
        public let blocksCookies: Bool
        /// Whether a `make-https` action applies and the URL is `http:`/`ws:` on the default port.
        public let upgradesToHTTPS: Bool
        /// Whether any list hides elements for this load (css-display-none actions or a global
        /// style sheet).
        public let hidesElements: Bool

        let applied: AppliedLocations
        /// Lists whose evaluation saw `ignore-previous-rules`, as bits for the first 64 lists.
        let ignoringLists: UInt64
        /// Lists from the 65th on that saw `ignore-previous-rules`.
        let moreIgnoringLists: [Int]
        let program: Program?

        /// The decision for a load WebKit does not check.
        static func unchecked(_ program: Program) -> Decision {
            Decision(
                isChecked: false, isBlocked: false, blocksCookies: false, upgradesToHTTPS: false, hidesElements: false,
                applied: AppliedLocations(), ignoringLists: 0, moreIgnoringLists: [], program: program)
        }

        init(
            isChecked: Bool, isBlocked: Bool, blocksCookies: Bool, upgradesToHTTPS: Bool, hidesElements: Bool,
            applied: AppliedLocations, ignoringLists: UInt64, moreIgnoringLists: [Int], program: Program?
        ) {
            self.isChecked = isChecked
            self.isBlocked = isBlocked
            self.blocksCookies = blocksCookies
            self.upgradesToHTTPS = upgradesToHTTPS
            self.hidesElements = hidesElements
            self.applied = applied
            self.ignoringLists = ignoringLists
            self.moreIgnoringLists = moreIgnoringLists
            self.program = program
        }

        /// Whether list `index` saw `ignore-previous-rules`.
        func sawIgnorePreviousRules(list index: Int) -> Bool {
            index < 64 ? ignoringLists & (1 << UInt64(index)) != 0 : moreIgnoringLists.contains(index)
        }

        /// Everything applied, list by list, as `ReferenceEvaluator.actions(for:)` reports it but
        /// without the rules behind the actions (`AppliedActions.ListActions.ruleIndices` is
        /// empty): the decision did not ask for them. ``RuleEngine/actions(for:cache:)`` names them.
        public var appliedActions: AppliedActions {
            appliedActions(ruleIndices: nil)
        }

        /// The applied actions, each with its rule when `ruleIndices` gives the rule of each
        /// applied location in order.
        func appliedActions(ruleIndices: [UInt32]?) -> AppliedActions {
            guard let program else { return AppliedActions(lists: [], isChecked: isChecked, upgradesToHTTPS: false) }
            var lists = (0..<program.listCount).map { _ in
                AppliedActions.ListActions(actions: [], sawIgnorePreviousRules: false, globalStyleSheetSelectors: [])
            }
            guard isChecked else { return AppliedActions(lists: lists, isChecked: false, upgradesToHTTPS: false) }
            var position = 0
            applied.forEach { location in
                let list = program.list(ofLocation: location)
                lists[list].actions.append(program.actions[Int(location)])
                if let ruleIndices, position < ruleIndices.count { lists[list].ruleIndices.append(Int(ruleIndices[position])) }
                position += 1
            }
            for index in lists.indices {
                if sawIgnorePreviousRules(list: index) {
                    lists[index].sawIgnorePreviousRules = true
                } else {
                    lists[index].globalStyleSheetSelectors = program.globalStyleSheets[index]
                }
            }
            return AppliedActions(lists: lists, isChecked: true, upgradesToHTTPS: upgradesToHTTPS)
        }

        /// Decisions are equal when they apply the same actions.
        public static func == (lhs: Decision, rhs: Decision) -> Bool {
            lhs.isChecked == rhs.isChecked && lhs.appliedActions == rhs.appliedActions
        }

        /// Hashes the applied actions.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(appliedActions)
        }
    }
}

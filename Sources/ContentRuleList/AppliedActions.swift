/// What WebKit applies to one load, for one or several rule lists.
///
/// Each list is evaluated on its own (its `ignore-previous-rules` only cancel its own rules) and
/// the results are combined: the load is blocked if any list blocks it.
public struct AppliedActions: Sendable, Hashable {
    /// The outcome of one rule list for the load.
    public struct ListActions: Sendable, Hashable {
        /// The actions, in application order, after `ignore-following-rules` and
        /// `ignore-previous-rules` processing, with merged css selectors as WebKit merges them.
        /// Never contains ignore actions. The global style sheet is not included.
        public var actions: [Action]
        /// Whether an `ignore-previous-rules` of this list matched; then the list's global style
        /// sheet is not applied for this load.
        public var sawIgnorePreviousRules: Bool
        /// The selectors of the list's global style sheet (universal, flagless, condition-less
        /// css rules before the first ignore rule) that this load applies; empty when the list
        /// has none, saw `ignore-previous-rules`, or the load is not checked.
        public var globalStyleSheetSelectors: [String]
        /// For each of ``actions``, the index in the list's JSON array of the rule that put it
        /// there: of the rules that matched the load and share the action's location (WebKit
        /// applies their action once), the first. Empty when the answer was made without asking
        /// which rules applied (a `RuleEngine` decision's `appliedActions`).
        public var ruleIndices: [Int]

        /// Creates the outcome of one list.
        public init(
            actions: [Action], sawIgnorePreviousRules: Bool, globalStyleSheetSelectors: [String], ruleIndices: [Int] = []
        ) {
            self.actions = actions
            self.sawIgnorePreviousRules = sawIgnorePreviousRules
            self.globalStyleSheetSelectors = globalStyleSheetSelectors
            self.ruleIndices = ruleIndices
        }
    }

    /// One entry per rule list, in the order the lists were given to the evaluator.
    public var lists: [ListActions]
    /// False when WebKit does not check the load at all (invalid or `data:` URL).
    public var isChecked: Bool
    /// Whether a `make-https` action applies and the URL is `http:`/`ws:` on the default port.
    public var upgradesToHTTPS: Bool

    /// Creates a result.
    public init(lists: [ListActions], isChecked: Bool, upgradesToHTTPS: Bool) {
        self.lists = lists
        self.isChecked = isChecked
        self.upgradesToHTTPS = upgradesToHTTPS
    }

    /// The actions of every list, list after list, each in application order.
    public var actions: [Action] { lists.flatMap(\.actions) }

    /// Whether any list blocks the load.
    public var isBlocked: Bool { actions.contains(.block) }

    /// Whether any list strips the load's cookies.
    public var blocksCookies: Bool { actions.contains(.blockCookies) }

    /// The notification strings, in order.
    public var notifications: [String] {
        actions.compactMap { action in
            if case .notify(let notification) = action { return notification }
            return nil
        }
    }

    /// Every selector this load hides: per-load css actions, then the applied global style sheets.
    public var hiddenSelectors: [String] {
        var selectors: [String] = []
        for list in lists {
            for action in list.actions {
                if case .cssDisplayNone(let selector) = action { selectors.append(selector) }
            }
        }
        for list in lists { selectors += list.globalStyleSheetSelectors }
        return selectors
    }

    /// How many lists apply their global style sheet to this load (WebKit's tests call them
    /// "sheets").
    public var globalStyleSheetCount: Int {
        lists.count { !$0.globalStyleSheetSelectors.isEmpty }
    }
}

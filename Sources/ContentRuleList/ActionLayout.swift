// WebKit's compiler gives every rule of a list an "action location" before it builds any
// matcher: matched actions apply in location order, rules sharing a location yield one action,
// and some universal css rules leave the matching altogether for the list's global style sheet.
// The reference evaluator and the rule engine both lay a list out here.

/// WebKit's layout of one rule list's actions: each rule's action location, the action at each
/// location and the global style sheet's boundary.
package struct ActionLayout: Sendable {
    /// WebKit's action location of each rule, as an ordinal: matched actions apply in this order,
    /// and rules sharing a location yield one action.
    package let locations: [Int]
    /// The action at each location, css-display-none selectors of merged rules comma-joined.
    package let actions: [Action]
    /// The location of the list's first ignore-previous-rules or ignore-following-rules, or
    /// `Int.max`: WebKit's global style sheet takes only css rules located before it.
    private let firstIgnoreLocation: Int

    /// Lays out the rules of one list.
    package init(_ rules: [ContentRule]) {
        let (locations, actions) = Self.assignLocations(rules)
        self.locations = locations
        self.actions = actions
        firstIgnoreLocation = rules.indices.first { rules[$0].action.isIgnoreRule }.map { locations[$0] } ?? Int.max
    }

    /// Whether rule `index`, universal (it matches every URL and has no flags and no condition),
    /// goes into WebKit's global style sheet: a css-display-none located before the first ignore
    /// rule. Other universal rules add their action to every load.
    package func isInGlobalStyleSheet(_ index: Int) -> Bool {
        let location = locations[index]
        guard case .cssDisplayNone = actions[location] else { return false }
        return location < firstIgnoreLocation
    }

    /// The global style sheet's selectors for these locations (of rules for which
    /// ``isInGlobalStyleSheet(_:)`` holds), in location order.
    package func globalStyleSheetSelectors(_ sheetLocations: some Sequence<Int>) -> [String] {
        sheetLocations.sorted().compactMap { location -> String? in
            if case .cssDisplayNone(let selector) = actions[location] { return selector }
            return nil
        }
    }

    /// Assigns action locations exactly as WebKit's `serializeActions` does, as ordinals.
    ///
    /// Between two ignore rules, condition-less rules with the same action (and, for notify,
    /// string) and the same flags share one location; consecutive condition-less
    /// ignore-previous-rules with equal flags share one; redirect and modify-headers share across
    /// ignore rules too (WebKit never resets those maps). Rules with a condition and
    /// ignore-following-rules always get their own. css-display-none rules with identical
    /// triggers merge into one action with comma-joined selectors, placed at the end of their
    /// segment.
    private static func assignLocations(_ rules: [ContentRule]) -> (locations: [Int], actions: [Action]) {
        struct FlagsKey: Hashable {
            var type: String
            var flags: ResourceFlags
        }
        struct ValueKey: Hashable {
            var action: Action
            var flags: ResourceFlags
        }
        var actions: [Action] = []
        var locations = [Int](repeating: 0, count: rules.count)
        var simple: [FlagsKey: Int] = [:]
        var notify: [ValueKey: Int] = [:]
        var active: [ValueKey: Int] = [:]  // redirect and modify-headers: never reset
        var ignorePrevious: [ResourceFlags: Int] = [:]
        // WebKit merges css rules whose triggers are equal: same pattern, case flags and flags.
        struct CSSKey: Hashable {
            var urlFilter: String
            var caseFlags: [Bool]
            var flags: ResourceFlags
        }
        var pendingCSS: [CSSKey: (selectors: String, rules: [Int])] = [:]
        var pendingCSSOrder: [CSSKey] = []

        func resolvePendingCSS() {
            for key in pendingCSSOrder {
                guard let pending = pendingCSS[key] else { continue }
                let location = actions.count
                actions.append(.cssDisplayNone(selector: pending.selectors))
                for rule in pending.rules { locations[rule] = location }
            }
            pendingCSS = [:]
            pendingCSSOrder = []
        }

        func newLocation(_ action: Action) -> Int {
            actions.append(action)
            return actions.count - 1
        }

        /// The location an equal earlier action already has under `key`, or a new one.
        func sharedLocation<Key: Hashable>(_ action: Action, key: Key, in map: inout [Key: Int]) -> Int {
            if let location = map[key] { return location }
            let location = newLocation(action)
            map[key] = location
            return location
        }

        for (index, rule) in rules.enumerated() {
            let action = rule.action
            if action.isIgnoreRule {
                resolvePendingCSS()
                simple = [:]
                notify = [:]
            }
            if action != .ignorePreviousRules { ignorePrevious = [:] }
            if rule.trigger.condition != nil || action == .ignoreFollowingRules {
                locations[index] = newLocation(action)
                continue
            }
            let flags = rule.trigger.flags
            switch action {
            case .cssDisplayNone(let selector):
                let trigger = rule.trigger
                let key = CSSKey(
                    urlFilter: trigger.urlFilter,
                    caseFlags: [
                        trigger.urlFilterIsCaseSensitive, trigger.topURLFilterIsCaseSensitive,
                        trigger.frameURLFilterIsCaseSensitive,
                    ],
                    flags: flags)
                if var pending = pendingCSS[key] {
                    pending.selectors += "," + selector
                    pending.rules.append(index)
                    pendingCSS[key] = pending
                } else {
                    pendingCSS[key] = (selector, [index])
                    pendingCSSOrder.append(key)
                }
            case .ignorePreviousRules:
                locations[index] = sharedLocation(action, key: flags, in: &ignorePrevious)
            case .block, .blockCookies, .makeHTTPS:
                let key = FlagsKey(type: action.type, flags: flags)
                locations[index] = sharedLocation(action, key: key, in: &simple)
            case .notify:
                let key = ValueKey(action: action, flags: flags)
                locations[index] = sharedLocation(action, key: key, in: &notify)
            case .redirect, .modifyHeaders:
                let key = ValueKey(action: action, flags: flags)
                locations[index] = sharedLocation(action, key: key, in: &active)
            case .ignoreFollowingRules:
                locations[index] = newLocation(action)
            }
        }
        resolvePendingCSS()
        return (locations, actions)
    }
}

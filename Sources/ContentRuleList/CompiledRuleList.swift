// One rule list prepared for the reference evaluator: the patterns parsed, each rule given the
// "action location" WebKit's compiler gives it, the global style sheet split off, and the rules
// indexed by literal pieces of their url-filters.

/// A rule list as WebKit's compiler lays it out, for evaluation.
package struct CompiledRuleList: Sendable {
    var rules: [CompiledRule]
    /// WebKit's action location of each rule, as an ordinal: matched actions apply in this order,
    /// and rules sharing a location yield one action.
    var locations: [Int]
    /// The action at each location, css-display-none selectors of merged rules comma-joined.
    var actionsByLocation: [Action]
    /// Locations of rules that match every URL and have no flags and no condition: WebKit adds
    /// them to every load without running a matcher.
    var universalLocations: [Int]
    /// Indices of the rules that must be checked on every load (universal rules with flags or a
    /// condition, and rules without a usable literal).
    var alwaysChecked: [Int]
    /// Rules indexed by one 4-byte piece of a literal every matching URL contains.
    var rulesByGram: [UInt32: [Int]]
    /// The selectors of WebKit's global style sheet for this list, in rule order.
    var globalStyleSheetSelectors: [String]

    /// Compiles a list; `usesLiteralPrefilter: false` checks every rule on every load (for
    /// testing the prefilter).
    init(_ list: RuleList, usesLiteralPrefilter: Bool = true) throws(RuleListError) {
        var cache = URLFilterCache()
        var rules: [CompiledRule] = []
        rules.reserveCapacity(list.rules.count)
        for (index, rule) in list.rules.enumerated() {
            do {
                rules.append(try CompiledRule(rule, cache: &cache))
            } catch {
                throw RuleListError(error.kind, ruleIndex: index, detail: error.detail)
            }
        }
        self.rules = rules
        let (locations, actionsByLocation) = Self.actionLocations(list.rules)
        self.locations = locations
        self.actionsByLocation = actionsByLocation

        // WebKit's global style sheet: css actions that match everything, carry no flags and no
        // condition, and sit before the first ignore-previous-rules / ignore-following-rules.
        let firstIgnoreLocation =
            list.rules.indices.first { list.rules[$0].action.isIgnoreRule }.map { locations[$0] } ?? Int.max
        var universal: [Int] = []
        var sheetLocations: [Int] = []
        var always: [Int] = []
        var byGram: [UInt32: [Int]] = [:]
        for (index, rule) in rules.enumerated() {
            let isUniversal = rule.urlFilter.matchesEverything
            if isUniversal && rule.flags.isEmpty && rule.condition == nil {
                let location = locations[index]
                if case .cssDisplayNone = list.rules[index].action, location < firstIgnoreLocation {
                    if !sheetLocations.contains(location) { sheetLocations.append(location) }
                } else if !universal.contains(location) {
                    universal.append(location)
                }
                continue
            }
            if isUniversal || !usesLiteralPrefilter {
                always.append(index)
                continue
            }
            let grams = LiteralPrefilter.grams(of: LiteralPrefilter.requiredRuns(in: list.rules[index].trigger.urlFilter))
            guard let first = grams.first else {
                always.append(index)
                continue
            }
            // The least used piece keeps the candidate lists short.
            var best = first
            var bestCount = byGram[first]?.count ?? 0
            for gram in grams.dropFirst() {
                let count = byGram[gram]?.count ?? 0
                if count < bestCount {
                    best = gram
                    bestCount = count
                }
            }
            byGram[best, default: []].append(index)
        }
        universalLocations = universal
        alwaysChecked = always
        rulesByGram = byGram
        globalStyleSheetSelectors = sheetLocations.sorted().compactMap { location -> String? in
            if case .cssDisplayNone(let selector) = actionsByLocation[location] { return selector }
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
    package static func actionLocations(_ rules: [ContentRule]) -> (locations: [Int], actions: [Action]) {
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

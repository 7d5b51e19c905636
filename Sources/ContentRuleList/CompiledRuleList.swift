// One rule list prepared for the reference evaluator: the patterns parsed, the list laid out as
// WebKit's compiler lays it out (``ActionLayout``), the global style sheet split off, and the
// rules indexed by literal pieces of their url-filters.

/// A rule list as WebKit's compiler lays it out, for evaluation.
struct CompiledRuleList: Sendable {
    var rules: [CompiledRule]
    /// WebKit's action location of each rule, as an ordinal: matched actions apply in this order,
    /// and rules sharing a location yield one action.
    var locations: [Int]
    /// The action at each location, css-display-none selectors of merged rules comma-joined.
    var actionsByLocation: [Action]
    /// Locations of rules that match every URL and have no flags and no condition: WebKit adds
    /// them to every load without running a matcher.
    var universalLocations: [Int]
    /// For each of ``universalLocations``, the index of the first universal rule there.
    var universalRules: [Int]
    /// Indices of the rules that must be checked on every load (universal rules with flags or a
    /// condition, and rules without a usable literal).
    var alwaysChecked: [Int]
    /// Rules indexed by one 4-byte piece of a literal every matching URL contains.
    var rulesByGram: [UInt32: [Int]]
    /// The selectors of WebKit's global style sheet for this list, in rule order.
    var globalStyleSheetSelectors: [String]

    /// Compiles a list; `usesLiteralPrefilter: false` checks every rule on every load (for
    /// testing the prefilter).
    init(_ list: RuleList, usesLiteralPrefilter: Bool = true, target: WebKitTarget = .newest) throws(RuleListError) {
        var cache = URLFilterCache()
        var rules: [CompiledRule] = []
        rules.reserveCapacity(list.rules.count)
        for (index, rule) in list.rules.enumerated() {
            do {
                rules.append(try CompiledRule(rule, cache: &cache, domainConditions: target.domainConditions))
            } catch {
                throw RuleListError(error.kind, ruleIndex: index, detail: error.detail)
            }
        }
        self.rules = rules
        let layout = ActionLayout(list.rules)
        locations = layout.locations
        actionsByLocation = layout.actions

        var universal: [Int] = []
        var universalRules: [Int] = []
        var sheetLocations: [Int] = []
        var always: [Int] = []
        var byGram: [UInt32: [Int]] = [:]
        for (index, rule) in rules.enumerated() {
            let isUniversal = rule.urlFilter.matchesEverything
            if isUniversal && rule.flags.isEmpty && rule.condition == nil {
                let location = layout.locations[index]
                if layout.isInGlobalStyleSheet(index) {
                    if !sheetLocations.contains(location) { sheetLocations.append(location) }
                } else if !universal.contains(location) {
                    universal.append(location)
                    universalRules.append(index)
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
        self.universalRules = universalRules
        alwaysChecked = always
        rulesByGram = byGram
        globalStyleSheetSelectors = layout.globalStyleSheetSelectors(sheetLocations)
    }
}

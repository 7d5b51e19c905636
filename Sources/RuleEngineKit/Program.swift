import ContentRuleList

// The compiled form of one or several rule lists: flat tables the evaluator reads, and that the
// compiled file stores as they are. Built by ProgramBuilder, read by RuleEngine+Evaluation.

/// Every table of a compiled engine.
final class Program: Sendable {
    // The tables every load reads, in memory freed with the program.
    let frozenRules: OwnedBuffer<RuleRecord>
    let frozenHosts: FrozenSuffixTable
    let frozenMatchers: OwnedBuffer<MatcherEntry>
    let frozenLiterals: OwnedBuffer<UInt8>
    let frozenTopURLHosts: FrozenSuffixTable
    let frozenFrameURLHosts: FrozenSuffixTable
    let frozenDomains: FrozenSuffixTable
    let frozenSubdomainDomains: FrozenSuffixTable

    // Actions
    /// The action at each global location.
    let actions: [Action]
    let actionKinds: [ActionKind]
    /// Where each list's locations start, and one past the last list.
    let listLocationStarts: [UInt32]
    /// Locations every checked load gets (universal rules without flags or condition), sorted.
    let universalLocations: [UInt32]
    /// For each of ``universalLocations``, the index in its list of the first universal rule there.
    let universalRuleIndices: [UInt32]
    /// Each list's global style sheet selectors.
    let globalStyleSheets: [[String]]
    /// How many rules each list has, as given.
    let ruleCounts: [UInt32]

    // Rules and their indexes
    let rules: [RuleRecord]
    /// The index in its list's JSON array of each of ``rules``: read only to name the rule
    /// behind an action, so kept apart from the records every load reads.
    let ruleIndices: [UInt32]
    let matchers: [RuleMatcher]
    /// The automata of ``matchers``, indexed by their ``MatcherEntry``.
    let automata: [URLFilter]
    /// Host → ``HostPattern/tableValue(_:)`` of the rule.
    let hosts: SuffixTable
    /// Gram → rule.
    let grams: GramTable
    /// Rules checked on every load.
    let alwaysChecked: [UInt32]
    /// Rules that match every URL and have a condition a table answers: each page lists those
    /// whose condition holds, and its loads only check their flags.
    let pageRules: [UInt32]

    // Conditions
    let conditionCount: Int
    /// Top-URL host → ``HostPattern/tableValue(_:)`` of the condition.
    let topURLHosts: SuffixTable
    /// Frame-URL host → ``HostPattern/tableValue(_:)`` of the condition.
    let frameURLHosts: SuffixTable
    /// `if-domain` entry → `condition << 1 | isCaseSensitive`.
    let domains: SuffixTable
    /// `if-domain` `*entry` → `condition << 1 | isCaseSensitive`.
    let subdomainDomains: SuffixTable
    let conditionPatterns: [ConditionPattern]
    /// Indices in ``conditionPatterns`` by condition: those of condition `c` are at
    /// `patternsByCondition[patternOffsets[c]..<patternOffsets[c + 1]]`.
    let patternOffsets: [UInt32]
    let patternsByCondition: [UInt32]
    /// Conditions with patterns that only an automaton answers, as bits: a page evaluates them
    /// the first time a load needs them.
    let lazyConditionBits: [UInt64]
    /// Conditions with a pattern that matches everything.
    let alwaysMatchedConditions: [UInt32]
    /// Whether some condition reads the frame URL.
    let hasFrameConditions: Bool

    init(
        actions: [Action], listLocationStarts: [UInt32], universalLocations: [UInt32], universalRuleIndices: [UInt32],
        globalStyleSheets: [[String]], ruleCounts: [UInt32], rules: [RuleRecord], ruleIndices: [UInt32], matchers: [RuleMatcher], hosts: SuffixTable,
        grams: GramTable, alwaysChecked: [UInt32], pageRules: [UInt32], conditionCount: Int, topURLHosts: SuffixTable,
        frameURLHosts: SuffixTable, domains: SuffixTable, subdomainDomains: SuffixTable,
        conditionPatterns: [ConditionPattern], alwaysMatchedConditions: [UInt32], usesHostFilter: Bool = true
    ) {
        self.actions = actions
        self.actionKinds = actions.map(ActionKind.init)
        self.listLocationStarts = listLocationStarts
        self.universalLocations = universalLocations
        self.universalRuleIndices = universalRuleIndices
        self.globalStyleSheets = globalStyleSheets
        self.ruleCounts = ruleCounts
        self.rules = rules
        self.ruleIndices = ruleIndices
        self.matchers = matchers
        var entries: [MatcherEntry] = []
        var pool: [UInt8] = []
        var automata: [URLFilter] = []
        entries.reserveCapacity(matchers.count)
        for matcher in matchers {
            switch matcher {
            case .automaton(let filter):
                entries.append(MatcherEntry(isAutomaton: true, allowsPort: false, isAnchoredAtEnd: false, index: UInt32(automata.count), length: 0))
                automata.append(filter)
            case .path(let literal, let allowsPort, let isAnchoredAtEnd):
                entries.append(MatcherEntry(
                    isAutomaton: false, allowsPort: allowsPort, isAnchoredAtEnd: isAnchoredAtEnd, index: UInt32(pool.count),
                    length: UInt32(literal.count)))
                pool += literal
            }
        }
        self.automata = automata
        frozenRules = OwnedBuffer(rules)
        frozenHosts = FrozenSuffixTable(hosts, withFilter: usesHostFilter)
        frozenMatchers = OwnedBuffer(entries)
        frozenLiterals = OwnedBuffer(pool)
        frozenTopURLHosts = FrozenSuffixTable(topURLHosts)
        frozenFrameURLHosts = FrozenSuffixTable(frameURLHosts)
        frozenDomains = FrozenSuffixTable(domains)
        frozenSubdomainDomains = FrozenSuffixTable(subdomainDomains)
        self.hosts = hosts
        self.grams = grams
        self.alwaysChecked = alwaysChecked
        self.pageRules = pageRules
        self.conditionCount = conditionCount
        self.topURLHosts = topURLHosts
        self.frameURLHosts = frameURLHosts
        self.domains = domains
        self.subdomainDomains = subdomainDomains
        self.conditionPatterns = conditionPatterns
        var offsets = [UInt32](repeating: 0, count: conditionCount + 1)
        for pattern in conditionPatterns { offsets[Int(pattern.condition) + 1] += 1 }
        for index in 0..<conditionCount { offsets[index + 1] += offsets[index] }
        var next = offsets
        var byCondition = [UInt32](repeating: 0, count: conditionPatterns.count)
        var lazy = [UInt64](repeating: 0, count: (conditionCount + 63) / 64)
        for (index, pattern) in conditionPatterns.enumerated() {
            let condition = Int(pattern.condition)
            byCondition[Int(next[condition])] = UInt32(index)
            next[condition] += 1
            lazy[condition >> 6] |= 1 << UInt64(condition & 63)
        }
        patternOffsets = offsets
        patternsByCondition = byCondition
        lazyConditionBits = lazy
        self.alwaysMatchedConditions = alwaysMatchedConditions
        self.hasFrameConditions = !frameURLHosts.isEmpty || conditionPatterns.contains(where: \.isOnFrameURL)
    }

    deinit {
        frozenRules.deallocate()
        frozenHosts.deallocate()
        frozenMatchers.deallocate()
        frozenLiterals.deallocate()
        for table in [frozenTopURLHosts, frozenFrameURLHosts, frozenDomains, frozenSubdomainDomains] { table.deallocate() }
    }

    var listCount: Int { listLocationStarts.count - 1 }

    /// The list a global location belongs to.
    func list(ofLocation location: UInt32) -> Int {
        var list = 0
        while list + 1 < listLocationStarts.count - 1 && listLocationStarts[list + 1] <= location { list += 1 }
        return list
    }

    /// Bytes held by the tables, strings and automata (an estimate for automata and strings).
    var memoryFootprint: Int {
        func size<T>(_ array: [T]) -> Int { array.count * MemoryLayout<T>.stride }
        func size(_ table: SuffixTable) -> Int {
            size(table.slots) + size(table.hashes) + size(table.keyOffsets) + size(table.keyBytes)
                + size(table.valueOffsets) + size(table.values)
        }
        var total = size(actions) + size(actionKinds) + size(listLocationStarts) + size(universalLocations)
            + size(universalRuleIndices) + size(ruleIndices)
        total += globalStyleSheets.reduce(0) { $0 + $1.reduce(0) { $0 + $1.utf8.count + 16 } }
        total += size(rules) + frozenMatchers.count * MemoryLayout<MatcherEntry>.stride + frozenLiterals.count + size(automata) + size(alwaysChecked) + size(pageRules)
        total += size(hosts) + size(topURLHosts) + size(frameURLHosts) + size(domains) + size(subdomainDomains)
        total += size(grams.bitmap) + size(grams.grams) + size(grams.valueOffsets) + size(grams.values)
        for action in actions {
            switch action {
            case .cssDisplayNone(let selector): total += selector.utf8.count
            case .notify(let text): total += text.utf8.count
            default: break
            }
        }
        for filter in automata { total += 64 + filter.pattern.utf8.count + 32 * filter.terms.count + 1024 }
        for pattern in conditionPatterns {
            total += 64 + pattern.filter.pattern.utf8.count + 32 * pattern.filter.terms.count + 1024
        }
        return total
    }
}

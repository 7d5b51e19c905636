import ContentRuleList

// Compiling: each rule list is laid out as WebKit lays it out (action locations, universal
// actions, global style sheet), then every rule is filed where the evaluator will find it: under
// its host, under a literal gram, or in the short list of rules checked on every load. Conditions
// get one bit each in the page's condition bits, filled from host and domain tables or, for
// arbitrary patterns, by an automaton run once per page.

/// Builds a ``Program`` from parsed rule lists.
struct ProgramBuilder {
    private var actions: [Action] = []
    private var listLocationStarts: [UInt32] = []
    /// Universal locations, each with the index in its list of the first universal rule there.
    private var universalLocations: [(location: UInt32, ruleIndex: UInt32)] = []
    private var globalStyleSheets: [[String]] = []
    private var ruleCounts: [UInt32] = []
    private var rules: [RuleRecord] = []
    private var ruleIndices: [UInt32] = []
    /// The index in its list of the rule being filed.
    private var currentRuleIndex: UInt32 = 0
    private var matchers: [RuleMatcher] = []
    private var hostEntries = TableEntries()
    private var gramEntries: [UInt32: [UInt32]] = [:]
    private var alwaysChecked: [UInt32] = []
    private var pageRules: [UInt32] = []
    /// Conditions with patterns only an automaton answers (evaluated lazily per page).
    private var lazyConditions: Set<UInt32> = []

    private struct ConditionKey: Hashable {
        var values: [String]
        var isDomainList: Bool
        var isOnFrameURL: Bool
        var isCaseSensitive: Bool
    }
    private var conditionIDs: [ConditionKey: UInt32] = [:]
    private var topURLHostEntries = TableEntries()
    private var frameURLHostEntries = TableEntries()
    private var domainEntries = TableEntries()
    private var subdomainEntries = TableEntries()
    private var conditionPatterns: [ConditionPattern] = []
    private var alwaysMatchedConditions: [UInt32] = []
    /// Parsed patterns, shared between rules.
    private var filters = URLFilterCache()

    static func build(_ lists: [RuleList], usesHostFilter: Bool = true) throws(RuleListError) -> Program {
        var builder = ProgramBuilder()
        for (index, list) in lists.enumerated() {
            do {
                try builder.add(list)
            } catch {
                var error = error
                if lists.count > 1 { error.detail = "rule list \(index): " + (error.detail ?? "") }
                throw error
            }
        }
        builder.listLocationStarts.append(UInt32(builder.actions.count))
        let universal = builder.universalLocations.sorted { $0.location < $1.location }
        return Program(
            actions: builder.actions, listLocationStarts: builder.listLocationStarts,
            universalLocations: universal.map(\.location), universalRuleIndices: universal.map(\.ruleIndex),
            globalStyleSheets: builder.globalStyleSheets, ruleCounts: builder.ruleCounts,
            rules: builder.rules, ruleIndices: builder.ruleIndices, matchers: builder.matchers,
            hosts: SuffixTable(builder.hostEntries.entries), grams: GramTable(builder.gramEntries),
            alwaysChecked: builder.alwaysChecked, pageRules: builder.pageRules, conditionCount: builder.conditionIDs.count,
            topURLHosts: SuffixTable(builder.topURLHostEntries.entries),
            frameURLHosts: SuffixTable(builder.frameURLHostEntries.entries),
            domains: SuffixTable(builder.domainEntries.entries),
            subdomainDomains: SuffixTable(builder.subdomainEntries.entries),
            conditionPatterns: builder.conditionPatterns, alwaysMatchedConditions: builder.alwaysMatchedConditions,
            usesHostFilter: usesHostFilter)
    }

    private mutating func add(_ list: RuleList) throws(RuleListError) {
        let base = UInt32(actions.count)
        listLocationStarts.append(base)
        ruleCounts.append(UInt32(list.rules.count))
        let layout = ActionLayout(list.rules)
        let locations = layout.locations
        actions += layout.actions

        var sheetLocations: Set<Int> = []
        /// Universal location → the first universal rule there.
        var universal: [Int: Int] = [:]
        for (index, rule) in list.rules.enumerated() {
            let trigger = rule.trigger
            // The common host shapes are read from the text; other patterns are parsed.
            let hostPattern = HostPattern(text: trigger.urlFilter, isCaseSensitive: trigger.urlFilterIsCaseSensitive)
            var urlFilter: URLFilter?
            if hostPattern == nil {
                do {
                    urlFilter = try filters.filter(trigger.urlFilter, isCaseSensitive: trigger.urlFilterIsCaseSensitive)
                } catch {
                    let failure = RegexFailure(urlFilter: trigger.urlFilter, error)
                    throw RuleListError(failure.kind, ruleIndex: index, detail: failure.detail)
                }
            }
            let flags = trigger.flags
            let location = locations[index]
            if urlFilter?.matchesEverything == true && flags.isEmpty && trigger.condition == nil {
                if layout.isInGlobalStyleSheet(index) {
                    sheetLocations.insert(location)
                } else if universal[location] == nil {
                    universal[location] = index
                }
                continue
            }
            currentRuleIndex = UInt32(index)
            var record = RuleRecord(
                flags: flags.rawValue, location: base + UInt32(location), condition: 0, conditionMode: .none,
                matcher: RuleRecord.matchesEverything)
            if let condition = trigger.condition {
                do {
                    record.condition = try conditionID(condition, trigger: trigger)
                } catch {
                    throw RuleListError(error.kind, ruleIndex: index, detail: error.detail)
                }
                let quirk = trigger.requestMethod != nil
                record.conditionMode = condition.isPositive ? (quirk ? .never : .ifAny) : (quirk ? .always : .unlessAny)
            }
            if let hostPattern {
                file(record, host: hostPattern, urlFilter: nil)
            } else if let urlFilter {
                file(record, urlFilter: urlFilter)
            }
        }
        universalLocations += universal.map { (base + UInt32($0.key), UInt32($0.value)) }
        globalStyleSheets.append(layout.globalStyleSheetSelectors(sheetLocations))
    }

    private mutating func appendRule(_ record: RuleRecord) {
        rules.append(record)
        ruleIndices.append(currentRuleIndex)
    }

    /// Files a rule under its host, a gram of its literal, or with the rules checked every time.
    private mutating func file(_ record: RuleRecord, urlFilter: URLFilter) {
        var record = record
        let ruleIndex = UInt32(rules.count)
        if urlFilter.matchesEverything {
            record.matcher = RuleRecord.matchesEverything
            appendRule(record)
            // A rule whose condition a table answers depends on the page and the load's flags
            // only: the page finds out once whether its condition holds.
            let isPageRule =
                (record.conditionMode == .ifAny || record.conditionMode == .unlessAny)
                && !lazyConditions.contains(record.condition)
            if isPageRule {
                pageRules.append(ruleIndex)
            } else if record.conditionMode != .never {
                alwaysChecked.append(ruleIndex)
            }
            return
        }
        if let host = HostPattern(urlFilter) {
            file(record, host: host, urlFilter: urlFilter)
            return
        }
        record.matcher = Int32(matchers.count)
        matchers.append(.automaton(urlFilter))
        appendRule(record)
        guard let literal = urlFilter.requiredLiteral, literal.count >= 4 else {
            alwaysChecked.append(ruleIndex)
            return
        }
        // The least used gram keeps the candidate lists short.
        var best: UInt32 = 0
        var bestCount = Int.max
        for start in 0...(literal.count - 4) {
            let gram = UInt32(literal[start]) << 24 | UInt32(literal[start + 1]) << 16 | UInt32(literal[start + 2]) << 8
                | UInt32(literal[start + 3])
            let count = gramEntries[gram]?.count ?? 0
            if count < bestCount {
                best = gram
                bestCount = count
            }
        }
        gramEntries[best, default: []].append(ruleIndex)
    }

    /// Files a rule under its host; `urlFilter` confirms candidates when the host pattern leaves
    /// a remainder it cannot check itself.
    private mutating func file(_ record: RuleRecord, host: HostPattern, urlFilter: URLFilter?) {
        var record = record
        let ruleIndex = UInt32(rules.count)
        switch host.remainder {
        case .separator:
            record.matcher = RuleRecord.separatorAfterHost
        case .path(let literal, let allowsPort, let isAnchoredAtEnd):
            record.matcher = Int32(matchers.count)
            matchers.append(.path(literal: literal, allowsPort: allowsPort, isAnchoredAtEnd: isAnchoredAtEnd))
        case nil:
            // Only parsed patterns leave their remainder to the automaton.
            guard let urlFilter else {
                assertionFailure("a host pattern read from text always has a remainder")
                return
            }
            record.matcher = Int32(matchers.count)
            matchers.append(.automaton(urlFilter))
        }
        appendRule(record)
        hostEntries.append(host.tableValue(ruleIndex), to: host.host)
    }

    /// The condition's index, filing its patterns the first time it is seen.
    private mutating func conditionID(_ condition: Condition, trigger: Trigger) throws(RegexFailure) -> UInt32 {
        let isOnFrameURL = condition.isOnFrameURL
        let isCaseSensitive = isOnFrameURL ? trigger.frameURLFilterIsCaseSensitive : trigger.topURLFilterIsCaseSensitive
        let key = ConditionKey(
            values: condition.values, isDomainList: condition.isDomainList, isOnFrameURL: isOnFrameURL,
            isCaseSensitive: isCaseSensitive)
        if let id = conditionIDs[key] { return id }
        let id = UInt32(conditionIDs.count)
        conditionIDs[key] = id
        let caseBit: UInt32 = isCaseSensitive ? 1 : 0
        for value in condition.values {
            if key.isDomainList && DomainMatcher.isPlain(value) {
                if value.hasPrefix("*") {
                    subdomainEntries.append(id << 1 | caseBit, to: Array(value.utf8.dropFirst()))
                } else {
                    domainEntries.append(id << 1 | caseBit, to: Array(value.utf8))
                }
                continue
            }
            let pattern = key.isDomainList ? Condition.topURLPattern(forDomain: value) : value
            if let host = HostPattern(text: pattern, isCaseSensitive: isCaseSensitive), host.remainder == .separator {
                fileHostCondition(id, host: host, isOnFrameURL: isOnFrameURL)
                continue
            }
            let filter: URLFilter
            do {
                filter = try filters.filter(pattern, isCaseSensitive: isCaseSensitive)
            } catch {
                throw RegexFailure(condition: condition, value: value, pattern: pattern, error)
            }
            if filter.matchesEverything {
                alwaysMatchedConditions.append(id)
            } else if let host = HostPattern(filter), host.remainder == .separator {
                fileHostCondition(id, host: host, isOnFrameURL: isOnFrameURL)
            } else {
                conditionPatterns.append(ConditionPattern(filter: filter, condition: id, isOnFrameURL: isOnFrameURL))
                lazyConditions.insert(id)
            }
        }
        return id
    }

    private mutating func fileHostCondition(_ id: UInt32, host: HostPattern, isOnFrameURL: Bool) {
        let entry = host.tableValue(id)
        if isOnFrameURL {
            frameURLHostEntries.append(entry, to: host.host)
        } else {
            topURLHostEntries.append(entry, to: host.host)
        }
    }
}

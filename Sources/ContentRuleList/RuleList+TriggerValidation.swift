extension RuleList {
    /// ``validate()`` without encoding the list and parsing it again, for lists built in code
    /// whose actions are all `block`, `block-cookies` or `ignore-previous-rules` (a builder's):
    /// the same error, with the same rule index, for everything such a list can get wrong (an
    /// empty list, too many rules, an empty url-filter or condition, a domain that is not
    /// lowercase ASCII, a pattern WebKit cannot compile). Any other list gets ``validate()``.
    ///
    /// Encoding and parsing a list of tens of thousands of rules costs more than building it;
    /// the patterns are what can be wrong in a built list, and they are checked here by the
    /// parser's own pattern pass, once per skeleton (`URLFilterParser.skeleton(of:)`: the
    /// pattern with its runs of literal letters as one letter) rather than once per pattern.
    ///
    /// For a `target` other than ``WebKitTarget/newest`` it also refuses, as that WebKit would,
    /// a resource type or load context it does not know, and names a trigger key it would ignore
    /// as an error too: a built list must mean in that WebKit what it says.
    public func validateTriggers(for target: WebKitTarget = .newest) throws(RuleListError) {
        let isBuilt = rules.allSatisfy { rule in
            switch rule.action {
            case .block, .blockCookies, .ignorePreviousRules: true
            default: false
            }
        }
        guard isBuilt else {
            let warnings = try validate(for: target)
            if let first = warnings.first {
                throw RuleListError(.invalidTrigger, ruleIndex: first.ruleIndex, detail: first.reason)
            }
            return
        }
        if rules.count > target.maximumRuleCount {
            throw RuleListError(.tooManyRules, detail: "\(rules.count) rules; at most \(target.maximumRuleCount)")
        }
        if rules.isEmpty { throw RuleListError(.containsNoRules, detail: "the array is empty") }
        // The rules are read in place: a copy of each rule would retain every string it holds.
        if target != .newest {
            try rules.withUnsafeBufferPointer { (rules) throws(RuleListError) in try Self.checkVocabulary(of: rules, for: target) }
            if target.refusesDomainAndTopURLConditionsInOneList {
                try RuleListParser.checkConditionKinds(rules, sourceIndices: Array(rules.indices))
            }
        }
        try rules.withUnsafeBufferPointer { (rules) throws(RuleListError) in
            try Self.checkShapes(of: rules)
            try Self.checkPatterns(of: rules)
        }
    }

    /// The parser's shape checks, before it compiles any pattern: an empty url-filter, an empty
    /// condition or condition value, a domain that is not lowercase ASCII.
    private static func checkShapes(of rules: UnsafeBufferPointer<ContentRule>) throws(RuleListError) {
        // A builder shares one array of condition values between many rules (an entity's sites):
        // each array is checked once, known by its storage, which the list keeps alive.
        var checkedConditions: Set<ConditionIdentity> = []
        for index in rules.indices {
            if rules[index].trigger.urlFilter.isEmpty {
                throw RuleListError(
                    .invalidURLFilterInTrigger, ruleIndex: index,
                    detail: "trigger[\"url-filter\"]: found \(RuleListParser.typeName(.string("")))")
            }
            guard let condition = rules[index].trigger.condition,
                  checkedConditions.insert(ConditionIdentity(condition, isCaseSensitive: true)).inserted
            else { continue }
            let key = condition.key
            for (valueIndex, value) in condition.values.enumerated() where value.isEmpty {
                throw RuleListError(
                    .invalidConditionList, ruleIndex: index,
                    detail: "trigger[\"\(key)\"][\(valueIndex)]: found \(RuleListParser.typeName(.string("")))")
            }
            if condition.isDomainList {
                for (valueIndex, domain) in condition.values.enumerated()
                where domain.utf8.contains(where: { $0 >= 0x80 || ($0 >= 0x41 && $0 <= 0x5A) }) {
                    throw RuleListError(
                        .domainNotLowerCaseASCII, ruleIndex: index,
                        detail: "trigger[\"\(key)\"][\(valueIndex)]: \(RuleListParser.quoted(domain))")
                }
            }
            if condition.values.isEmpty {
                throw RuleListError(.invalidConditionList, ruleIndex: index, detail: "trigger[\"\(key)\"] is empty")
            }
        }
    }

    /// The parser's pattern pass: each url-filter by its skeleton, each condition array once.
    private static func checkPatterns(of rules: UnsafeBufferPointer<ContentRule>) throws(RuleListError) {
        var validated = Set<PatternKey>()
        var skeletons: KnownSkeletons? = KnownSkeletons()
        var validatedConditions: Set<ConditionIdentity> = []
        for index in rules.indices {
            do throws(RegexFailure) {
                // A rule whose condition array was checked before needs its url-filter alone:
                // read in place, without a copy of the trigger.
                if let condition = rules[index].trigger.condition {
                    let trigger = rules[index].trigger
                    let isCaseSensitive = condition.isOnFrameURL ? trigger.frameURLFilterIsCaseSensitive : trigger.topURLFilterIsCaseSensitive
                    if validatedConditions.insert(ConditionIdentity(condition, isCaseSensitive: isCaseSensitive)).inserted {
                        try CompiledRule.validatePatterns(of: trigger, validated: &validated, skeletons: &skeletons)
                        continue
                    }
                }
                try CompiledRule.validateURLFilter(
                    rules[index].trigger.urlFilter, isCaseSensitive: rules[index].trigger.urlFilterIsCaseSensitive,
                    validated: &validated, skeletons: &skeletons)
            } catch {
                throw RuleListError(.invalidRegex, ruleIndex: index, detail: error.detail)
            }
        }
    }
}

extension RuleList {
    /// Refuses what `target` does not know, as its parser would, and a key it would ignore
    /// (the mix of condition kinds is checked after it, by the parser's own check).
    fileprivate static func checkVocabulary(
        of rules: UnsafeBufferPointer<ContentRule>, for target: WebKitTarget
    ) throws(RuleListError) {
        for index in rules.indices {
            for (position, type) in rules[index].trigger.resourceTypes.enumerated() where !target.supports(type) {
                throw RuleListError(
                    .invalidStringInTriggerFlagsArray, ruleIndex: index,
                    detail: "trigger[\"resource-type\"][\(position)]: \"\(type.rawValue)\"; \(target.displayName) does not know it")
            }
            // Each key the trigger has, in this order, checked without gathering them in an
            // array per rule.
            func check(_ key: String) throws(RuleListError) {
                guard target.reads(triggerKey: key) else {
                    throw RuleListError(
                        .invalidTrigger, ruleIndex: index,
                        detail: RuleListWarning(ruleIndex: index, key: key, target: target).reason)
                }
            }
            if !rules[index].trigger.loadContexts.isEmpty { try check("load-context") }
            if rules[index].trigger.requestMethod != nil { try check("request-method") }
            if rules[index].trigger.frameURLFilterIsCaseSensitive { try check("frame-url-filter-is-case-sensitive") }
            if let key = rules[index].trigger.condition?.key { try check(key) }
        }
    }
}

/// A condition known by the storage of its values, its kind and its case flag: two rules
/// holding the same array have the same condition. Hashed without the kind, which few arrays
/// differ in alone, so that a lookup hashes no string.
private struct ConditionIdentity: Hashable {
    var storage: UnsafeRawPointer?
    var count: Int
    var key: String
    var isCaseSensitive: Bool

    init(_ condition: Condition, isCaseSensitive: Bool) {
        let values = condition.values
        storage = values.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
        count = values.count
        key = condition.key
        self.isCaseSensitive = isCaseSensitive
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(storage)
        hasher.combine(count)
        hasher.combine(isCaseSensitive)
    }
}

import TrackerlessCore

extension RuleList {
    /// Parses and validates a rule list the way WebKit does, or reports WebKit's error.
    ///
    /// Shape errors of any rule win over regex errors of earlier rules, as in WebKit, whose parser
    /// reads the whole list before compiling patterns. Rules whose `css-display-none` selector is
    /// invalid are dropped silently; if none is left the list is "Empty extension.".
    public init(parsing json: [UInt8]) throws(RuleListError) {
        self = try RuleListParser.parse(json).ruleList
    }

    /// Parses and validates a rule list the way the WebKit of `target` does: it refuses what
    /// that WebKit refuses, in its words, and the list holds what that WebKit reads; each trigger
    /// key it would ignore is left out of the rule and named in `warnings`.
    public init(parsing json: [UInt8], for target: WebKitTarget, warnings: inout [RuleListWarning]) throws(RuleListError) {
        let parsed = try RuleListParser.parse(json, target: target)
        self = parsed.ruleList
        warnings += parsed.warnings
    }

    /// Parses and validates a rule list given as a string; see ``init(parsing:)-([UInt8])``.
    public init(parsing json: String) throws(RuleListError) {
        try self.init(parsing: Array(json.utf8))
    }

    /// Checks that WebKit would accept this list exactly as it is, for lists built in code.
    ///
    /// Throws what parsing ``encoded()`` would throw; also refuses rules that WebKit would drop
    /// silently (invalid selectors), reported as "Empty extension." for that rule.
    public func validate() throws(RuleListError) {
        _ = try validate(for: .newest)
    }

    /// Checks that the WebKit of `target` would accept this list exactly as it is, and returns
    /// the trigger keys it would ignore (the rule then applies more widely); see ``validate()``.
    @discardableResult
    public func validate(for target: WebKitTarget) throws(RuleListError) -> [RuleListWarning] {
        let parsed = try RuleListParser.parse(encoded(), target: target)
        if parsed.ruleList.rules.count != rules.count {
            let kept = Set(parsed.sourceIndices)
            let dropped = rules.indices.first { !kept.contains($0) }
            throw RuleListError(
                .containsNoRules, ruleIndex: dropped,
                detail: "WebKit would silently drop this rule: its css-display-none selector is invalid")
        }
        return parsed.warnings
    }
}

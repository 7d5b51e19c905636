/// The result of parsing: the rules WebKit keeps and, for each, its index in the JSON array.
struct ParsedRuleList {
    var ruleList: RuleList
    var sourceIndices: [Int]
    /// Trigger keys the target ignores, by rule.
    var warnings: [RuleListWarning] = []
}

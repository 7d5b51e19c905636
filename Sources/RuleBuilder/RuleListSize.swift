import ContentRuleList

/// How close one built list is to its target's limits: its rules against the most a list may
/// have, its JSON against the byte budget (``RuleListBuilder/Settings/byteBudget``).
public struct RuleListSize: Sendable, Hashable, CustomStringConvertible {
    /// The list's name: `main list`, `main list 2 of 3`, `entity "Google LLC" list`,
    /// `Click-to-Load "block-ctl-fb" list`, `cookie list`.
    public var name: String
    /// Its rules.
    public var ruleCount: Int
    /// The most rules it may have (``RuleListBuilder/Settings/maximumRulesPerList``).
    public var ruleLimit: Int
    /// Its JSON (`RuleList.encoded()`), in bytes.
    public var byteCount: Int
    /// The most JSON it may have, in bytes.
    public var byteBudget: Int

    /// A list's size against its limits.
    public init(name: String, ruleCount: Int, ruleLimit: Int, byteCount: Int, byteBudget: Int) {
        self.name = name
        self.ruleCount = ruleCount
        self.ruleLimit = ruleLimit
        self.byteCount = byteCount
        self.byteBudget = byteBudget
    }

    /// The share of the rule limit used, 0 to 1.
    public var ruleShare: Double { ruleLimit > 0 ? Double(ruleCount) / Double(ruleLimit) : 0 }
    /// The share of the byte budget used, 0 to 1.
    public var byteShare: Double { byteBudget > 0 ? Double(byteCount) / Double(byteBudget) : 0 }

    /// "main list: 12345/150000 rules (8.2%), 4461929/19000000 bytes (23.5%)"
    public var description: String {
        "\(name): \(ruleCount)/\(ruleLimit) rules (\(Self.percent(ruleShare))), "
            + "\(byteCount)/\(byteBudget) bytes (\(Self.percent(byteShare)))"
    }

    private static func percent(_ share: Double) -> String {
        let tenths = Int((share * 1000).rounded())
        return "\(tenths / 10).\(tenths % 10)%"
    }
}

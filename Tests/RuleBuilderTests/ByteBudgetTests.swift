import ContentRuleList
import RuleBuilder
import Testing
import TrackerDataKit

/// Each list stays within its target's byte budget as well as its rule limit: sections are packed
/// by both, every list still ends with the configuration's rules, a part no split can make
/// smaller is refused naming its list, and the report says how close each list is to both.
@Suite("Rule lists within a byte budget")
struct ByteBudgetTests {
    /// `count` trackers `t0.example`, … each with `rules` rules, blocked by default.
    static func trackers(_ count: Int, rules: Int = 3) throws -> TrackerData {
        let entries = (0..<count).map { index in
            let ruleList = (0..<rules).map { #"{"rule": "t\#(index)\\.example/path\#($0)/", "action": "ignore"}"# }
            return tracker("t\(index).example", owner: "Company \(index)", rules: "[" + ruleList.joined(separator: ",") + "]")
        }
        return try TrackerData(parsing: Array(tds(entries).utf8))
    }

    /// One unprotected site: with the rule that never blocks navigations, two rules end each list.
    static func configuration() throws -> PrivacyConfiguration {
        try PrivacyConfiguration(parsing: Array(
            #"{"unprotectedTemporary": [{"domain": "open.example"}], "features": {"contentBlocking": {"state": "enabled"}}}"#.utf8))
    }

    @Test("the default budget is the target's: 19 MB, 10 MB for Safari 17 (iOS 17); a setting replaces it")
    func defaults() {
        #expect(RuleListBuilder.Settings().byteBudget == 19_000_000)
        #expect(RuleListBuilder.Settings(target: .safari17).byteBudget == 10_000_000)
        #expect(RuleListBuilder.Settings(target: .safari18).byteBudget == 19_000_000)
        #expect(RuleListBuilder.Settings(target: .webKitGTK2_50).byteBudget == 19_000_000)
        #expect(RuleListBuilder.Settings(target: .safari17, maximumBytesPerList: 5_000).byteBudget == 5_000)
    }

    @Test("a budget smaller than the rules splits them into lists each within it, each ending with the configuration's rules")
    func splitsByBytes() throws {
        let trackerData = try Self.trackers(60)
        let whole = RuleListBuilder(trackerData: trackerData, configuration: try Self.configuration()).build()
        try #require(whole.ruleLists.count == 1 && whole.refusal == nil)
        let wholeBytes = whole.ruleLists[0].encoded().count
        let budget = wholeBytes / 4
        let settings = RuleListBuilder.Settings(maximumBytesPerList: budget)
        let split = RuleListBuilder(trackerData: trackerData, configuration: try Self.configuration(), settings: settings).build()
        #expect(split.refusal == nil)
        #expect(split.ruleLists.count >= 4 && split.ruleLists.count <= 6, "\(split.ruleLists.count) lists")
        // Each list repeats the configuration's rules: T + n × tail rules in n lists, T + tail in one.
        let total = split.ruleLists.reduce(0) { $0 + $1.rules.count }
        let tailCount = (total - whole.ruleCount) / (split.ruleLists.count - 1)
        try #require(tailCount >= 2 && (total - whole.ruleCount) % (split.ruleLists.count - 1) == 0)
        let tail = Array(whole.ruleLists[0].rules.suffix(tailCount))
        for list in split.ruleLists {
            #expect(list.encoded().count <= budget)
            // The unprotected site's exception and the navigations' rule end every list.
            #expect(Array(list.rules.suffix(tailCount)) == tail)
        }
        // The trackers' rules, each once, in their order.
        let trackerRules = split.ruleLists.flatMap { $0.rules.dropLast(tailCount) }
        #expect(trackerRules.count == whole.ruleCount - tailCount)
        #expect(trackerRules == Array(whole.ruleLists[0].rules.dropLast(tailCount)))
    }

    @Test("the report gives each list's rules and bytes against the limits, exactly as encoded")
    func reportsSizes() throws {
        let settings = RuleListBuilder.Settings(maximumRulesPerList: 100, maximumBytesPerList: 20_000)
        let build = RuleListBuilder(trackerData: try Self.trackers(40), configuration: try Self.configuration(), settings: settings).build()
        let sizes = build.report.listSizes
        try #require(sizes.count == build.ruleLists.count && sizes.count > 1)
        for (size, list) in zip(sizes, build.ruleLists) {
            #expect(size.ruleCount == list.rules.count && size.ruleLimit == 100)
            #expect(size.byteCount == list.encoded().count && size.byteBudget == 20_000)
            #expect(size.ruleCount <= 100 && size.byteCount <= 20_000)
        }
        #expect(sizes[0].name == "main list 1 of \(sizes.count)")
        #expect(sizes[0].description.hasPrefix("main list 1 of \(sizes.count): \(sizes[0].ruleCount)/100 rules ("), "\(sizes[0])")
        #expect(sizes[0].description.contains("\(sizes[0].byteCount)/20000 bytes ("), "\(sizes[0])")
        // One list: its name has no number, and the cookie list is named too.
        let one = RuleListBuilder(trackerData: try Self.trackers(2)).build()
        #expect(one.report.listSizes.map(\.name) == ["main list"])
        #expect(one.report.listSizes.first?.byteCount == one.ruleLists.first?.encoded().count)
    }

    @Test("one tracker's section larger than the budget is refused, naming the list, the tracker and the budget")
    func refusesUnsplittableSection() throws {
        let entries = [
            tracker("small.example", owner: "Small"),
            tracker("big.example", owner: "Big", rules: "[" + (0..<200).map { #"{"rule": "big\\.example/p\#($0)/", "action": "ignore"}"# }.joined(separator: ",") + "]"),
        ]
        let trackerData = try TrackerData(parsing: Array(tds(entries).utf8))
        let settings = RuleListBuilder.Settings(maximumBytesPerList: 8_000)
        let build = RuleListBuilder(trackerData: trackerData, settings: settings).build()
        #expect(build.ruleLists.isEmpty)
        let refusal = try #require(build.refusal)
        guard case .partExceedsByteBudget(let list, let part, let byteCount, let budget) = refusal else {
            Issue.record("\(refusal)")
            return
        }
        #expect(list == "main list" && budget == 8_000 && byteCount > 8_000)
        #expect(part.hasPrefix(#"trackers["big.example"]"#), "\(part)")
        #expect(refusal.description.hasPrefix(#"the main list: trackers["big.example"]"#), "\(refusal)")
        #expect(refusal.description.contains("8000 bytes"), "\(refusal)")
        // With the default budget, the same input builds.
        #expect(RuleListBuilder(trackerData: trackerData).build().refusal == nil)
    }

    @Test("the configuration's rules alone over the budget are refused, naming their parts")
    func refusesConfigurationOverBudget() throws {
        let sites = (0..<300).map { #"{"domain": "site\#($0).example"}"# }.joined(separator: ",")
        let configuration = try PrivacyConfiguration(parsing: Array(
            #"{"unprotectedTemporary": [\#(sites)], "features": {"contentBlocking": {"state": "enabled"}}}"#.utf8))
        let settings = RuleListBuilder.Settings(maximumBytesPerList: 3_000)
        let build = RuleListBuilder(trackerData: try Self.trackers(2), configuration: configuration, settings: settings).build()
        let refusal = try #require(build.refusal)
        guard case .partExceedsByteBudget(let list, let part, _, _) = refusal else {
            Issue.record("\(refusal)")
            return
        }
        #expect(list == "main list")
        #expect(part.contains("unprotectedTemporary"), "\(part)")
    }
}

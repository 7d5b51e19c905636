import ContentRuleList
@testable import RuleBuilder
import Testing
import TrackerDataKit

/// Each list stays within its target's byte budget as well as its rule limit: sections are packed
/// by both, every list still ends with the configuration's rules, a part no split can make
/// smaller is refused naming its list, and the report says how close each list is to both.
@Suite("Rule lists within a byte budget")
struct ByteBudgetTests {
    /// `count` trackers `t0.example`, … each with `rules` rules, blocked by default. The rules
    /// name a subdomain (`cdn.t0.example`), so that with the host-end layout each tracker's block
    /// moves: an exception of the tracker's own host would keep its automaton, and its block.
    static func trackers(_ count: Int, rules: Int = 3) throws -> TrackerData {
        let entries = (0..<count).map { index in
            let ruleList = (0..<rules).map { #"{"rule": "cdn\\.t\#(index)\\.example/path\#($0)/", "action": "ignore"}"# }
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

    /// Where the target takes the host-end layout (``HostEndLayout/isUsed(for:)``) each list also
    /// holds its fix-up once, and each tracker's block is four rules: the budgets count both.
    @Test(
        "a budget smaller than the rules splits them into lists each within it, each ending with the configuration's rules",
        arguments: [WebKitTarget.oldest, .webKitGTK2_50])
    func splitsByBytes(target: WebKitTarget) throws {
        let trackerData = try Self.trackers(60)
        let whole = RuleListBuilder(trackerData: trackerData, configuration: try Self.configuration(), settings: .init(target: target)).build()
        try #require(whole.ruleLists.count == 1 && whole.refusal == nil)
        let wholeBytes = whole.ruleLists[0].encoded().count
        let budget = wholeBytes / 4
        let settings = RuleListBuilder.Settings(target: target, maximumBytesPerList: budget)
        let split = RuleListBuilder(trackerData: trackerData, configuration: try Self.configuration(), settings: settings).build()
        #expect(split.refusal == nil)
        #expect(split.ruleLists.count >= 4 && split.ruleLists.count <= 6, "\(split.ruleLists.count) lists")
        // Each list repeats the configuration's rules and, with the layout, its fix-up: T + n ×
        // repeated rules in n lists, T + repeated in one.
        let fixUp = HostEndLayout.passwordFixUp
        let fixUps = HostEndLayout.isUsed(for: target) ? 1 : 0
        let total = split.ruleLists.reduce(0) { $0 + $1.rules.count }
        let repeatedCount = (total - whole.ruleCount) / (split.ruleLists.count - 1)
        try #require((total - whole.ruleCount) % (split.ruleLists.count - 1) == 0)
        let tailCount = repeatedCount - fixUps
        #expect(tailCount >= 2)
        let tail = Array(whole.ruleLists[0].rules.suffix(tailCount))
        for list in split.ruleLists {
            #expect(list.encoded().count <= budget)
            // The unprotected site's exception and the navigations' rule end every list; the
            // fix-up, with the layout, is in each once, after the blocks moved first.
            #expect(Array(list.rules.suffix(tailCount)) == tail)
            #expect(list.rules.filter { $0 == fixUp }.count == fixUps)
        }
        // The trackers' rules, each once: in their order, or with the layout in each list's
        // order of its own, a tracker's four block rules in one list.
        func trackerRules(_ list: RuleList) -> [ContentRule] { list.rules.dropLast(tailCount).filter { $0 != fixUp } }
        func counts(_ rules: [ContentRule]) -> [ContentRule: Int] { rules.reduce(into: [:]) { $0[$1, default: 0] += 1 } }
        let splitRules = split.ruleLists.flatMap(trackerRules)
        #expect(splitRules.count == whole.ruleCount - repeatedCount)
        if fixUps == 0 {
            #expect(splitRules == trackerRules(whole.ruleLists[0]))
        } else {
            #expect(counts(splitRules) == counts(trackerRules(whole.ruleLists[0])))
            for index in 0..<60 {
                let host = "t\(index)\\.example"
                let holding = split.ruleLists.filter { list in list.rules.contains { $0.trigger.urlFilter.contains(host + "[:/]") } }
                #expect(holding.count == 1, "t\(index).example's moved blocks in \(holding.count) lists")
                #expect(holding.first?.rules.filter { $0.action == .block && $0.trigger.urlFilter.contains(host + "\\.[:/]") }.count == 2)
            }
        }
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

import ContentRuleList

/// Parsing and validating rule lists as WebKit does (`RuleList(parsing:)`), on DuckDuckGo's list
/// and on ours.
struct RuleListParsingBenchmark: Sendable {
    /// Parsing DuckDuckGo's list.
    let duckDuckGo: Samples
    /// Rules WebKit keeps from DuckDuckGo's list.
    let duckDuckGoRuleCount: Int
    /// Parsing our list (default settings; every list when there are several).
    let ours: Samples
    /// Rules in our list.
    let ourRuleCount: Int

    /// Parses each list `runs` times after a warm-up.
    static func measure(duckDuckGoRules: [UInt8], ourLists: [[UInt8]], runs: Int) throws(BenchmarkError) -> RuleListParsingBenchmark {
        let (duckDuckGo, duckDuckGoCount) = try parse([duckDuckGoRules], name: "DuckDuckGo's rule list", runs: runs)
        let (ours, ourCount) = try parse(ourLists, name: "our rule list", runs: runs)
        return RuleListParsingBenchmark(
            duckDuckGo: duckDuckGo, duckDuckGoRuleCount: duckDuckGoCount, ours: ours, ourRuleCount: ourCount)
    }

    private static func parse(_ lists: [[UInt8]], name: String, runs: Int) throws(BenchmarkError) -> (Samples, Int) {
        do throws(RuleListError) {
            return try Samples.measure(runs: runs) { () throws(RuleListError) in
                var count = 0
                for json in lists { count += try RuleList(parsing: json).rules.count }
                return count
            }
        } catch {
            throw .invalidInput(path: name, detail: "\(error)")
        }
    }
}

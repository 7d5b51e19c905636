import ContentRuleList
import RuleEngineKit

/// How the engine scales with the list: synthetic lists of 1k to 150k rules shaped like the
/// builder's real output, each compiled and measured on requests that mix hits and misses.
/// Decision time should stay nearly flat as the list grows.
struct ScalingBenchmark: Sendable {
    /// One list size's figures.
    struct Size: Sendable {
        /// Rules in the list.
        let ruleCount: Int
        /// Its JSON size, in bytes.
        let byteCount: Int
        /// `RuleEngine(ruleLists:)`, in milliseconds.
        let compile: Samples
        /// From the list's JSON as a host hands it over: `RuleList(parsing:)`, then
        /// `RuleEngine(ruleLists:)`, in milliseconds; what WebKit's compile of the same JSON does.
        let compileFromJSON: Samples
        /// `engine.memoryFootprint`, in bytes.
        let memoryFootprint: Int
        /// `engine.compiled().count`, in bytes.
        let compiledByteCount: Int
        /// Decisions with one page cache reused over each page's requests.
        let reusedCache: EngineBenchmark.Latencies
        /// Decisions with a fresh page cache per request.
        let freshCache: EngineBenchmark.Latencies
    }

    /// The default sizes: from 1,000 rules to WebKit's limit.
    static let defaultSizes = [1_000, 10_000, 50_000, RuleList.maximumRuleCount]
    /// Requests decided per size: pages of ``requestsPerPage`` requests.
    static let requestCount = 4_000
    /// Requests made from one page in a row.
    static let requestsPerPage = 20

    /// The figures, smallest list first.
    let sizes: [Size]
    /// The largest list's JSON, for WebKit.
    let largestListJSON: [UInt8]
    /// A hosts-only list as long as the largest (``SyntheticRuleList`` with `hostsOnly`): its
    /// JSON, for WebKit, and our compile from that JSON.
    let hostsOnly: (ruleCount: Int, json: [UInt8], compileFromJSON: Samples)?

    /// Builds, compiles and measures a list of each size in `ruleCounts`.
    static func measure(ruleCounts: [Int], runs: Int, passes: Int, progress: (String) -> Void) throws(BenchmarkError) -> ScalingBenchmark {
        var sizes: [Size] = []
        var largest: [UInt8] = []
        for count in ruleCounts.sorted() {
            progress("   \(Formatting.grouped(count)) rules")
            var list = SyntheticRuleList(ruleCount: count, seed: 0x7472_6163_6b65_726c)
            let json = list.ruleList.encoded()
            let (compile, engine) = try Samples.measure(runs: runs) { () throws(BenchmarkError) in
                try EngineBenchmark.compiledEngine([list.ruleList])
            }
            let (compileFromJSON, _) = try Samples.measure(runs: runs) { () throws(BenchmarkError) in
                try EngineBenchmark.compiledEngine([try parsed(json)])
            }
            let requests = list.requests(count: requestCount, perPage: requestsPerPage)
            var cache = RuleEngine.PageCache()
            let reused = EngineBenchmark.Latencies.measure(requests: requests, passes: passes) { engine.decision(for: $0, cache: &cache).isBlocked }
            let fresh = EngineBenchmark.Latencies.measure(requests: requests, passes: passes) { engine.decision(for: $0).isBlocked }
            sizes.append(Size(
                ruleCount: list.ruleList.rules.count, byteCount: json.count, compile: compile, compileFromJSON: compileFromJSON,
                memoryFootprint: engine.memoryFootprint, compiledByteCount: engine.compiled().count,
                reusedCache: reused, freshCache: fresh))
            largest = json
        }
        var hostsOnly: (ruleCount: Int, json: [UInt8], compileFromJSON: Samples)?
        if let count = ruleCounts.max() {
            progress("   \(Formatting.grouped(count)) host rules")
            let json = SyntheticRuleList(ruleCount: count, seed: 0x686f_7374_7320_6f6e, hostsOnly: true).ruleList.encoded()
            let (compileFromJSON, _) = try Samples.measure(runs: runs) { () throws(BenchmarkError) in
                try EngineBenchmark.compiledEngine([try parsed(json)])
            }
            hostsOnly = (count, json, compileFromJSON)
        }
        return ScalingBenchmark(sizes: sizes, largestListJSON: largest, hostsOnly: hostsOnly)
    }

    /// The rule list of `json`.
    private static func parsed(_ json: [UInt8]) throws(BenchmarkError) -> RuleList {
        do throws(RuleListError) {
            return try RuleList(parsing: json)
        } catch {
            throw .invalidInput(path: "the synthetic rule list", detail: "\(error)")
        }
    }

    /// The largest list's reused-cache median over the smallest's: 1 is perfectly flat.
    var decisionGrowth: Double? {
        guard let first = sizes.first, let last = sizes.last, sizes.count > 1, first.reusedCache.median > 0 else { return nil }
        return last.reusedCache.median / first.reusedCache.median
    }
}

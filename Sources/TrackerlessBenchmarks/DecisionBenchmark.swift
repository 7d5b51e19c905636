import ContentRuleList
import TrackerDataKit

/// Throughput of the two deciders over the same requests on one site: the Tracker Radar resolver
/// (the meaning) and the reference evaluator on a rule list (WebKit's semantics, written for
/// clarity rather than speed). Informative only: WebKit itself matches with compiled DFAs.
struct DecisionBenchmark: Sendable {
    /// One decider's figures.
    struct Throughput: Sendable {
        /// What decided.
        let name: String
        /// One pass over every request, per pass.
        let passes: Samples
        /// Requests per pass.
        let requestCount: Int
        /// Requests blocked in a pass (a check that the decider did real work).
        let blockedCount: Int

        /// Median nanoseconds per decision.
        var medianNanoseconds: Double { requestCount == 0 ? 0 : passes.median * 1e6 / Double(requestCount) }
        /// Fastest pass, in nanoseconds per decision.
        var minimumNanoseconds: Double { requestCount == 0 ? 0 : passes.minimum * 1e6 / Double(requestCount) }
    }

    /// The page every request is made from.
    static let site = "https://www.example.com/"

    /// The resolver, the evaluator on our list, and the evaluator on DuckDuckGo's list.
    let deciders: [Throughput]

    /// Decides every request `runs` times after a warm-up pass, with each decider.
    static func measure(
        requests: [RequestSample], trackerData: TrackerData, ourLists: [[UInt8]], duckDuckGoRules: [UInt8], runs: Int
    ) throws(BenchmarkError) -> DecisionBenchmark {
        let resolver = TrackerResolver(trackerData: trackerData)
        let resolved = Samples.measure(runs: runs) {
            requests.count { resolver.decision(forRequestURL: $0.url, topURL: site, type: $0.requestType)?.isBlocked == true }
        }
        let loads = requests.map { Request(url: $0.url, topURL: site, resourceType: $0.resourceType) }
        var deciders = [Throughput(name: "resolver (tds.json)", passes: resolved.0, requestCount: requests.count, blockedCount: resolved.1)]
        for (name, lists) in [("evaluator, our list", ourLists), ("evaluator, DuckDuckGo's list", [duckDuckGoRules])] {
            let evaluator = try evaluator(for: lists, name: name)
            let evaluated = Samples.measure(runs: runs) { loads.count { evaluator.actions(for: $0).isBlocked } }
            deciders.append(Throughput(name: name, passes: evaluated.0, requestCount: loads.count, blockedCount: evaluated.1))
        }
        return DecisionBenchmark(deciders: deciders)
    }

    private static func evaluator(for lists: [[UInt8]], name: String) throws(BenchmarkError) -> ReferenceEvaluator {
        do throws(RuleListError) {
            var parsed: [RuleList] = []
            for json in lists { parsed.append(try RuleList(parsing: json)) }
            return try ReferenceEvaluator(ruleLists: parsed)
        } catch {
            throw .invalidInput(path: name, detail: "\(error)")
        }
    }
}

import ContentRuleList
import Foundation
import RuleBuilder
import RuleEngineKit
import TrackerDataKit
import TrackerlessCore

/// What naming the applied rules costs: the rule engine on the lists built
/// from the tds, over adblock-rust's 8,276 labelled request URLs, each decided once a pass from
/// each of ``ResolverBenchmark/sites`` in turn, with one page cache. Three ways, passes
/// interleaved so that the machine's load falls on all alike:
/// - `decision(for:cache:)`, the decision a host makes on every request (nobody asks why);
/// - `decision(for:cache:).appliedActions`, every action without its rule;
/// - `actions(for:cache:)`, every action with its list and rule index.
///
/// Times are thread CPU time; the median of the runs is the figure, and the ratios are taken in
/// the same run. Run with `TrackerlessBenchmarks --engine-attribution-only [--tds FILE] [--requests FILE]
/// [--runs N] [--json]`.
struct EngineAttributionBenchmark: Sendable {
    let trackerDataPath: String
    let runs: Int
    let requestCount: Int
    let ruleCount: Int
    let listCount: Int
    // Nanoseconds a request in `Samples.milliseconds`.
    /// `decision(for:cache:)`, the figure that must not move.
    let decision: Samples
    /// `decision(for:cache:).appliedActions`.
    let appliedActions: Samples
    /// `actions(for:cache:)`: every action with its rule.
    let namedActions: Samples
    /// Requests blocked in a pass, and actions named in a pass (checks that the work was done).
    let blockedCount: Int
    let namedCount: Int

    /// `decisionsOnly`: every pass decides only, as the engine before attribution could (the
    /// same loop, so that its figure compares with that engine's across builds).
    static func measure(options: BenchmarkOptions, decisionsOnly: Bool = false) throws(BenchmarkError) -> EngineAttributionBenchmark {
        let inputs = try BenchmarkInputs(options: options)
        let trackerDataPath = options.trackerDataPath, runs = options.runs
        let trackerData = inputs.trackerData, samples = inputs.requests
        let build = RuleListBuilder(trackerData: trackerData).build()
        let engine: RuleEngine
        do throws(RuleListError) {
            engine = try RuleEngine(ruleLists: build.ruleLists)
        } catch {
            throw .invalidInput(path: trackerDataPath, detail: "the built lists: \(error)")
        }
        let sites = ResolverBenchmark.sites
        let requests = samples.enumerated().map { index, sample in
            Request(url: sample.url, topURL: sites[index % sites.count], resourceType: sample.resourceType)
        }
        var cache = RuleEngine.PageCache()
        var blocked = 0, named = 0
        var decisionPasses: [Double] = [], appliedPasses: [Double] = [], namedPasses: [Double] = []
        // One warm-up pass of each, then the runs, interleaved.
        for pass in 0...runs {
            let decision = ResolverBenchmark.nanosecondsPerCall(runs: 1, count: requests.count) { index in
                engine.decision(for: requests[index], cache: &cache).isBlocked
            }
            let applied = ResolverBenchmark.nanosecondsPerCall(runs: 1, count: requests.count) { index in
                decisionsOnly
                    ? engine.decision(for: requests[index], cache: &cache).isBlocked
                    : engine.decision(for: requests[index], cache: &cache).appliedActions.isBlocked
            }
            let withRules = ResolverBenchmark.nanosecondsPerCall(runs: 1, count: requests.count) { index in
                decisionsOnly
                    ? engine.decision(for: requests[index], cache: &cache).isBlocked
                    : engine.actions(for: requests[index], cache: &cache).isBlocked
            }
            guard pass > 0 else { continue }
            decisionPasses += decision.milliseconds
            appliedPasses += applied.milliseconds
            namedPasses += withRules.milliseconds
        }
        for request in requests {
            let actions = engine.actions(for: request, cache: &cache)
            if actions.isBlocked { blocked += 1 }
            named += actions.lists.reduce(0) { $0 + $1.ruleIndices.count }
        }
        return EngineAttributionBenchmark(
            trackerDataPath: trackerDataPath, runs: runs, requestCount: requests.count, ruleCount: build.ruleCount,
            listCount: build.ruleLists.count, decision: Samples(milliseconds: decisionPasses),
            appliedActions: Samples(milliseconds: appliedPasses), namedActions: Samples(milliseconds: namedPasses),
            blockedCount: blocked, namedCount: named)
    }

    /// The entry point of `--engine-attribution-only`: `[--decisions-only] [--tds FILE] [--requests FILE]
    /// [--runs N] [--json]` (default 15 runs); the other inputs' defaults are read too
    /// (BenchmarkInputs).
    static func run(arguments: [String]) throws(BenchmarkError) -> String {
        let decisionsOnly = arguments.first == "--decisions-only"
        let rest = decisionsOnly ? Array(arguments.dropFirst()) : arguments
        let withRuns = rest.contains("--runs") ? rest : rest + ["--runs", "15"]
        let options = try BenchmarkOptions(arguments: withRuns, packageRoot: BenchmarkOptions.packageRoot())
        let report = try measure(options: options, decisionsOnly: decisionsOnly)
        return options.printsJSON ? report.json : report.table
    }

    /// A median over the decision's median, in the same run.
    private func ratio(_ samples: Samples) -> Double {
        decision.median > 0 ? samples.median / decision.median : 0
    }

    /// The figures as a table.
    var table: String {
        func nanoseconds(_ samples: Samples) -> String {
            "\(Formatting.grouped(Int(samples.median.rounded()))) ns (best \(Formatting.grouped(Int(samples.minimum.rounded()))))"
        }
        return """
            Rule engine, naming the applied rules: \(URL(fileURLWithPath: trackerDataPath).lastPathComponent), \
            \(Formatting.grouped(ruleCount)) rules in \(listCount) list(s), \(Formatting.grouped(requestCount)) request URLs \
            from \(ResolverBenchmark.sites.count) sites in turn (\(Formatting.grouped(blockedCount)) blocked, \
            \(Formatting.grouped(namedCount)) actions named), \(runs) runs, thread CPU time, median a request
              decision(for:cache:) (nobody asks why):   \(nanoseconds(decision))
              decision(...).appliedActions:             \(nanoseconds(appliedActions)); \(Formatting.decimal(ratio(appliedActions), digits: 2))x the decision
              actions(for:cache:) (each action's rule): \(nanoseconds(namedActions)); \(Formatting.decimal(ratio(namedActions), digits: 2))x the decision

            """
    }

    /// The figures as one JSON object.
    var json: String {
        JSONValue.object(JSONObject([
            ("tds", .string(trackerDataPath)), ("runs", .number(Double(runs))), ("requests", .number(Double(requestCount))),
            ("decision_ns_median", .number(decision.median.rounded())),
            ("applied_actions_ns_median", .number(appliedActions.median.rounded())),
            ("named_actions_ns_median", .number(namedActions.median.rounded())),
            ("named_over_decision", .number(ratio(namedActions))),
        ])).jsonString() + "\n"
    }
}

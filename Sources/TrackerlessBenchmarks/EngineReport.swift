import ContentRuleList
import Foundation
import RuleBuilder

/// The rule engine's figures with their peers, measured in one run: our engine on the
/// apple-tds list, adblock-rust on the same blocklist and requests, WebKitGTK compiling the same
/// list and the largest synthetic one, and the engine on synthetic lists of growing size.
struct EngineReport: Sendable {
    /// The options the run used.
    let options: BenchmarkOptions
    /// Load averages when the engine sections started and ended.
    let loadBefore: LoadAverage?, loadAfter: LoadAverage?
    /// 5. Our engine on the apple-tds list.
    let engine: EngineBenchmark
    /// 5. adblock-rust on the same blocklist and requests.
    let peer: AdblockRustPeer
    /// 6. Our engine compiling DuckDuckGo's own rule list for the same tds.json, in milliseconds.
    let duckDuckGoCompile: Samples
    /// Rules in DuckDuckGo's list.
    let duckDuckGoRuleCount: Int
    /// 6. WebKitGTK compiling the apple-tds list, DuckDuckGo's and the largest synthetic list.
    let webKit: WebKitCompileBenchmark
    /// 7. Synthetic lists of growing size; nil with `--scaling-sizes none`.
    let scaling: ScalingBenchmark?

    /// The name of the apple-tds list in the WebKit figures.
    static let trackerListName = "apple-tds"
    /// The name of DuckDuckGo's list in the WebKit figures.
    static let duckDuckGoListName = "DuckDuckGo's"
    /// The name of the largest synthetic list in the WebKit figures.
    static let syntheticListName = "synthetic"
    /// The name of the hosts-only synthetic list in the WebKit figures.
    static let hostsOnlyListName = "synthetic, hosts only"

    // The goals BENCHMARKS.md states.
    /// Median decision on the apple-tds list, page cache reused.
    static let decisionGoalNanoseconds = 500.0
    /// adblock-rust's net median over ours, at least.
    static let peerRatioGoal = 5.0
    /// WebKitGTK's compile time for the apple-tds list over ours, at least.
    static let webKitRatioGoal = 20.0
    /// Our compile time for a 150,000-rule list, at most.
    static let largestCompileGoalMilliseconds = 1_000.0
    /// The compiled apple-tds engine's memory, at most (MB = 10^6 bytes).
    static let memoryGoalBytes = 4_000_000
    /// Reading and loading the compiled apple-tds engine, at most.
    static let loadGoalMilliseconds = 5.0

    /// Runs the engine sections.
    static func measure(options: BenchmarkOptions, inputs: BenchmarkInputs, progress: (String) -> Void) throws(BenchmarkError) -> EngineReport {
        let loadBefore = LoadAverage.current()
        progress("5. rule engine on the apple-tds list, \(options.runs) compilations, \(options.passes) passes over \(Formatting.grouped(inputs.requests.count)) requests")
        let build = RuleListBuilder(trackerData: inputs.trackerData).build()
        let engine = try EngineBenchmark.measure(ruleLists: build.ruleLists, samples: inputs.requests, runs: options.runs, passes: options.passes)
        let duckDuckGoList: RuleList
        do throws(RuleListError) {
            duckDuckGoList = try RuleList(parsing: inputs.duckDuckGoRules)
        } catch {
            throw .invalidInput(path: options.duckDuckGoRulesPath, detail: "\(error)")
        }
        let (duckDuckGoCompile, _) = try Samples.measure(runs: options.runs) { () throws(BenchmarkError) in
            try EngineBenchmark.compiledEngine([duckDuckGoList])
        }
        progress("   adblock-rust peer (\(options.peerPythonPath))")
        let peer = AdblockRustPeer.measure(
            interpreter: options.peerPythonPath, script: options.peerScriptPath, trackerDataPath: options.trackerDataPath,
            requestsPath: options.requestsPath, passes: options.passes)
        var scaling: ScalingBenchmark?
        if !options.scalingSizes.isEmpty {
            let runs = min(options.runs, 5)
            progress("7. scaling (its largest list is also compiled by WebKit in 6), \(runs) compilations per size")
            scaling = try ScalingBenchmark.measure(ruleCounts: options.scalingSizes, runs: runs, passes: options.passes, progress: progress)
        }
        progress("6. WebKit compile of the engine's lists, \(options.webKitRuns) runs")
        var lists = [
            (name: trackerListName, json: build.ruleLists.first?.encoded() ?? [], ruleCount: build.ruleCount),
            (name: duckDuckGoListName, json: inputs.duckDuckGoRules, ruleCount: duckDuckGoList.rules.count),
        ]
        if let scaling, let largest = scaling.sizes.last {
            lists.append((syntheticListName, scaling.largestListJSON, largest.ruleCount))
        }
        if let hostsOnly = scaling?.hostsOnly {
            lists.append((hostsOnlyListName, hostsOnly.json, hostsOnly.ruleCount))
        }
        let webKit = WebKitCompileBenchmark.measure(lists: lists, harness: CompileHarness(scriptPath: options.harnessPath), runs: options.webKitRuns)
        return EngineReport(
            options: options, loadBefore: loadBefore, loadAfter: LoadAverage.current(),
            engine: engine, peer: peer, duckDuckGoCompile: duckDuckGoCompile, duckDuckGoRuleCount: duckDuckGoList.rules.count,
            webKit: webKit, scaling: scaling)
    }

    /// adblock-rust's net median over ours (reused page cache): how many times faster we are.
    var peerRatio: Double? { peerRatio(ours: engine.reusedCache.netMedian) }

    /// adblock-rust's net median over ours with a fresh page cache per request.
    var peerRatioFreshCache: Double? { peerRatio(ours: engine.freshCache.netMedian) }

    private func peerRatio(ours: Double) -> Double? {
        guard let figures = peer.figures, ours > 0 else { return nil }
        return figures.netMedianNanoseconds / ours
    }

    /// The largest synthetic list compiled from its JSON, at most this share of WebKit's time for
    /// the same JSON.
    static let fromJSONShareGoal = 0.1

    /// WebKit's median compile time for the synthetic list `name` over ours from its JSON (parse
    /// and compile, as WebKit does): the largest builder-shaped list, or the hosts-only one.
    func webKitRatioFromJSON(_ name: String) -> Double? {
        let ours = name == Self.hostsOnlyListName ? scaling?.hostsOnly?.compileFromJSON.median : scaling?.sizes.last?.compileFromJSON.median
        guard let webKitList = webKit.lists.first(where: { $0.name == name }), webKitList.samples.median > 0,
              let ours, ours > 0
        else { return nil }
        return webKitList.samples.median / ours
    }

    /// WebKit's median compile time for the list named `name` over ours: how many times faster we are.
    func webKitRatio(_ name: String) -> Double? {
        guard let webKitList = webKit.lists.first(where: { $0.name == name }), webKitList.samples.median > 0 else { return nil }
        let ours: Double?
        switch name {
        case Self.trackerListName: ours = engine.compile.median
        case Self.duckDuckGoListName: ours = duckDuckGoCompile.median
        default: ours = scaling?.sizes.last?.compile.median
        }
        guard let ours, ours > 0 else { return nil }
        return webKitList.samples.median / ours
    }
}

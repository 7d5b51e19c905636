/// Everything one benchmark run measured, with the conditions it ran in.
struct BenchmarkReport: Sendable {
    /// The options the run used.
    let options: BenchmarkOptions
    /// Load averages when the run started and ended.
    let loadBefore: LoadAverage?, loadAfter: LoadAverage?
    /// Rules WebKit keeps from DuckDuckGo's list, and its size.
    let duckDuckGoRuleCount: Int, duckDuckGoByteCount: Int
    /// 1. The generation pipeline with the default settings.
    let pipeline: PipelineBenchmark
    /// 1. The builder's output shapes.
    let variants: [RuleListVariant]
    /// 2. WebKit's compile times.
    let webKit: WebKitCompileBenchmark
    /// 3. Parsing and validating rule lists.
    let parsing: RuleListParsingBenchmark
    /// 4. Decisions per request.
    let decisions: DecisionBenchmark
    /// 5-7. The rule engine, its peers and its scaling.
    let engine: EngineReport

    /// Whether this is an optimised build; debug figures mean nothing.
    static var isReleaseBuild: Bool {
        #if DEBUG
        return false
        #else
        return true
        #endif
    }

    /// Our pipeline's median total over the quoted peer total.
    var pipelineRatioToPeer: Double { pipeline.stages.total.median / QuotedPeerFigures.totalMilliseconds }

    /// Each variant's median WebKit compile time over DuckDuckGo's, in the same run.
    var webKitRatios: [(name: String, ratio: Double)] {
        guard let duckDuckGo = webKit.duckDuckGo, duckDuckGo.samples.median > 0 else { return [] }
        return webKit.lists.filter { $0.name != WebKitCompileBenchmark.duckDuckGoName }.map {
            ($0.name, $0.samples.median / duckDuckGo.samples.median)
        }
    }

    /// The WebKit compile-time goal for our default list, as a fraction of DuckDuckGo's.
    static let webKitGoal = 0.25
}

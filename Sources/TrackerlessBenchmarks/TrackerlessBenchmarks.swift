import ContentRuleList
import Foundation
import TrackerlessCore

/// `TrackerlessBenchmarks`: how fast the tds.json -> WebKit rule list pipeline is, how long WebKit
/// takes to compile our list next to DuckDuckGo's, how fast rule lists parse and decide, and how
/// the rule engine compares with adblock-rust and WebKit and scales with the list.
///
/// Progress goes to standard error; the table (or JSON with `--json`) to standard output.
@main
struct TrackerlessBenchmarks {
    static func main() {
        do {
            // Firefox's lists alone: `--firefox-only [--runs N] [--json]`.
            if CommandLine.arguments.dropFirst().first == "--firefox-only" {
                let text = try FirefoxListsBenchmark.run(arguments: Array(CommandLine.arguments.dropFirst(2)))
                FileHandle.standardOutput.write(Data(text.utf8))
                return
            }
            // The user scripts alone: `--scripts-only [--tds FILE] [--runs N] [--json]`.
            if CommandLine.arguments.dropFirst().first == "--scripts-only" {
                let text = try ScriptRenderBenchmark.run(arguments: Array(CommandLine.arguments.dropFirst(2)))
                FileHandle.standardOutput.write(Data(text.utf8))
                return
            }
            // The privacy statistics alone: `--stats-only [--tds FILE] [--requests FILE] [--runs N] [--json]`.
            if CommandLine.arguments.dropFirst().first == "--stats-only" {
                let text = try StatsBenchmark.run(arguments: Array(CommandLine.arguments.dropFirst(2)))
                FileHandle.standardOutput.write(Data(text.utf8))
                return
            }
            // The runtime alone: `--runtime-only [--tds FILE] [--runs N]`.
            if CommandLine.arguments.dropFirst().first == "--runtime-only" {
                let text = try RuntimeBenchmark.run(arguments: Array(CommandLine.arguments.dropFirst(2)))
                FileHandle.standardOutput.write(Data(text.utf8))
                return
            }
            // A web process's start: `--web-process-start-only [--tds FILE] [--privacy-config FILE] [--runs N]`.
            if CommandLine.arguments.dropFirst().first == "--web-process-start-only" {
                let text = try WebProcessStartBenchmark.run(arguments: Array(CommandLine.arguments.dropFirst(2)))
                FileHandle.standardOutput.write(Data(text.utf8))
                return
            }
            // One 50,000-character url-filter: `--long-filter-only [--runs N]`.
            if CommandLine.arguments.dropFirst().first == "--long-filter-only" {
                let text = try LongFilterBenchmark.run(arguments: Array(CommandLine.arguments.dropFirst(2)))
                FileHandle.standardOutput.write(Data(text.utf8))
                return
            }
            // The C API: `--capi-only [--tds FILE] [--requests FILE] [--runs N]`.
            if CommandLine.arguments.dropFirst().first == "--capi-only" {
                let text = try CAPIBenchmark.run(arguments: Array(CommandLine.arguments.dropFirst(2)))
                FileHandle.standardOutput.write(Data(text.utf8))
                return
            }
            // Both blocklists' list sizes and build times: `--list-sizes-only [--runs N] [--tds FILE] [--extension-tds FILE]`.
            if CommandLine.arguments.dropFirst().first == "--list-sizes-only" {
                let text = try ListSizeBenchmark.run(arguments: Array(CommandLine.arguments.dropFirst(2)))
                FileHandle.standardOutput.write(Data(text.utf8))
                return
            }
            // The whole build's time and peak memory per tracker at 1×, 10×, 100× apple-tds:
            // `--build-scaling-only [--factors 1,10,100] [--tds FILE]`; each size in a child
            // (`--build-scaling-child FILE`).
            if CommandLine.arguments.dropFirst().first == "--build-scaling-only" {
                let text = try BuildScalingBenchmark.run(arguments: Array(CommandLine.arguments.dropFirst(2)))
                FileHandle.standardOutput.write(Data(text.utf8))
                return
            }
            // The configuration's rules at 0×, 1×, 10×, 100×: `--configuration-scaling-only
            // [--factors 0,1,10,100] [--tds FILE]`, each size in the same child.
            if CommandLine.arguments.dropFirst().first == "--configuration-scaling-only" {
                let text = try ConfigurationScalingBenchmark.run(arguments: Array(CommandLine.arguments.dropFirst(2)))
                FileHandle.standardOutput.write(Data(text.utf8))
                return
            }
            if CommandLine.arguments.dropFirst().first == "--build-scaling-child", (3...4).contains(CommandLine.arguments.count) {
                let text = try BuildScalingBenchmark.runChild(
                    file: CommandLine.arguments[2], configurationFile: CommandLine.arguments.count == 4 ? CommandLine.arguments[3] : nil)
                FileHandle.standardOutput.write(Data(text.utf8))
                return
            }
            // The tracker resolver alone: `--resolver-only [--tds FILE] [--requests FILE] [--runs N] [--json]`.
            if CommandLine.arguments.dropFirst().first == "--resolver-only" {
                let text = try ResolverBenchmark.run(arguments: Array(CommandLine.arguments.dropFirst(2)))
                FileHandle.standardOutput.write(Data(text.utf8))
                return
            }
            // What naming the applied rules costs the engine:
            // `--engine-attribution-only [--tds FILE] [--requests FILE] [--runs N] [--json]`.
            if CommandLine.arguments.dropFirst().first == "--engine-attribution-only" {
                let text = try EngineAttributionBenchmark.run(arguments: Array(CommandLine.arguments.dropFirst(2)))
                FileHandle.standardOutput.write(Data(text.utf8))
                return
            }
            // What asking a resolver decision why costs:
            // `--resolver-attribution-only [--tds FILE] [--requests FILE] [--runs N]`.
            if CommandLine.arguments.dropFirst().first == "--resolver-attribution-only" {
                let text = try ResolverAttributionBenchmark.run(arguments: Array(CommandLine.arguments.dropFirst(2)))
                FileHandle.standardOutput.write(Data(text.utf8))
                return
            }
            let options = try BenchmarkOptions(arguments: Array(CommandLine.arguments.dropFirst()), packageRoot: BenchmarkOptions.packageRoot())
            if options.webKitCompileOnly {
                let report = try WebKitVersionsCompileBenchmark.measure(options: options)
                FileHandle.standardOutput.write(Data(report.table(options: options).utf8))
            } else if options.pipelineOnly {
                FileHandle.standardOutput.write(Data(try PipelineBenchmark.report(options: options).utf8))
            } else if options.hostFilterOnly {
                let inputs = try BenchmarkInputs(options: options)
                let report = try HostFilterBenchmark.measure(
                    trackerData: inputs.trackerData, trackerDataPath: options.trackerDataPath, samples: inputs.requests,
                    passes: options.passes)
                FileHandle.standardOutput.write(Data(report.table.utf8))
            } else if options.bloomOnly {
                let report = BloomFilterBenchmark.measure(trackerDataPath: options.trackerDataPath, runs: options.runs, progress: progress)
                FileHandle.standardOutput.write(Data((options.printsJSON ? report.json.jsonString() + "\n" : report.table).utf8))
            } else if options.engineOnly {
                let report = try EngineReport.measure(options: options, inputs: BenchmarkInputs(options: options), progress: progress)
                FileHandle.standardOutput.write(Data((options.printsJSON ? report.json.jsonString() + "\n" : report.table).utf8))
            } else {
                let report = try run(options)
                FileHandle.standardOutput.write(Data((options.printsJSON ? report.json.jsonString() + "\n" : report.table).utf8))
            }
        } catch .help(let text) {
            FileHandle.standardOutput.write(Data((text + "\n").utf8))
        } catch .usage(let text) {
            FileHandle.standardError.write(Data((text + "\n").utf8))
            exit(2)
        } catch {
            FileHandle.standardError.write(Data("TrackerlessBenchmarks: \(error)\n".utf8))
            exit(1)
        }
    }

    /// Runs every benchmark in order.
    static func run(_ options: BenchmarkOptions) throws(BenchmarkError) -> BenchmarkReport {
        let loadBefore = LoadAverage.current()
        progress("reading inputs")
        let inputs = try BenchmarkInputs(options: options)
        let duckDuckGoRuleCount = try ruleCount(of: inputs.duckDuckGoRules, path: options.duckDuckGoRulesPath)
        progress("1. generation pipeline, \(options.runs) runs")
        let pipeline = try PipelineBenchmark.measure(trackerDataPath: options.trackerDataPath, runs: options.runs)
        let variants = RuleListVariant.compared.map { variant in
            progress("   builder settings: \(variant.name)")
            return RuleListVariant.measure(name: variant.name, settings: variant.settings, trackerData: inputs.trackerData, runs: options.runs)
        }
        progress("2. WebKit compile, \(options.webKitRuns) runs of \(variants.count + 1) lists")
        let webKit = WebKitCompileBenchmark.measure(
            duckDuckGoPath: options.duckDuckGoRulesPath, duckDuckGoRuleCount: duckDuckGoRuleCount,
            duckDuckGoByteCount: inputs.duckDuckGoRules.count, variants: variants,
            harness: CompileHarness(scriptPath: options.harnessPath), runs: options.webKitRuns)
        let ourLists = variants.first?.encodedLists ?? []
        progress("3. parsing rule lists")
        let parsing = try RuleListParsingBenchmark.measure(duckDuckGoRules: inputs.duckDuckGoRules, ourLists: ourLists, runs: options.runs)
        progress("4. decisions")
        let decisions = try DecisionBenchmark.measure(
            requests: inputs.requests, trackerData: inputs.trackerData, ourLists: ourLists,
            duckDuckGoRules: inputs.duckDuckGoRules, runs: options.runs)
        let engine = try EngineReport.measure(options: options, inputs: inputs, progress: progress)
        return BenchmarkReport(
            options: options, loadBefore: loadBefore, loadAfter: LoadAverage.current(),
            duckDuckGoRuleCount: duckDuckGoRuleCount, duckDuckGoByteCount: inputs.duckDuckGoRules.count,
            pipeline: pipeline, variants: variants, webKit: webKit, parsing: parsing, decisions: decisions, engine: engine)
    }

    /// Rules WebKit keeps from a list.
    private static func ruleCount(of json: [UInt8], path: String) throws(BenchmarkError) -> Int {
        do throws(RuleListError) {
            return try RuleList(parsing: json).rules.count
        } catch {
            throw .invalidInput(path: path, detail: "\(error)")
        }
    }

    static func progress(_ text: String) {
        FileHandle.standardError.write(Data("[bench] \(text)\n".utf8))
    }
}

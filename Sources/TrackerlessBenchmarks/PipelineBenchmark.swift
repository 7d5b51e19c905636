#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ContentRuleList
import RuleBuilder
import TrackerDataKit
import TrackerlessCore

/// The whole generation pipeline on one tds.json, timed stage by stage: read the file, parse it
/// (JSON and the Tracker Radar model), build the rule list with the default settings, encode it.
///
/// Each stage is timed twice: on the wall clock, and in CPU time of the measuring thread, which
/// the other work of a shared machine disturbs much less.
struct PipelineBenchmark: Sendable {
    /// Timings of each stage and of the whole, in the same runs.
    struct Stages: Sendable {
        var read: Samples
        var parse: Samples
        var build: Samples
        var encode: Samples
        var total: Samples
        /// Not in the total: `RuleList.validate()` (encode and parse) of the built lists, and
        /// `validateTriggers()`, which `build()` runs, for the cost of each.
        var fullValidation: Samples
        var triggerValidation: Samples
    }

    /// The stage timings (wall clock).
    let stages: Stages
    /// The same stages in CPU time of the measuring thread.
    let cpu: Stages
    /// Rules in the lists built.
    let ruleCount: Int
    /// How many lists the rules needed (1 unless they exceed WebKit's 150,000).
    let listCount: Int
    /// Bytes of the encoded lists.
    let byteCount: Int
    /// Trackers in the tds.json.
    let trackerCount: Int

    /// Runs the pipeline once untimed, then `runs` timed times.
    static func measure(trackerDataPath path: String, runs: Int) throws(BenchmarkError) -> PipelineBenchmark {
        var wall: [[Double]] = [], cpu: [[Double]] = []
        var output = try runOnce(path: path)
        for _ in 0..<runs {
            output = try runOnce(path: path)
            wall.append(output.wall)
            cpu.append(output.cpu)
        }
        return PipelineBenchmark(
            stages: Stages(passes: wall), cpu: Stages(passes: cpu),
            ruleCount: output.ruleCount, listCount: output.encoded.count,
            byteCount: output.encoded.reduce(0) { $0 + $1.count }, trackerCount: output.trackerCount)
    }

    /// One pass: each stage's wall and CPU time in milliseconds (read, parse, build, encode), and
    /// what came out.
    private typealias Pass = (wall: [Double], cpu: [Double], ruleCount: Int, trackerCount: Int, encoded: [[UInt8]])

    private static func runOnce(path: String) throws(BenchmarkError) -> Pass {
        var wall: [Double] = [], cpu: [Double] = []
        func timed<Result>(_ body: () throws(BenchmarkError) -> Result) throws(BenchmarkError) -> Result {
            let cpuStart = threadCPUMilliseconds()
            let (time, result) = try Samples.timed(body)
            cpu.append(threadCPUMilliseconds() - cpuStart)
            wall.append(time)
            return result
        }
        let bytes = try timed { () throws(BenchmarkError) in try BenchmarkInputs.read(path, what: "the tds.json") }
        let trackerData = try timed { () throws(BenchmarkError) in
            do throws(TrackerDataError) {
                return try TrackerData(parsing: bytes, file: path)
            } catch {
                throw .invalidInput(path: path, detail: "\(error)")
            }
        }
        let build = try timed { RuleListBuilder(trackerData: trackerData).build() }
        let encoded = try timed { build.ruleLists.map { $0.encoded() } }
        try timed { () throws(BenchmarkError) in
            for list in build.ruleLists {
                do throws(RuleListError) { try list.validate() } catch { throw .invalidInput(path: path, detail: "\(error)") }
            }
        }
        try timed { () throws(BenchmarkError) in
            for list in build.ruleLists {
                do throws(RuleListError) { try list.validateTriggers() } catch { throw .invalidInput(path: path, detail: "\(error)") }
            }
        }
        return (wall, cpu, build.ruleCount, trackerData.trackers.count, encoded)
    }

    /// CPU time of the calling thread so far, in milliseconds.
    private static func threadCPUMilliseconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1_000 + Double(time.tv_nsec) / 1_000_000
    }
}

extension PipelineBenchmark.Stages {
    /// Stages from passes of four times each (read, parse, build, encode).
    init(passes: [[Double]]) {
        func stage(_ index: Int) -> Samples { Samples(milliseconds: passes.map { $0[index] }) }
        self.init(read: stage(0), parse: stage(1), build: stage(2), encode: stage(3),
                  total: Samples(milliseconds: passes.map { $0[0..<4].reduce(0, +) }),
                  fullValidation: stage(4), triggerValidation: stage(5))
    }
}

// MARK: - The pipeline alone (`--pipeline-only`)

extension PipelineBenchmark {
    /// Measures the pipeline alone for `TrackerlessBenchmarks --pipeline-only [--tds FILE]
    /// [--runs N] [--json]`: the table (or JSON) with the load before and after.
    static func report(options: BenchmarkOptions) throws(BenchmarkError) -> String {
        let loadBefore = LoadAverage.current()
        let pipeline = try measure(trackerDataPath: options.trackerDataPath, runs: options.runs)
        let loadAfter = LoadAverage.current()
        let load = "\(loadBefore.map(\.description) ?? "?") at start, \(loadAfter.map(\.description) ?? "?") at end (1, 5, 15 min)"
        if options.printsJSON {
            func stages(_ stages: Stages) -> JSONValue {
                func samples(_ samples: Samples) -> JSONValue {
                    .object(JSONObject([("median", .number(samples.median)), ("min", .number(samples.minimum))]))
                }
                return .object(JSONObject([
                    ("read", samples(stages.read)), ("parse", samples(stages.parse)), ("build", samples(stages.build)),
                    ("encode", samples(stages.encode)), ("total", samples(stages.total)),
                ]))
            }
            let json = JSONValue.object(JSONObject([
                ("tds", .string(options.displayPath(options.trackerDataPath))), ("load", .string(load)),
                ("runs", .number(Double(options.runs))), ("wallMilliseconds", stages(pipeline.stages)),
                ("threadCPUMilliseconds", stages(pipeline.cpu)), ("rules", .number(Double(pipeline.ruleCount))),
                ("bytes", .number(Double(pipeline.byteCount))),
            ]))
            return json.jsonString() + "\n"
        }
        func row(_ label: String, _ wall: Samples, _ cpu: Samples) -> String {
            Formatting.padded("   " + label, 32) + [wall.median, wall.minimum, cpu.median, cpu.minimum]
                .map { Formatting.padded(Formatting.decimal($0, digits: 1), 10, right: true) }.joined()
        }
        var lines = [
            "Generation pipeline, default settings (ms)",
            "tds:        \(options.displayPath(options.trackerDataPath)) (\(Formatting.grouped(pipeline.trackerCount)) trackers)",
            "load avg:   \(load)",
            "runs:       \(options.runs) timed after one warm-up",
            Formatting.padded("   stage", 32) + ["wall med", "wall min", "CPU med", "CPU min"]
                .map { Formatting.padded($0, 10, right: true) }.joined(),
        ]
        let wall = pipeline.stages, cpu = pipeline.cpu
        lines.append(row("read tds.json", wall.read, cpu.read))
        lines.append(row("parse (JSON + TrackerData)", wall.parse, cpu.parse))
        lines.append(row("build (RuleListBuilder)", wall.build, cpu.build))
        lines.append(row("encode (encoded())", wall.encode, cpu.encode))
        lines.append(row("total", wall.total, cpu.total))
        lines.append(row("(validate(): encode + parse)", wall.fullValidation, cpu.fullValidation))
        lines.append(row("(validateTriggers(), in build)", wall.triggerValidation, cpu.triggerValidation))
        lines.append("   \(Formatting.grouped(pipeline.ruleCount)) rules in \(pipeline.listCount) list(s), \(Formatting.grouped(pipeline.byteCount)) bytes")
        lines.append("   (CPU: CPU time of the measuring thread; the wall clock also counts waiting for a busy machine)")
        return lines.joined(separator: "\n") + "\n"
    }
}

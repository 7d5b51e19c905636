import Foundation
import TrackerData
import TrackerlessCore
import UserScripts

/// The user scripts rendered from a tds.json (issue 4): the compact tracker data built from the
/// parsed blocklist and the bundled surrogates, then both scripts rendered with the bundled
/// templates (escaping, substitution, content hashes). The tds is parsed once, outside the
/// timing, as a host parses it once per update. The goal is 20 ms for compact data + render.
///
/// Run with `TrackerlessBenchmarks --scripts-only [--tds FILE] [--runs N] [--json]`.
struct ScriptRenderBenchmark: Sendable {
    let trackerDataPath: String
    let runs: Int
    /// `CompactTrackerData(trackerData:surrogates:)`.
    let compact: Samples
    /// `ScriptRenderer.render(trackerData:surrogates:secret:)`.
    let render: Samples
    /// Both, run after run: the figure the goal is about.
    let total: Samples
    /// Of the render: SHA-256 of both scripts (the content hashes).
    let hashing: Samples
    /// `RenderedScripts.withSecret(_:)`: what a host pays at launch for a fresh secret.
    let withSecret: Samples
    let blocking: RenderedScript.Sizes
    let inferenceBytes: Int
    let warningCount: Int

    /// Times `runs` renders after one warm-up.
    static func measure(trackerDataPath: String, runs: Int) throws(BenchmarkError) -> ScriptRenderBenchmark {
        let trackerData: TrackerData
        do {
            trackerData = try TrackerData(contentsOfFile: trackerDataPath)
        } catch {
            throw .invalidInput(path: trackerDataPath, detail: "\(error)")
        }
        let surrogates = SurrogateLibrary.bundled
        let renderer: ScriptRenderer
        do {
            renderer = try ScriptRenderer()
        } catch {
            throw .invalidInput(path: "bundled templates", detail: "\(error)")
        }
        var compactTimes: [Double] = [], renderTimes: [Double] = [], totalTimes: [Double] = [], secretTimes: [Double] = []
        var hashTimes: [Double] = []
        var last: RenderedScripts?
        for run in 0...max(1, runs) {
            let (compactTime, compact) = Samples.timed {
                CompactTrackerData(trackerData: trackerData, surrogates: surrogates.surrogates)
            }
            let (renderTime, scripts) = Samples.timed {
                renderer.render(trackerData: compact, surrogates: surrogates, secret: .marker)
            }
            let (secretTime, _) = Samples.timed { scripts.withSecret(.random()) }
            let (hashTime, _) = Samples.timed {
                SHA256.hexDigest(Array(scripts.blocking.source.utf8)) + SHA256.hexDigest(Array(scripts.inference.source.utf8))
            }
            last = scripts
            guard run > 0 else { continue }
            compactTimes.append(compactTime)
            renderTimes.append(renderTime)
            totalTimes.append(compactTime + renderTime)
            secretTimes.append(secretTime)
            hashTimes.append(hashTime)
        }
        let scripts = last ?? renderer.render(trackerData: CompactTrackerData(trackerData: trackerData), surrogates: surrogates)
        return ScriptRenderBenchmark(
            trackerDataPath: trackerDataPath, runs: runs, compact: Samples(milliseconds: compactTimes),
            render: Samples(milliseconds: renderTimes), total: Samples(milliseconds: totalTimes),
            hashing: Samples(milliseconds: hashTimes), withSecret: Samples(milliseconds: secretTimes), blocking: scripts.blocking.sizes,
            inferenceBytes: scripts.inference.byteCount, warningCount: scripts.warnings.count)
    }

    /// The entry point of `--scripts-only`: `[--tds FILE] [--runs N] [--json]`.
    static func run(
        arguments: [String], packageRoot: String = BenchmarkOptions.packageRoot(filePath: #filePath)
    ) throws(BenchmarkError) -> String {
        var runs = 30
        var printsJSON = false
        var path = URL(fileURLWithPath: packageRoot).deletingLastPathComponent().path + "/shared/data/tds/apple-tds.json"
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--json": printsJSON = true
            case "--tds":
                guard let value = remaining.popFirst() else { throw .usage("--tds needs a file") }
                path = value
            case "--runs":
                guard let text = remaining.popFirst(), let number = Int(text), number >= 1, number <= 10_000 else {
                    throw .usage("--runs needs a number from 1 to 10000")
                }
                runs = number
            default: throw .usage("--scripts-only takes --tds FILE, --runs N and --json, not \(argument)")
            }
        }
        guard FileManager.default.fileExists(atPath: path) else {
            throw .missingInput(path: path, what: "the Tracker Radar blocklist", detail: "no such file")
        }
        let report = try measure(trackerDataPath: path, runs: runs)
        return printsJSON ? report.json : report.table
    }

    private static func cell(_ samples: Samples) -> String {
        Formatting.decimal(samples.median, digits: 2) + " (" + Formatting.decimal(samples.minimum, digits: 2) + ")"
    }

    /// The figures as a table: median (minimum) milliseconds per stage, and the sizes.
    var table: String {
        let name = URL(fileURLWithPath: trackerDataPath).lastPathComponent
        return """
            User scripts (issue 4): rendered from \(name), \(runs) runs, median (min) ms; goal <= 20 ms for compact data + render
              compact tracker data \(Self.cell(compact)), render \(Self.cell(render)) (of which SHA-256 \(Self.cell(hashing))), total \(Self.cell(total)); \
            withSecret \(Self.cell(withSecret))
              blocking.js \(Formatting.grouped(blocking.total)) bytes: tracker data \(Formatting.grouped(blocking.trackerData)), \
            surrogates \(Formatting.grouped(blocking.surrogates)), template \(Formatting.grouped(blocking.template)), \
            bridge \(Formatting.grouped(blocking.bridge)), settings \(Formatting.grouped(blocking.settings)); \
            inference.js \(Formatting.grouped(inferenceBytes)) bytes; \(warningCount) warning(s)

            """
    }

    /// The figures as one JSON object.
    var json: String {
        func samples(_ samples: Samples) -> JSONValue {
            .object(JSONObject([("median_ms", .number(samples.median)), ("min_ms", .number(samples.minimum))]))
        }
        func number(_ value: Int) -> JSONValue { .number(Double(value)) }
        let value = JSONValue.object(JSONObject([
            ("runs", number(runs)),
            ("user_scripts", .object(JSONObject([
                ("tds", .string(URL(fileURLWithPath: trackerDataPath).lastPathComponent)),
                ("compact", samples(compact)), ("render", samples(render)), ("total", samples(total)),
                ("hashing", samples(hashing)), ("with_secret", samples(withSecret)),
                ("blocking_bytes", number(blocking.total)), ("tracker_data_bytes", number(blocking.trackerData)),
                ("surrogate_bytes", number(blocking.surrogates)), ("template_bytes", number(blocking.template)),
                ("inference_bytes", number(inferenceBytes)), ("warnings", number(warningCount)),
            ]))),
        ]))
        return value.jsonString() + "\n"
    }
}

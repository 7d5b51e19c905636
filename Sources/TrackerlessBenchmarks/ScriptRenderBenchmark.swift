import Foundation
import TrackerDataKit
import TrackerlessCore
import UserScripts

/// The user scripts rendered from a tds.json: the compact tracker data built from the
/// parsed blocklist and the bundled surrogates, then both scripts rendered with the bundled
/// templates (escaping, substitution, content hashes). The tds is parsed once, outside the
/// timing, as a host parses it once per update. The goal is 20 ms for compact data + render.
///
/// Both scopes of the compact data are measured: the surrogate trackers (the renderer's choice
/// for hosts that block with the rule list) and all trackers (hosts that block in the script).
///
/// Run with `TrackerlessBenchmarks --scripts-only [--tds FILE] [--runs N] [--json]`.
struct ScriptRenderBenchmark: Sendable {
    /// The figures of one scope.
    struct Result: Sendable {
        var scope: CompactTrackerData.Scope
        /// `CompactTrackerData(trackerData:surrogates:scope:)`.
        var compact: Samples
        /// `ScriptRenderer.render(trackerData:surrogates:secret:)`.
        var render: Samples
        /// Both, run after run: the figure the goal is about.
        var total: Samples
        /// SHA-256 of both scripts (the content hashes), the largest part of the render.
        var hashing: Samples
        /// `RenderedScripts.withSecret(_:)`: what a host pays at launch for a fresh secret.
        var withSecret: Samples
        var blocking: RenderedScript.Sizes
        var inferenceBytes: Int
        var warningCount: Int
    }

    let trackerDataPath: String
    let runs: Int
    let results: [Result]

    /// Times `runs` renders of each scope after one warm-up.
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
        let results = [CompactTrackerData.Scope.surrogateTrackers, .all].map { scope in
            measure(scope: scope, trackerData: trackerData, surrogates: surrogates, renderer: renderer, runs: runs)
        }
        return ScriptRenderBenchmark(trackerDataPath: trackerDataPath, runs: runs, results: results)
    }

    private static func measure(
        scope: CompactTrackerData.Scope, trackerData: TrackerData, surrogates: SurrogateLibrary, renderer: ScriptRenderer, runs: Int
    ) -> Result {
        var compactTimes: [Double] = [], renderTimes: [Double] = [], totalTimes: [Double] = []
        var hashTimes: [Double] = [], secretTimes: [Double] = []
        var last: RenderedScripts?
        for run in 0...max(1, runs) {
            let (compactTime, compact) = Samples.timed {
                CompactTrackerData(trackerData: trackerData, surrogates: surrogates.surrogates, scope: scope)
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
            hashTimes.append(hashTime)
            secretTimes.append(secretTime)
        }
        let scripts = last ?? renderer.render(trackerData: CompactTrackerData(trackerData: trackerData), surrogates: surrogates)
        return Result(
            scope: scope, compact: Samples(milliseconds: compactTimes), render: Samples(milliseconds: renderTimes),
            total: Samples(milliseconds: totalTimes), hashing: Samples(milliseconds: hashTimes),
            withSecret: Samples(milliseconds: secretTimes), blocking: scripts.blocking.sizes,
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
        var lines = [
            "User scripts: rendered from \(name), \(runs) runs, median (min) ms; goal <= 20 ms for compact data + render"
        ]
        for result in results {
            let sizes = result.blocking
            lines.append(
                "  scope \(result.scope.rawValue): compact tracker data \(Self.cell(result.compact)), "
                    + "render \(Self.cell(result.render)) (of which SHA-256 \(Self.cell(result.hashing))), "
                    + "total \(Self.cell(result.total)); withSecret \(Self.cell(result.withSecret))")
            lines.append(
                "    blocking.js \(Formatting.grouped(sizes.total)) bytes: tracker data \(Formatting.grouped(sizes.trackerData)), "
                    + "surrogates \(Formatting.grouped(sizes.surrogates)), template \(Formatting.grouped(sizes.template)), "
                    + "bridge \(Formatting.grouped(sizes.bridge)), settings \(Formatting.grouped(sizes.settings)); "
                    + "inference.js \(Formatting.grouped(result.inferenceBytes)) bytes; \(result.warningCount) warning(s)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The figures as one JSON object.
    var json: String {
        func samples(_ samples: Samples) -> JSONValue {
            .object(JSONObject([("median_ms", .number(samples.median)), ("min_ms", .number(samples.minimum))]))
        }
        func number(_ value: Int) -> JSONValue { .number(Double(value)) }
        let value = JSONValue.object(JSONObject([
            ("runs", number(runs)),
            ("tds", .string(URL(fileURLWithPath: trackerDataPath).lastPathComponent)),
            ("user_scripts", .array(results.map { result in
                .object(JSONObject([
                    ("scope", .string(result.scope.rawValue)),
                    ("compact", samples(result.compact)), ("render", samples(result.render)), ("total", samples(result.total)),
                    ("hashing", samples(result.hashing)), ("with_secret", samples(result.withSecret)),
                    ("blocking_bytes", number(result.blocking.total)), ("tracker_data_bytes", number(result.blocking.trackerData)),
                    ("surrogate_bytes", number(result.blocking.surrogates)), ("template_bytes", number(result.blocking.template)),
                    ("inference_bytes", number(result.inferenceBytes)), ("warnings", number(result.warningCount)),
                ]))
            })),
        ]))
        return value.jsonString() + "\n"
    }
}

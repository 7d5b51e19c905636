import DisconnectLists
import Foundation
import TrackerlessCore

/// Firefox's ten lists from the Disconnect data, timed stage by stage: read the input
/// files, parse them (`DisconnectList` or the normalized lists, and `EntityList`), build the
/// rule lists (`FirefoxRuleListBuilder`), encode them. The goal is 30 ms for all of it.
///
/// Run with `TrackerlessBenchmarks --firefox-only [--runs N] [--json]`; the inputs are the
/// shared Disconnect data beside the package (`../shared/data/shavar`).
struct FirefoxListsBenchmark: Sendable {
    /// One input: a name and what `FirefoxListInputs` reads.
    struct Input: Sendable {
        var name: String
        var lists: String
        var entities: String?
    }

    /// The figures of one input.
    struct Result: Sendable {
        var input: Input
        var readAndParse: Samples
        var build: Samples
        var encode: Samples
        var total: Samples
        var ruleCount: Int
        var byteCount: Int
    }

    let results: [Result]
    let runs: Int

    /// The shared inputs: current master's Disconnect list, and the normalized lists Firefox for
    /// iOS 107.0 reads.
    static func inputs(packageRoot: String) -> [Input] {
        let shavar = URL(fileURLWithPath: packageRoot).deletingLastPathComponent().path + "/shared/data/shavar"
        return [
            Input(name: "disconnect-blacklist.json (master)", lists: shavar + "/disconnect-blacklist.json", entities: nil),
            Input(name: "normalized lists (Firefox iOS 107.0)", lists: shavar + "/firefox-ios-pinned-107.0", entities: nil),
        ]
    }

    /// Times each input `runs` times after one warm-up.
    static func measure(inputs: [Input], runs: Int) throws(BenchmarkError) -> FirefoxListsBenchmark {
        var results: [Result] = []
        for input in inputs {
            var read: [Double] = [], build: [Double] = [], encode: [Double] = [], total: [Double] = []
            var ruleCount = 0
            var byteCount = 0
            for run in 0...max(1, runs) {
                let (readTime, parsed) = try Samples.timed { () throws(BenchmarkError) in
                    do throws(DisconnectListError) {
                        return try FirefoxListInputs(lists: input.lists, entities: input.entities)
                    } catch {
                        throw .invalidInput(path: error.file, detail: (error.path.map { "\($0): " } ?? "") + error.reason)
                    }
                }
                let (buildTime, lists) = Samples.timed {
                    FirefoxRuleListBuilder(categoryLists: parsed.categoryLists, entityList: parsed.entityList).ruleLists()
                }
                let (encodeTime, encoded) = Samples.timed { lists.map { $0.ruleList.encoded() } }
                guard run > 0 else { continue }
                read.append(readTime)
                build.append(buildTime)
                encode.append(encodeTime)
                total.append(readTime + buildTime + encodeTime)
                ruleCount = lists.reduce(0) { $0 + $1.ruleList.rules.count }
                byteCount = encoded.reduce(0) { $0 + $1.count }
            }
            results.append(Result(
                input: input, readAndParse: Samples(milliseconds: read), build: Samples(milliseconds: build),
                encode: Samples(milliseconds: encode), total: Samples(milliseconds: total),
                ruleCount: ruleCount, byteCount: byteCount))
        }
        return FirefoxListsBenchmark(results: results, runs: runs)
    }

    /// The entry point of `--firefox-only`: `[--runs N] [--json]`.
    static func run(
        arguments: [String], packageRoot: String = BenchmarkOptions.packageRoot(filePath: #filePath)
    ) throws(BenchmarkError) -> String {
        var runs = 30
        var printsJSON = false
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--json": printsJSON = true
            case "--runs":
                guard let text = remaining.popFirst(), let number = Int(text), number >= 1, number <= 10_000 else {
                    throw .usage("--runs needs a number from 1 to 10000")
                }
                runs = number
            default: throw .usage("--firefox-only takes --runs N and --json, not \(argument)")
            }
        }
        let report = try measure(inputs: inputs(packageRoot: packageRoot), runs: runs)
        return printsJSON ? report.json : report.table
    }

    /// The figures as a table: median (minimum) milliseconds per stage.
    var table: String {
        var lines = ["Firefox lists: all ten lists from the Disconnect data, \(runs) runs, median (min) ms; goal <= 30 ms"]
        for result in results {
            func cell(_ samples: Samples) -> String {
                Formatting.decimal(samples.median, digits: 2) + " (" + Formatting.decimal(samples.minimum, digits: 2) + ")"
            }
            lines.append("  \(result.input.name): read+parse \(cell(result.readAndParse)), build \(cell(result.build)), "
                + "encode \(cell(result.encode)), total \(cell(result.total)); "
                + "\(Formatting.grouped(result.ruleCount)) rules, \(Formatting.megabytes(result.byteCount))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The figures as one JSON object.
    var json: String {
        var writer = JSONWriter()
        func samples(_ samples: Samples) -> JSONValue {
            .object(JSONObject([("median_ms", .number(samples.median)), ("min_ms", .number(samples.minimum))]))
        }
        writer.write(.object(JSONObject([
            ("runs", .number(Double(runs))),
            ("firefox_lists", .array(results.map { result in
                .object(JSONObject([
                    ("input", .string(result.input.name)),
                    ("read_and_parse", samples(result.readAndParse)), ("build", samples(result.build)),
                    ("encode", samples(result.encode)), ("total", samples(result.total)),
                    ("rules", .number(Double(result.ruleCount))), ("bytes", .number(Double(result.byteCount))),
                ]))
            })),
        ])))
        return String(decoding: writer.bytes, as: UTF8.self) + "\n"
    }
}

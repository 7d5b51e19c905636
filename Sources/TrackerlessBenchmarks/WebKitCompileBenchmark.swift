import Foundation
import TrackerlessCore

/// WebKit's content-blocker compile time for DuckDuckGo's list and ours, side by side: one
/// harness process compiles them interleaved, so both see the same machine load.
struct WebKitCompileBenchmark: Sendable {
    /// One list's compile times.
    struct ListTimes: Sendable {
        /// `DuckDuckGo` or one of ``RuleListVariant/name``.
        let name: String
        /// Compile times (all of a variant's lists together), in milliseconds.
        let samples: Samples
        /// Rules compiled.
        let ruleCount: Int
        /// JSON bytes compiled.
        let byteCount: Int
    }

    /// The name DuckDuckGo's list is reported under.
    static let duckDuckGoName = "DuckDuckGo"

    /// The lists' times, DuckDuckGo's first; empty when skipped.
    let lists: [ListTimes]
    /// Why WebKit was not measured, if it was not.
    let skipReason: String?

    /// DuckDuckGo's times, if measured.
    var duckDuckGo: ListTimes? { lists.first { $0.name == Self.duckDuckGoName } }

    /// Compiles DuckDuckGo's list (the file at `duckDuckGoPath`) and each variant `runs` times,
    /// round by round, starting each round with a different list so none always goes first.
    static func measure(
        duckDuckGoPath: String, duckDuckGoRuleCount: Int, duckDuckGoByteCount: Int,
        variants: [RuleListVariant], harness: CompileHarness, runs: Int
    ) -> WebKitCompileBenchmark {
        guard runs > 0 else { return WebKitCompileBenchmark(lists: [], skipReason: "--webkit-runs 0") }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("trackerless-benchmarks-\(ProcessInfo.processInfo.processIdentifier)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            var files: [(name: String, paths: [String], rules: Int, bytes: Int)] = [
                (duckDuckGoName, [duckDuckGoPath], duckDuckGoRuleCount, duckDuckGoByteCount)
            ]
            for variant in variants {
                var paths: [String] = []
                for (index, list) in variant.encodedLists.enumerated() {
                    let path = "\(directory)/\(variant.name).\(index + 1).json"
                    try FileIO.writeAtomically(list, to: path)
                    paths.append(path)
                }
                files.append((variant.name, paths, variant.ruleCount, variant.byteCount))
            }
            let warmUp = "\(directory)/warm-up.json"
            try FileIO.writeAtomically(Array(#"[{"trigger":{"url-filter":"warm-up"},"action":{"type":"block"}}]"#.utf8), to: warmUp)
            let jobs = interleavedJobs(files.map { ($0.name, $0.paths) }, runs: runs, warmUp: warmUp)
            let times = try milliseconds(harness.compile(jobs))
            let lists = files.map { file in
                ListTimes(name: file.name, samples: Samples(milliseconds: times[file.name] ?? []), ruleCount: file.rules, byteCount: file.bytes)
            }
            return WebKitCompileBenchmark(lists: lists, skipReason: nil)
        } catch {
            return WebKitCompileBenchmark(lists: [], skipReason: "\(error)")
        }
    }

    /// A warm-up compilation, then `runs` rounds of every list; ids are `name#round#part`.
    static func interleavedJobs(_ lists: [(name: String, paths: [String])], runs: Int, warmUp: String) -> [CompileHarness.Job] {
        var jobs = [CompileHarness.Job(id: "warm-up", path: warmUp)]
        for round in 0..<runs {
            for offset in lists.indices {
                let list = lists[(round + offset) % lists.count]
                for (part, path) in list.paths.enumerated() {
                    jobs.append(CompileHarness.Job(id: "\(list.name)#\(round)#\(part)", path: path))
                }
            }
        }
        return jobs
    }

    /// Each list's time per round (its parts added up), in milliseconds; throws WebKit's message
    /// when a list did not compile.
    static func milliseconds(_ outcomes: [CompileHarness.Outcome]) throws(CompileFailure) -> [String: [Double]] {
        var perRound: [String: [Int: Double]] = [:]
        for outcome in outcomes where outcome.id != "warm-up" {
            let parts = outcome.id.split(separator: "#")
            guard outcome.compiled, parts.count == 3, let round = Int(parts[1]) else {
                throw CompileFailure(id: outcome.id, message: outcome.error ?? "no error given")
            }
            perRound[String(parts[0]), default: [:]][round, default: 0] += outcome.seconds * 1_000
        }
        return perRound.mapValues { rounds in rounds.keys.sorted().compactMap { rounds[$0] } }
    }
}

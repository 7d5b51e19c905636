import ContentRuleList
import Foundation
import RuleEngineKit

/// One url-filter of about 50,000 characters matched against a 20,000-byte
/// URL, per decision. Before: such filters (more than 63 character-set positions) were matched
/// by the Thompson automaton, whose cost grows with the pattern's live states times the URL's
/// length; after: by the sequence automaton, a few word operations per 64 active positions.
///
/// `swift run -c release TrackerlessBenchmarks --long-filter-only [--runs N]`
enum LongFilterBenchmark {
    /// The filters, each about 50,000 characters, and why each was slow.
    static let patterns: [(name: String, pattern: String)] = [
        ("a.* x 16,666 (every a keeps a state live)", String(repeating: "a.*", count: 16_666)),
        ("a. x 25,000 (a state per URL position)", String(repeating: "a.", count: 25_000)),
        ("[a-z] x 10,000 (a state per URL position)", String(repeating: "[a-z]", count: 10_000)),
    ]

    /// A long URL of letters, so that every filter keeps many states live.
    static let url = "https://x.example/" + String(repeating: "ab", count: 10_000)

    static func run(arguments: [String]) throws(BenchmarkError) -> String {
        do {
            return try table(arguments: arguments)
        } catch let error as BenchmarkError {
            throw error
        } catch {
            throw .invalidInput(path: "(built-in filters)", detail: "\(error)")
        }
    }

    private static func table(arguments: [String]) throws -> String {
        var runs = 5
        if let index = arguments.firstIndex(of: "--runs"), index + 1 < arguments.count, let value = Int(arguments[index + 1]), value > 0 {
            runs = value
        }
        var lines = [
            "Long url-filter: one filter, a \(Formatting.grouped(url.utf8.count))-byte URL, "
                + "milliseconds of thread CPU time per decision, median of \(runs) runs after a warm-up",
            "filter".padding(toLength: 46, withPad: " ", startingAt: 0)
                + "  Thompson (before)   sequence (after)   evaluator   engine",
        ]
        for (name, pattern) in patterns {
            let before = try URLFilter(parsing: pattern, isCaseSensitive: false, allowsPositionAutomaton: false)
            let after = try URLFilter(parsing: pattern, isCaseSensitive: false)
            let json = #"[{"trigger":{"url-filter":"\#(pattern)"},"action":{"type":"block"}}]"#
            let list = try RuleList(parsing: json)
            let evaluator = try ReferenceEvaluator(ruleList: list)
            let engine = try RuleEngine(ruleList: list)
            let request = Request(url: url, topURL: "https://y.example/", resourceType: .image)
            let answers = [before.matches(url), after.matches(url), evaluator.actions(for: request).isBlocked,
                           engine.actions(for: request).isBlocked]
            guard Set(answers).count == 1 else {
                throw BenchmarkError.invalidInput(path: "(built in)", detail: "\(name): the matchers disagree: \(answers)")
            }
            let figures = [
                median(runs: runs) { before.matches(url) }, median(runs: runs) { after.matches(url) },
                median(runs: runs) { evaluator.actions(for: request).isBlocked },
                median(runs: runs) { engine.actions(for: request).isBlocked },
            ]
            lines.append(
                name.padding(toLength: 46, withPad: " ", startingAt: 0)
                    + figures.map { String(format: "%17.3f", $0) }.joined(separator: "  "))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The median thread CPU time of `runs` calls, after one warm-up call.
    private static func median(runs: Int, _ body: () -> Bool) -> Double {
        var samples: [Double] = []
        var sink = 0
        for run in 0...runs {
            let start = BloomFilterBenchmark.threadCPUMilliseconds()
            if body() { sink += 1 }
            if run > 0 { samples.append(BloomFilterBenchmark.threadCPUMilliseconds() - start) }
        }
        precondition(sink >= 0)
        samples.sort()
        return samples[samples.count / 2]
    }
}

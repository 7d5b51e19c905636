#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TrackerDataKit
import TrackerlessCore

/// What asking a resolver decision why costs: the median nanoseconds a
/// decision over the real request URLs, from five sites in turn, when the caller reads only the
/// action, when it also reads the deciding entry, and when it writes the entry's JSON text (the
/// rule's text and options: what `resolve` and the C API print). The three are timed in the same
/// passes, their order rotating each pass, so that the ratios compare like with like on a shared
/// machine. Times are thread CPU time.
///
/// Run with `TrackerlessBenchmarks --resolver-attribution-only [--tds FILE] [--requests FILE] [--runs N]`.
struct ResolverAttributionBenchmark: Sendable {
    let trackerDataPath: String
    let runs: Int
    let requestCount: Int
    /// Decisions of one pass that name an entry.
    let attributedCount: Int
    /// Nanoseconds a decision in `Samples.milliseconds`: the action only.
    let actionOnly: Samples
    /// The action and the deciding entry (its case and position).
    let entryRead: Samples
    /// The action and the entry's JSON text.
    let entryText: Samples

    static func measure(trackerDataPath: String, requestsPath: String, runs: Int) throws(BenchmarkError) -> ResolverAttributionBenchmark {
        let (trackerData, samples) = try ResolverBenchmark.inputs(trackerDataPath: trackerDataPath, requestsPath: requestsPath)
        let resolver = TrackerResolver(trackerData: trackerData)
        let requests = samples.compactMap { sample in CanonicalURL(sample.url).map { ($0, sample.requestType) } }
        let urls = requests.map(\.0)
        let types = requests.map(\.1)
        let sites = ResolverBenchmark.sites.compactMap(CanonicalURL.init)
        func decision(_ index: Int) -> BlockingDecision {
            resolver.decision(forRequestURL: urls[index], topURL: sites[index % sites.count], type: types[index])
        }
        let attributed = urls.indices.filter { decision($0).decidingEntry != nil }.count

        let bodies: [(Int) -> Bool] = [
            { decision($0).isBlocked },
            { index in
                let decided = decision(index)
                return decided.isBlocked || decided.decidingEntry == .mainFrame
            },
            { index in
                let decided = decision(index)
                guard let entry = decided.decidingEntry else { return decided.isBlocked }
                return entry.jsonValue().jsonString().utf8.count > 1_000
            },
        ]
        var passes: [[Double]] = Array(repeating: [], count: bodies.count)
        var trueCount = 0
        var start = timespec()
        var end = timespec()
        for pass in 0...runs {
            for offset in bodies.indices {
                let which = (pass + offset) % bodies.count
                clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start)
                for index in urls.indices where bodies[which](index) { trueCount += 1 }
                clock_gettime(CLOCK_THREAD_CPUTIME_ID, &end)
                let nanoseconds = Double(end.tv_sec - start.tv_sec) * 1e9 + Double(end.tv_nsec - start.tv_nsec)
                if pass > 0 { passes[which].append(nanoseconds / Double(urls.count)) }
            }
        }
        if trueCount == -1 { print(trueCount) }
        return ResolverAttributionBenchmark(
            trackerDataPath: trackerDataPath, runs: runs, requestCount: urls.count, attributedCount: attributed,
            actionOnly: Samples(milliseconds: passes[0]), entryRead: Samples(milliseconds: passes[1]),
            entryText: Samples(milliseconds: passes[2]))
    }

    /// The entry point of `--resolver-attribution-only`: `[--tds FILE] [--requests FILE] [--runs N]`, read
    /// as the other sections read them (default 15 runs).
    static func run(arguments: [String]) throws(BenchmarkError) -> String {
        let options = try ResolverBenchmark.options(arguments: arguments)
        return try measure(trackerDataPath: options.trackerDataPath, requestsPath: options.requestsPath, runs: options.runs).table
    }

    /// The figures as a table, each with its ratio to the action alone.
    var table: String {
        func line(_ samples: Samples) -> String {
            let ratio = Formatting.decimal(samples.median / actionOnly.median, digits: 2)
            return "\(Formatting.grouped(Int(samples.median.rounded()))) ns (best \(Formatting.grouped(Int(samples.minimum.rounded())))), \(ratio)x"
        }
        return """
            Resolver attribution: \(URL(fileURLWithPath: trackerDataPath).lastPathComponent), \
            \(Formatting.grouped(requestCount)) request URLs from \(ResolverBenchmark.sites.count) sites in turn \
            (\(Formatting.grouped(attributedCount)) decisions name an entry), \(runs) runs, thread CPU time, median a decision
              action only (nobody asks why):     \(line(actionOnly))
              action and deciding entry read:    \(line(entryRead))
              action and the entry's JSON text:  \(line(entryText))

            """
    }
}

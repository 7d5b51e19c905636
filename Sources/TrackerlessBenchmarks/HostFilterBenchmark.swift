import ContentRuleList
import Foundation
import RuleBuilder
import RuleEngineKit
import TrackerDataKit

/// Section "Host Bloom filter": does a Bloom filter in front of the engine's host table
/// speed up the common case, a load of a host that is on no list? The same apple-tds list is
/// compiled with and without it; both engines decide the same loads in alternating passes, timed
/// in thread CPU time (the machine is shared).
struct HostFilterBenchmark: Sendable {
    /// One set of loads: nanoseconds per decision (median of the passes) without and with the filter.
    struct Row: Sendable {
        var name: String
        var requestCount: Int
        var without: Double
        var with: Double
    }

    var rows: [Row]
    var passes: Int

    static func measure(
        trackerData: TrackerData, trackerDataPath: String, samples: [RequestSample], passes: Int
    ) throws(BenchmarkError) -> HostFilterBenchmark {
        let lists = RuleListBuilder(trackerData: trackerData).build().ruleLists
        let plain: RuleEngine
        let filtered: RuleEngine
        do throws(RuleListError) {
            plain = try RuleEngine(ruleLists: lists, usesHostFilter: false)
            filtered = try RuleEngine(ruleLists: lists, usesHostFilter: true)
        } catch {
            throw .invalidInput(path: trackerDataPath, detail: "its rule list does not compile: \(error)")
        }
        let real = samples.map { Request(url: $0.url, topURL: $0.sourceURL, resourceType: $0.resourceType) }
        // Hosts on no list, in runs of 20 loads from each of five pages: what most loads are.
        let unlisted = (0..<8_000).map { index in
            Request(
                url: "https://cdn\(index % 97).site\(index).example.org/assets/app.js?v=\(index)",
                topURL: "https://www.site\((index / 20) % 5).example.org/", resourceType: .script)
        }
        let rows = [("8,276 real requests (file order)", real), ("8,000 loads of hosts on no list", unlisted)].map { name, requests in
            let times = timeAlternating(plain, filtered, requests, passes: passes)
            return Row(name: name, requestCount: requests.count, without: times.0, with: times.1)
        }
        return HostFilterBenchmark(rows: rows, passes: passes)
    }

    /// Medians over `passes` of nanoseconds per decision, the two engines taking turns.
    private static func timeAlternating(
        _ first: RuleEngine, _ second: RuleEngine, _ requests: [Request], passes: Int
    ) -> (Double, Double) {
        var samples: ([Double], [Double]) = ([], [])
        var sink = 0
        for pass in 0...(passes * 4) {  // pass 0 warms both up
            for (index, engine) in [first, second].enumerated() {
                var cache = RuleEngine.PageCache()
                let start = BloomFilterBenchmark.threadCPUMilliseconds()
                requests.withUnsafeBufferPointer { buffer in
                    for position in buffer.indices where engine.decision(for: buffer[position], cache: &cache).isBlocked {
                        sink &+= 1
                    }
                }
                let nanoseconds = (BloomFilterBenchmark.threadCPUMilliseconds() - start) * 1e6 / Double(requests.count)
                if pass > 0 {
                    if index == 0 { samples.0.append(nanoseconds) } else { samples.1.append(nanoseconds) }
                }
            }
        }
        if sink == -1 { print(sink) }  // keeps the work observable
        return (samples.0.sorted()[samples.0.count / 2], samples.1.sorted()[samples.1.count / 2])
    }

    var table: String {
        var lines = [
            "Host Bloom filter: the engine's host table with and without a one-hash Bloom filter",
            "in front (apple-tds list; ns per decision, thread CPU time, median of \(passes * 4) alternating passes)",
            "   loads                                      without      with   with/without",
        ]
        for row in rows {
            lines.append(
                "   " + Formatting.padded(row.name, 40) + Formatting.padded(String(format: "%.1f", row.without), 10, right: true)
                    + Formatting.padded(String(format: "%.1f", row.with), 10, right: true)
                    + Formatting.padded(String(format: "%.3f", row.with / row.without), 15, right: true))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

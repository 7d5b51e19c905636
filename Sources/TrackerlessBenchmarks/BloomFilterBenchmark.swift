import Foundation
import TrackerDataKit
import TrackerlessCore
import URLPrefilter

/// Section "Bloom filters": building and probing Apple's URL-filter prefilter and
/// DuckDuckGo's HTTPS-upgrade filter with a million synthetic entries.
///
/// Goals: a million entries built in 200 ms or less, a lookup in 50 ns or less.
struct BloomFilterBenchmark: Sendable {
    /// One timed quantity: the median and the fastest of the runs.
    struct Figure: Sendable {
        var name: String
        var median: Double
        var fastest: Double
        var unit: String
        /// The goal the median must meet, if there is one.
        var goal: Double?
    }

    var entryCount: Int
    var runs: Int
    var figures: [Figure]

    /// Entries shaped like canonical tracker hosts and paths, 20 to 35 bytes (28 on average;
    /// the hosts a tds blocks average 15.5).
    static func syntheticEntries(count: Int, prefix: String) -> [String] {
        (0..<count).map { index in
            index % 4 == 0
                ? "\(prefix)\(index).cdn-\(index % 9973).example/px/"
                : "\(prefix)\(index).tracker-\(index % 9973).example"
        }
    }

    static func measure(
        entryCount: Int = 1_000_000, trackerDataPath: String? = nil, runs: Int, progress: (String) -> Void
    ) -> BloomFilterBenchmark {
        let members = syntheticEntries(count: entryCount, prefix: "m")
        let strangers = syntheticEntries(count: entryCount, prefix: "s")
        var figures: [Figure] = []

        // Thread CPU time, not wall time: on a shared machine the wall clock also counts the time
        // other processes hold the core, which says nothing about the filter.
        func timed(_ name: String, unit: String, goal: Double? = nil, perItem: Int = 1, _ body: () -> Int) {
            var samples: [Double] = []
            var sink = 0
            for run in 0...runs {  // run 0 warms up
                let start = Self.threadCPUMilliseconds()
                sink &+= body()
                let elapsed = Self.threadCPUMilliseconds() - start
                if run > 0 { samples.append(unit == "ns" ? elapsed * 1e6 / Double(perItem) : elapsed) }
            }
            samples.sort()
            figures.append(Figure(name: name, median: samples[samples.count / 2], fastest: samples[0], unit: unit, goal: goal))
            if sink == 42 { progress("") }  // keeps the work observable
        }

        for rate in [0.001, 0.0001] {
            progress("   Apple prefilter, \(entryCount) entries at p = \(rate)")
            timed("Apple prefilter: build \(entryCount) entries, p = \(rate)", unit: "ms", goal: 200) {
                guard var filter = try? BloomFilter(entryCount: entryCount, falsePositiveRate: rate, murmurSeed: 0x9747_B28C)
                else { return 0 }
                for entry in members { filter.insert(entry) }
                return Int(filter.data[0])
            }
        }
        // Probes cycle through 4,096 distinct strings, which stay in the cache as a URL being
        // checked would: the figure is the lookup, not the walk over a million string objects.
        let probeSet = 4_096
        let probes = 200_000
        func lookups(in filter: BloomFilter, memberCount: Int, label: String) {
            let hot = (0..<probeSet).map { members[$0 * (memberCount / probeSet)] }
            let cold = Array(strangers.prefix(probeSet))
            timed("Apple prefilter (\(label)): lookup of a member", unit: "ns", goal: 50, perItem: probes) {
                var hits = 0
                for index in 0..<probes where filter.contains(hot[index % probeSet]) { hits += 1 }
                return hits
            }
            timed("Apple prefilter (\(label)): lookup of a non-member", unit: "ns", goal: 50, perItem: probes) {
                var hits = 0
                for index in 0..<probes where filter.contains(cold[index % probeSet]) { hits += 1 }
                return hits
            }
        }
        guard var filter = try? BloomFilter(entryCount: entryCount, falsePositiveRate: 0.0001, murmurSeed: 0x9747_B28C),
              var shard = try? BloomFilter(entryCount: 50_000, falsePositiveRate: 0.0001, murmurSeed: 0x9747_B28C)
        else {
            return BloomFilterBenchmark(entryCount: entryCount, runs: runs, figures: figures)
        }
        for entry in members { filter.insert(entry) }
        for entry in members.prefix(50_000) { shard.insert(entry) }
        lookups(in: filter, memberCount: entryCount, label: "\(Formatting.grouped(entryCount)) entries, \(Formatting.megabytes(filter.data.count))")
        lookups(in: shard, memberCount: 50_000, label: "50,000 entries, \(Formatting.megabytes(shard.data.count))")
        if let trackerDataPath, let trackerData = try? TrackerData(contentsOfFile: trackerDataPath),
           let entries = try? PrefilterEntries(trackerData: trackerData),
           let prefilter = try? Prefilter(entries: entries, falsePositiveRate: 0.0001, murmurSeed: 0x9747_B28C) {
            // Real hosts: the tds's blocked trackers, and as non-members the sites its entities own.
            let tracked = Set(entries.entries)
            let sites = trackerData.domains.keys.filter { !tracked.contains($0) }.sorted()
            let hot = (0..<probeSet).map { entries.entries[$0 % entries.count] }
            let cold = (0..<probeSet).map { sites[$0 % max(sites.count, 1)] }
            let mean = Double(entries.entries.reduce(0) { $0 + $1.utf8.count }) / Double(entries.count)
            let label = "tds, \(Formatting.grouped(entries.count)) hosts of \(Formatting.decimal(mean, digits: 1)) bytes"
            timed("Apple prefilter (\(label)): lookup of a member", unit: "ns", goal: 50, perItem: probes) {
                var hits = 0
                for index in 0..<probes where prefilter.bloomFilter.contains(hot[index % probeSet]) { hits += 1 }
                return hits
            }
            timed("Apple prefilter (\(label)): lookup of a non-member", unit: "ns", goal: 50, perItem: probes) {
                var hits = 0
                for index in 0..<probes where prefilter.bloomFilter.contains(cold[index % probeSet]) { hits += 1 }
                return hits
            }
        }
        let data = filter.data
        timed("Apple prefilter: tag (SHA-256 of \(Formatting.megabytes(data.count)))", unit: "ms") {
            Int(SHA256.digest(data)[0])
        }

        progress("   DuckDuckGo HTTPS-upgrade filter, \(entryCount) hosts at p = 0.000001")
        timed("DuckDuckGo .bin: build \(entryCount) hosts, p = 0.000001", unit: "ms", goal: 200) {
            guard var https = try? HTTPSUpgradeBloomFilter(entryCount: entryCount, falsePositiveRate: 0.000001) else { return 0 }
            for entry in members { https.insert(entry) }
            return Int(https.data[0])
        }
        guard var https = try? HTTPSUpgradeBloomFilter(entryCount: entryCount, falsePositiveRate: 0.000001) else {
            return BloomFilterBenchmark(entryCount: entryCount, runs: runs, figures: figures)
        }
        for entry in members { https.insert(entry) }
        let hotHosts = (0..<probeSet).map { members[$0 * (entryCount / probeSet)] }
        let coldHosts = Array(strangers.prefix(probeSet))
        timed("DuckDuckGo .bin: lookup of a member", unit: "ns", goal: 50, perItem: probes) {
            var hits = 0
            for index in 0..<probes where https.contains(hotHosts[index % probeSet]) { hits += 1 }
            return hits
        }
        timed("DuckDuckGo .bin: lookup of a non-member", unit: "ns", goal: 50, perItem: probes) {
            var hits = 0
            for index in 0..<probes where https.contains(coldHosts[index % probeSet]) { hits += 1 }
            return hits
        }
        return BloomFilterBenchmark(entryCount: entryCount, runs: runs, figures: figures)
    }

    /// CPU time this thread has used, in milliseconds.
    static func threadCPUMilliseconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1_000 + Double(time.tv_nsec) / 1e6
    }

    /// The figures as a text table.
    var table: String {
        var lines = ["Bloom filters: \(Formatting.grouped(entryCount)) synthetic entries, thread CPU time, \(runs) runs after a warm-up",
                     ""]
        lines.append(Formatting.padded("", 72) + Formatting.padded("median", 12, right: true)
            + Formatting.padded("fastest", 12, right: true) + "  goal")
        for figure in figures {
            let goal = figure.goal.map { goal in
                "≤ \(Formatting.decimal(goal, digits: 0)) \(figure.unit) " + (figure.median <= goal ? "met" : "MISSED")
            } ?? ""
            lines.append(Formatting.padded(figure.name, 72)
                + Formatting.padded(Formatting.decimal(figure.median, digits: 1) + " " + figure.unit, 12, right: true)
                + Formatting.padded(Formatting.decimal(figure.fastest, digits: 1) + " " + figure.unit, 12, right: true)
                + "  " + goal)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The figures as JSON.
    var json: JSONValue {
        var object = JSONObject()
        object.append("entryCount", .number(Double(entryCount)))
        object.append("runs", .number(Double(runs)))
        object.append("figures", .array(figures.map { figure in
            var item = JSONObject()
            item.append("name", .string(figure.name))
            item.append("median", .number(figure.median))
            item.append("fastest", .number(figure.fastest))
            item.append("unit", .string(figure.unit))
            if let goal = figure.goal { item.append("goal", .number(goal)) }
            return .object(item)
        }))
        return .object(object)
    }
}

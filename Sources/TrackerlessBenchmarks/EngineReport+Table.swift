import ContentRuleList

/// The engine report as a table for people.
extension EngineReport {
    /// The engine sections alone, with a header of their own (`--engine-only`).
    var table: String {
        var lines = ["Trackerless benchmarks: rule engine"]
        if !BenchmarkReport.isReleaseBuild { lines.append("WARNING: debug build; run with -c release for figures that mean anything") }
        lines.append("tds:        \(options.displayPath(options.trackerDataPath))")
        lines.append("requests:   \(options.displayPath(options.requestsPath))")
        lines.append("load avg:   \(loadBefore.map(\.description) ?? "?") at start, \(loadAfter.map(\.description) ?? "?") at end (1, 5, 15 min)")
        return (lines + sections).joined(separator: "\n") + "\n"
    }

    /// Sections 5 to 7.
    var sections: [String] { engineSection + webKitSection + scalingSection }

    private var engineSection: [String] {
        var lines = [
            "",
            "5. Rule engine on the apple-tds list (\(Formatting.grouped(engine.ruleCount)) rules), \(Formatting.grouped(engine.requestCount)) requests x \(engine.passes) passes (ns per decision)",
            "   " + Formatting.padded("decider", 44) + numbers("median", "p99", "net med", "net p99", "blocked"),
            latencyRow("ours, one page cache in file order", engine.reusedCache),
            latencyRow("ours, fresh page cache per request", engine.freshCache),
        ]
        if let figures = peer.figures {
            lines.append(
                "   " + Formatting.padded("adblock-rust (py adblock \(figures.version), \(Formatting.grouped(figures.filterCount)) filters)", 44)
                    + numbers(ns(figures.medianNanoseconds), ns(figures.p99Nanoseconds), ns(figures.netMedianNanoseconds),
                              ns(figures.netP99Nanoseconds), Formatting.grouped(figures.blockedCount)))
            lines.append("   net = minus the timed call of a no-op: ours \(ns(engine.reusedCache.timerOverhead)) ns (DispatchTime around a closure),")
            lines.append("         adblock-rust \(ns(figures.overheadNanoseconds)) ns (perf_counter_ns around a Python function, same arguments)")
            if let empty = figures.emptyEngineMedianNanoseconds {
                lines.append("   (adblock-rust without filters, i.e. binding + URL parsing, no matching: median \(ns(empty)) ns; not taken off)")
            }
            if let ratio = peerRatio {
                let fresh = peerRatioFreshCache.map { Formatting.decimal($0, digits: 1) + "x" } ?? "-"
                lines.append("   ours vs adblock-rust, net medians: \(Formatting.decimal(ratio, digits: 1))x faster (\(fresh) with a fresh cache); goal >= \(Formatting.decimal(Self.peerRatioGoal, digits: 0))x: \(verdict(ratio >= Self.peerRatioGoal))")
            }
        } else {
            lines.append("   adblock-rust: not measured: \(peer.unavailableReason ?? "?")")
        }
        let median = engine.reusedCache.median
        lines.append("   goal: median <= \(ns(Self.decisionGoalNanoseconds)) ns: \(verdict(median <= Self.decisionGoalNanoseconds)) (\(ns(median)) ns, timer included)")
        lines.append("   compile, RuleEngine(ruleLists:):  median \(ms(engine.compile.median)) ms, min \(ms(engine.compile.minimum)) ms"
            + (peer.figures.map { "; adblock-rust Engine build \(ms($0.compileMilliseconds)) ms" } ?? ""))
        lines.append("   memoryFootprint:                  \(Formatting.megabytes(engine.memoryFootprint)); goal <= \(Formatting.megabytes(Self.memoryGoalBytes)): \(verdict(engine.memoryFootprint <= Self.memoryGoalBytes))")
        lines.append("   compiled() file:                  \(Formatting.megabytes(engine.compiledByteCount))")
        let load = engine.load
        lines.append("   load, read file + init(compiled:): median \(Formatting.decimal(load.total.median, digits: 2)) ms, min \(Formatting.decimal(load.total.minimum, digits: 2)) ms; goal <= \(ms(Self.loadGoalMilliseconds)) ms: \(verdict(load.total.median <= Self.loadGoalMilliseconds))")
        lines.append("         (medians: read \(Formatting.decimal(load.read.median, digits: 2)) ms, init(compiled:) \(Formatting.decimal(load.initialization.median, digits: 2)) ms)")
        lines.append("   the loaded engine blocks the same requests: \(engine.loadedEngineAgrees ? "yes" : "NO")"
            + "; requests whose actions differ from ReferenceEvaluator's: \(Formatting.grouped(engine.referenceDisagreements))")
        return lines
    }

    private var webKitSection: [String] {
        var lines = ["", "6. Compile time, ours (RuleEngine) vs WebKitGTK on the same list (ms, medians)"]
        if let reason = webKit.skipReason {
            lines.append("   WebKit skipped: \(reason)")
        }
        lines.append("   " + Formatting.padded("list", 22) + Formatting.padded("rules", 9, right: true) + Formatting.padded("ours", 10, right: true)
            + Formatting.padded("WebKit", 10, right: true) + Formatting.padded("WebKit/ours", 13, right: true))
        var rows = [
            (Self.trackerListName, engine.ruleCount, engine.compile.median),
            (Self.duckDuckGoListName, duckDuckGoRuleCount, duckDuckGoCompile.median),
        ]
        if let largest = scaling?.sizes.last { rows.append((Self.syntheticListName, largest.ruleCount, largest.compile.median)) }
        for (name, rules, ours) in rows {
            let webKitTime = webKit.lists.first { $0.name == name }?.samples.median
            lines.append("   " + Formatting.padded(name, 22) + Formatting.padded(Formatting.grouped(rules), 9, right: true)
                + Formatting.padded(ms(ours), 10, right: true) + Formatting.padded(webKitTime.map(ms) ?? "-", 10, right: true)
                + Formatting.padded(webKitRatio(name).map { Formatting.decimal($0, digits: 1) + "x" } ?? "-", 13, right: true))
        }
        if let ratio = webKitRatio(Self.trackerListName) {
            lines.append("   goal: apple-tds >= \(Formatting.decimal(Self.webKitRatioGoal, digits: 0))x faster than WebKit: \(verdict(ratio >= Self.webKitRatioGoal))")
        }
        let fromJSON = [
            (Self.syntheticListName, scaling?.sizes.last.map { ($0.ruleCount, $0.compileFromJSON.median) }),
            (Self.hostsOnlyListName, scaling?.hostsOnly.map { ($0.ruleCount, $0.compileFromJSON.median) }),
        ]
        for case let (name, (ruleCount, milliseconds)?) in fromJSON {
            guard let ratio = webKitRatioFromJSON(name) else { continue }
            lines.append("   \(name) from its JSON (RuleList(parsing:) + compile): \(ms(milliseconds)) ms, "
                + "\(Formatting.decimal(1 / ratio, digits: 3)) of WebKit's time"
                + (ruleCount >= RuleList.maximumRuleCount
                    ? "; goal <= \(Formatting.decimal(Self.fromJSONShareGoal, digits: 1)): \(verdict(1 / ratio <= Self.fromJSONShareGoal))" : ""))
        }
        if let largest = scaling?.sizes.last, largest.ruleCount >= RuleList.maximumRuleCount {
            lines.append("   goal: \(Formatting.grouped(largest.ruleCount)) rules in <= \(ms(Self.largestCompileGoalMilliseconds)) ms: \(verdict(largest.compile.median <= Self.largestCompileGoalMilliseconds))")
        }
        return lines
    }

    private var scalingSection: [String] {
        guard let scaling else { return ["", "7. Scaling: skipped (--scaling-sizes none)"] }
        var lines = [
            "",
            "7. Scaling: synthetic lists shaped like the builder's (\(Formatting.grouped(ScalingBenchmark.requestCount)) requests, pages of \(ScalingBenchmark.requestsPerPage), \(options.passes) passes)",
            "   " + Formatting.padded("rules", 9, right: true) + Formatting.padded("JSON", 10, right: true) + Formatting.padded("compile ms", 12, right: true)
                + Formatting.padded("from JSON", 11, right: true)
                + Formatting.padded("memory", 10, right: true) + Formatting.padded("file", 10, right: true)
                + Formatting.padded("median ns", 11, right: true) + Formatting.padded("p99 ns", 11, right: true)
                + Formatting.padded("fresh ns", 10, right: true) + Formatting.padded("blocked", 9, right: true),
        ]
        for size in scaling.sizes {
            lines.append("   " + Formatting.padded(Formatting.grouped(size.ruleCount), 9, right: true)
                + Formatting.padded(Formatting.megabytes(size.byteCount), 10, right: true)
                + Formatting.padded(ms(size.compile.median), 12, right: true)
                + Formatting.padded(ms(size.compileFromJSON.median), 11, right: true)
                + Formatting.padded(Formatting.megabytes(size.memoryFootprint), 10, right: true)
                + Formatting.padded(Formatting.megabytes(size.compiledByteCount), 10, right: true)
                + Formatting.padded(ns(size.reusedCache.median), 11, right: true)
                + Formatting.padded(ns(size.reusedCache.p99), 11, right: true)
                + Formatting.padded(ns(size.freshCache.median), 10, right: true)
                + Formatting.padded(Formatting.grouped(size.reusedCache.blockedCount), 9, right: true))
        }
        if let growth = scaling.decisionGrowth {
            lines.append("   decision median, largest list / smallest: \(Formatting.decimal(growth, digits: 2))x (1 = flat)")
        }
        lines.append("   (times include the timer; memory, file and JSON in MB = 10^6 bytes)")
        return lines
    }

    private func latencyRow(_ name: String, _ latencies: EngineBenchmark.Latencies) -> String {
        "   " + Formatting.padded(name, 44)
            + numbers(ns(latencies.median), ns(latencies.p99), ns(latencies.netMedian), ns(latencies.netP99), Formatting.grouped(latencies.blockedCount))
    }

    private func numbers(_ values: String...) -> String {
        values.map { Formatting.padded($0, 11, right: true) }.joined()
    }

    private func verdict(_ met: Bool) -> String { met ? "met" : "NOT met" }

    private func ns(_ value: Double) -> String { Formatting.grouped(Int(value.rounded())) }

    private func ms(_ value: Double) -> String { Formatting.decimal(value, digits: 1) }
}

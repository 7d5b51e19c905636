/// The report as a table for people.
extension BenchmarkReport {
    /// The whole report, one section per benchmark.
    var table: String {
        ([header] + pipelineSection + variantSection + webKitSection + parsingSection + decisionSection + engine.sections)
            .joined(separator: "\n") + "\n"
    }

    private var header: String {
        var lines = ["Trackerless benchmarks"]
        if !Self.isReleaseBuild { lines.append("WARNING: debug build; run with -c release for figures that mean anything") }
        lines.append("tds:        \(options.displayPath(options.trackerDataPath)) (\(Formatting.grouped(pipeline.trackerCount)) trackers)")
        lines.append("DDG rules:  \(options.displayPath(options.duckDuckGoRulesPath))")
        lines.append("load avg:   \(loadBefore.map(\.description) ?? "?") at start, \(loadAfter.map(\.description) ?? "?") at end (1, 5, 15 min)")
        lines.append("runs:       \(options.runs) timed after one warm-up (in-process); \(options.webKitRuns) per list (WebKit)")
        return lines.joined(separator: "\n")
    }

    private var pipelineSection: [String] {
        let stages = pipeline.stages
        var lines = ["", "1. Generation pipeline, default settings (ms)", row("stage", "median", "min")]
        lines.append(row("read tds.json", stages.read))
        lines.append(row("parse (JSON + TrackerData)", stages.parse))
        lines.append(row("build (RuleListBuilder)", stages.build))
        lines.append(row("encode (encoded())", stages.encode))
        lines.append(row("total", stages.total))
        lines.append("   ours:       \(Formatting.grouped(pipeline.ruleCount)) rules in \(pipeline.listCount) list(s), \(Formatting.grouped(pipeline.byteCount)) bytes (\(Formatting.megabytes(pipeline.byteCount)))")
        lines.append("   DuckDuckGo: \(Formatting.grouped(duckDuckGoRuleCount)) rules, \(Formatting.grouped(duckDuckGoByteCount)) bytes (\(Formatting.megabytes(duckDuckGoByteCount)))")
        let encode = QuotedPeerFigures.encodeMilliseconds
        lines.append("   peer:       \(QuotedPeerFigures.source):")
        lines.append("               about \(ms(QuotedPeerFigures.totalMilliseconds)) ms (parse \(ms(QuotedPeerFigures.parseMilliseconds)), build \(ms(QuotedPeerFigures.buildMilliseconds)), encode \(ms(encode.lowerBound))-\(ms(encode.upperBound))) for \(Formatting.grouped(QuotedPeerFigures.ruleCount)) rules, \(Formatting.megabytes(QuotedPeerFigures.byteCount))")
        let comparison = pipelineRatioToPeer <= 1
            ? "\(Formatting.decimal(1 / pipelineRatioToPeer, digits: 1))x faster"
            : "\(Formatting.decimal(pipelineRatioToPeer, digits: 1))x slower"
        lines.append("   ours / quoted peer, total: \(Formatting.decimal(pipelineRatioToPeer, digits: 3)) (\(comparison); the peer figure is quoted, not measured in this run)")
        return lines
    }

    private var variantSection: [String] {
        var lines = ["", "   Builder settings compared (build ms)", "   " + [
            Formatting.padded("settings", 22), Formatting.padded("rules", 8, right: true),
            Formatting.padded("bytes", 12, right: true), Formatting.padded("median", 10, right: true),
            Formatting.padded("min", 10, right: true),
        ].joined()]
        for variant in variants {
            lines.append("   " + [
                Formatting.padded(variant.name, 22), Formatting.padded(Formatting.grouped(variant.ruleCount), 8, right: true),
                Formatting.padded(Formatting.grouped(variant.byteCount), 12, right: true),
                Formatting.padded(ms(variant.build.median), 10, right: true), Formatting.padded(ms(variant.build.minimum), 10, right: true),
            ].joined())
        }
        return lines
    }

    private var webKitSection: [String] {
        var lines = ["", "2. WebKit content-blocker compile time (WebKitGTK, one process, lists interleaved; seconds)"]
        if let reason = webKit.skipReason {
            lines.append("   skipped: \(reason)")
            return lines
        }
        lines.append("   " + [
            Formatting.padded("list", 22), Formatting.padded("rules", 8, right: true), Formatting.padded("median", 10, right: true),
            Formatting.padded("min", 10, right: true), Formatting.padded("runs", 6, right: true), Formatting.padded("/ DDG", 9, right: true),
        ].joined())
        let ratios = Dictionary(webKitRatios.map { ($0.name, $0.ratio) }, uniquingKeysWith: { first, _ in first })
        for list in webKit.lists {
            lines.append("   " + [
                Formatting.padded(list.name, 22), Formatting.padded(Formatting.grouped(list.ruleCount), 8, right: true),
                Formatting.padded(Formatting.decimal(list.samples.median / 1_000, digits: 3), 10, right: true),
                Formatting.padded(Formatting.decimal(list.samples.minimum / 1_000, digits: 3), 10, right: true),
                Formatting.padded(String(list.samples.milliseconds.count), 6, right: true),
                Formatting.padded(ratios[list.name].map { Formatting.decimal($0, digits: 3) } ?? "1", 9, right: true),
            ].joined())
        }
        if let ratio = ratios["default"] {
            let verdict = ratio <= Self.webKitGoal ? "met" : "NOT met"
            lines.append("   goal: default list / DuckDuckGo's <= \(Formatting.decimal(Self.webKitGoal, digits: 2)) (medians): \(verdict) (\(Formatting.decimal(ratio, digits: 3)))")
        }
        return lines
    }

    private var parsingSection: [String] {
        [
            "", "3. Parsing and validating like WebKit, RuleList(parsing:) (ms)", row("list", "median", "min"),
            row("DuckDuckGo's (\(Formatting.grouped(parsing.duckDuckGoRuleCount)) rules)", parsing.duckDuckGo),
            row("ours, default (\(Formatting.grouped(parsing.ourRuleCount)) rules)", parsing.ours),
        ]
    }

    private var decisionSection: [String] {
        var lines = [
            "", "4. Decisions, \(Formatting.grouped(decisions.deciders.first?.requestCount ?? 0)) requests on \(DecisionBenchmark.site) (ns per decision; informative)",
            row("decider", "median", "min") + Formatting.padded("blocked", 10, right: true),
        ]
        for decider in decisions.deciders {
            lines.append(
                "   " + Formatting.padded(decider.name, 40)
                    + Formatting.padded(Formatting.grouped(Int(decider.medianNanoseconds.rounded())), 10, right: true)
                    + Formatting.padded(Formatting.grouped(Int(decider.minimumNanoseconds.rounded())), 10, right: true)
                    + Formatting.padded(Formatting.grouped(decider.blockedCount), 10, right: true))
        }
        lines.append("   (the resolver includes URL canonicalization; the evaluator is a reference, not WebKit's DFA)")
        return lines
    }

    private func row(_ label: String, _ samples: Samples) -> String {
        row(label, ms(samples.median), ms(samples.minimum))
    }

    private func row(_ label: String, _ median: String, _ minimum: String) -> String {
        "   " + Formatting.padded(label, 40) + Formatting.padded(median, 10, right: true) + Formatting.padded(minimum, 10, right: true)
    }

    private func ms(_ value: Double) -> String { Formatting.decimal(value, digits: 1) }
}

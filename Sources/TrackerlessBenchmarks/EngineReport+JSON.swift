import TrackerlessCore

/// The engine report as JSON for scripts: times in milliseconds, per-request times in
/// nanoseconds, sizes in bytes.
extension EngineReport {
    /// The engine sections as one JSON object.
    var json: JSONValue {
        object([
            ("releaseBuild", .bool(BenchmarkReport.isReleaseBuild)),
            ("loadAverage", object([("start", load(loadBefore)), ("end", load(loadAfter))])),
            ("engine", object([
                ("rules", number(engine.ruleCount)), ("compile", samples(engine.compile)),
                ("memoryFootprint", number(engine.memoryFootprint)), ("compiledBytes", number(engine.compiledByteCount)),
                ("load", samples(engine.load.total)), ("loadRead", samples(engine.load.read)),
                ("loadInit", samples(engine.load.initialization)), ("loadedEngineAgrees", .bool(engine.loadedEngineAgrees)),
                ("referenceDisagreements", number(engine.referenceDisagreements)),
                ("requests", number(engine.requestCount)), ("passes", number(engine.passes)),
                ("reusedCache", latencies(engine.reusedCache)), ("freshCache", latencies(engine.freshCache)),
            ])),
            ("adblockRust", peerJSON),
            ("ratioToAdblockRust", peerRatio.map(JSONValue.number) ?? .null),
            ("ratioToAdblockRustFreshCache", peerRatioFreshCache.map(JSONValue.number) ?? .null),
            ("duckDuckGoListCompile", samples(duckDuckGoCompile)), ("duckDuckGoListRules", number(duckDuckGoRuleCount)),
            ("webKitCompile", webKitJSON),
            ("scaling", scaling.map(scalingJSON) ?? .null),
        ])
    }

    private var peerJSON: JSONValue {
        guard let figures = peer.figures else { return object([("unavailable", .string(peer.unavailableReason ?? "?"))]) }
        return object([
            ("version", .string(figures.version)), ("filters", number(figures.filterCount)),
            ("regexFilters", number(figures.regexFilterCount)), ("compileMs", .number(figures.compileMilliseconds)),
            ("requests", number(figures.requestCount)), ("passes", number(figures.passes)),
            ("medianNs", .number(figures.medianNanoseconds)), ("p99Ns", .number(figures.p99Nanoseconds)),
            ("overheadNs", .number(figures.overheadNanoseconds)), ("netMedianNs", .number(figures.netMedianNanoseconds)),
            ("netP99Ns", .number(figures.netP99Nanoseconds)),
            ("emptyEngineMedianNs", figures.emptyEngineMedianNanoseconds.map(JSONValue.number) ?? .null),
            ("blocked", number(figures.blockedCount)),
        ])
    }

    private var webKitJSON: JSONValue {
        if let reason = webKit.skipReason { return object([("skipped", .string(reason))]) }
        return .array(webKit.lists.map { list in
            object([
                ("name", .string(list.name)), ("rules", number(list.ruleCount)), ("bytes", number(list.byteCount)),
                ("compile", samples(list.samples)), ("ratioToOurs", webKitRatio(list.name).map(JSONValue.number) ?? .null),
            ])
        })
    }

    private func scalingJSON(_ scaling: ScalingBenchmark) -> JSONValue {
        object([
            ("requests", number(ScalingBenchmark.requestCount)), ("requestsPerPage", number(ScalingBenchmark.requestsPerPage)),
            ("sizes", .array(scaling.sizes.map { size in
                object([
                    ("rules", number(size.ruleCount)), ("bytes", number(size.byteCount)), ("compile", samples(size.compile)), ("compileFromJSON", samples(size.compileFromJSON)),
                    ("memoryFootprint", number(size.memoryFootprint)), ("compiledBytes", number(size.compiledByteCount)),
                    ("reusedCache", latencies(size.reusedCache)), ("freshCache", latencies(size.freshCache)),
                ])
            })),
            ("decisionGrowth", scaling.decisionGrowth.map(JSONValue.number) ?? .null),
            ("hostsOnly", scaling.hostsOnly.map { hostsOnly in
                object([
                    ("rules", number(hostsOnly.ruleCount)), ("bytes", number(hostsOnly.json.count)),
                    ("compileFromJSON", samples(hostsOnly.compileFromJSON)),
                ])
            } ?? .null),
        ])
    }

    private func latencies(_ latencies: EngineBenchmark.Latencies) -> JSONValue {
        object([
            ("medianNs", .number(latencies.median)), ("p99Ns", .number(latencies.p99)),
            ("timerOverheadNs", .number(latencies.timerOverhead)), ("netMedianNs", .number(latencies.netMedian)),
            ("netP99Ns", .number(latencies.netP99)), ("blocked", number(latencies.blockedCount)),
        ])
    }

    private func samples(_ samples: Samples) -> JSONValue {
        object([("medianMs", .number(samples.median)), ("minMs", .number(samples.minimum)), ("runs", number(samples.milliseconds.count))])
    }

    private func load(_ load: LoadAverage?) -> JSONValue {
        guard let load else { return .null }
        return .array([.number(load.lastMinute), .number(load.lastFiveMinutes), .number(load.lastFifteenMinutes)])
    }

    private func object(_ members: [(String, JSONValue)]) -> JSONValue { .object(JSONObject(members)) }

    private func number(_ value: Int) -> JSONValue { .number(Double(value)) }
}

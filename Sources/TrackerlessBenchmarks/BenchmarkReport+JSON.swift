import TrackerlessCore

/// The report as JSON for scripts: times in milliseconds (WebKit's too), sizes in bytes.
extension BenchmarkReport {
    /// The whole report as one JSON object.
    var json: JSONValue {
        object([
            ("releaseBuild", .bool(Self.isReleaseBuild)),
            ("inputs", object([
                ("tds", .string(options.trackerDataPath)), ("duckDuckGoRules", .string(options.duckDuckGoRulesPath)),
                ("requests", .string(options.requestsPath)), ("runs", number(options.runs)), ("webKitRuns", number(options.webKitRuns)),
            ])),
            ("loadAverage", object([("start", load(loadBefore)), ("end", load(loadAfter))])),
            ("pipeline", pipelineJSON),
            ("variants", .array(variants.map(variantJSON))),
            ("webKitCompile", webKitJSON),
            ("parsing", object([
                ("duckDuckGo", samples(parsing.duckDuckGo)), ("duckDuckGoRules", number(parsing.duckDuckGoRuleCount)),
                ("ours", samples(parsing.ours)), ("ourRules", number(parsing.ourRuleCount)),
            ])),
            ("decisions", object([
                ("site", .string(DecisionBenchmark.site)),
                ("deciders", .array(decisions.deciders.map(deciderJSON))),
            ])),
            ("engine", engine.json),
        ])
    }

    private var pipelineJSON: JSONValue {
        let stages = pipeline.stages
        return object([
            ("read", samples(stages.read)), ("parse", samples(stages.parse)), ("build", samples(stages.build)),
            ("encode", samples(stages.encode)), ("total", samples(stages.total)),
            ("rules", number(pipeline.ruleCount)), ("lists", number(pipeline.listCount)), ("bytes", number(pipeline.byteCount)),
            ("duckDuckGoRules", number(duckDuckGoRuleCount)), ("duckDuckGoBytes", number(duckDuckGoByteCount)),
            ("quotedPeer", object([
                ("source", .string(QuotedPeerFigures.source)),
                ("totalMs", .number(QuotedPeerFigures.totalMilliseconds)),
                ("parseMs", .number(QuotedPeerFigures.parseMilliseconds)),
                ("buildMs", .number(QuotedPeerFigures.buildMilliseconds)),
                ("encodeMs", .array([.number(QuotedPeerFigures.encodeMilliseconds.lowerBound), .number(QuotedPeerFigures.encodeMilliseconds.upperBound)])),
                ("rules", number(QuotedPeerFigures.ruleCount)), ("bytes", number(QuotedPeerFigures.byteCount)),
            ])),
            ("ratioToQuotedPeer", .number(pipelineRatioToPeer)),
        ])
    }

    private func variantJSON(_ variant: RuleListVariant) -> JSONValue {
        object([
            ("name", .string(variant.name)), ("rules", number(variant.ruleCount)),
            ("lists", number(variant.encodedLists.count)), ("bytes", number(variant.byteCount)), ("build", samples(variant.build)),
        ])
    }

    private var webKitJSON: JSONValue {
        if let reason = webKit.skipReason { return object([("skipped", .string(reason))]) }
        let ratios = webKitRatios.map { object([("name", .string($0.name)), ("ratioToDuckDuckGo", .number($0.ratio))]) }
        return object([
            ("lists", .array(webKit.lists.map { list in
                object([("name", .string(list.name)), ("rules", number(list.ruleCount)), ("bytes", number(list.byteCount)), ("compile", samples(list.samples))])
            })),
            ("ratios", .array(ratios)), ("goal", .number(Self.webKitGoal)),
        ])
    }

    private func deciderJSON(_ decider: DecisionBenchmark.Throughput) -> JSONValue {
        object([
            ("name", .string(decider.name)), ("requests", number(decider.requestCount)), ("blocked", number(decider.blockedCount)),
            ("medianNs", .number(decider.medianNanoseconds)), ("minNs", .number(decider.minimumNanoseconds)),
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

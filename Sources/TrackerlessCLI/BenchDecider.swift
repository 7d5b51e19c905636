import ContentRuleList
import RuleEngineKit

/// What `bench` times: one decision at a time, passes over the requests.
protocol BenchDecider {
    /// Called before each pass: a fresh page cache, as for a new browsing session.
    mutating func startPass()
    /// Decides one load.
    mutating func isBlocked(_ request: Request) -> Bool
}

/// One rule engine, with one page cache for the pass or none.
struct EngineDecider: BenchDecider {
    let engine: RuleEngine
    let usesPageCache: Bool
    var cache = RuleEngine.PageCache()

    init(engine: RuleEngine, usesPageCache: Bool) {
        self.engine = engine
        self.usesPageCache = usesPageCache
    }

    mutating func startPass() { cache = RuleEngine.PageCache() }

    mutating func isBlocked(_ request: Request) -> Bool {
        usesPageCache ? engine.decision(for: request, cache: &cache).isBlocked : engine.decision(for: request).isBlocked
    }
}

/// Several engines (compiled files besides JSON lists), deciding together.
struct GroupDecider: BenchDecider {
    let engines: EngineGroup
    let usesPageCache: Bool
    var cache: EngineGroup.PageCache

    init(engines: EngineGroup, usesPageCache: Bool) {
        self.engines = engines
        self.usesPageCache = usesPageCache
        cache = engines.makePageCache()
    }

    mutating func startPass() { cache = engines.makePageCache() }

    mutating func isBlocked(_ request: Request) -> Bool {
        if usesPageCache { return engines.isBlocked(request, cache: &cache) }
        var fresh = engines.makePageCache()
        return engines.isBlocked(request, cache: &fresh)
    }
}

/// The reference evaluator, which keeps nothing between loads.
struct ReferenceDecider: BenchDecider {
    let evaluator: ReferenceEvaluator

    mutating func startPass() {}

    mutating func isBlocked(_ request: Request) -> Bool { evaluator.actions(for: request).isBlocked }
}

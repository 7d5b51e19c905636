import ContentRuleList
import RuleEngineKit

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

import ContentRuleList
import RuleEngineKit

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

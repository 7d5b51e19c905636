import ContentRuleList
import RuleEngineKit

/// The engines of `--rules`, deciding together as WebKit combines installed rule lists: each list
/// on its own, the results list after list, blocked when any list blocks.
///
/// A compiled engine cannot be merged with other lists, so `--rules compiled.bin --rules extra.json`
/// makes two engines whose answers are joined here.
struct EngineGroup: Sendable {
    /// The engines, in the order of their files.
    let engines: [RuleEngine]

    /// What each engine keeps between loads of the same page.
    struct PageCache: Sendable {
        var caches: [RuleEngine.PageCache]
    }

    init(_ engines: [RuleEngine]) {
        self.engines = engines
    }

    /// An empty cache for every engine.
    func makePageCache() -> PageCache {
        PageCache(caches: engines.map { _ in RuleEngine.PageCache() })
    }

    /// The number of rule lists in all engines.
    var ruleListCount: Int { engines.reduce(0) { $0 + $1.ruleListCount } }

    /// The compiled tables of all engines, in bytes.
    var memoryFootprint: Int { engines.reduce(0) { $0 + $1.memoryFootprint } }

    /// What the lists apply to the load, list by list, each action with the index of its rule.
    func actions(for request: Request, cache: inout PageCache) -> AppliedActions {
        if engines.count == 1, let engine = engines.first, !cache.caches.isEmpty {
            return engine.actions(for: request, cache: &cache.caches[0])
        }
        var lists: [AppliedActions.ListActions] = []
        var isChecked = true
        var upgradesToHTTPS = false
        for index in engines.indices where index < cache.caches.count {
            let applied = engines[index].actions(for: request, cache: &cache.caches[index])
            lists += applied.lists
            // isChecked depends on the URL alone; the load is upgraded when any list upgrades it.
            isChecked = isChecked && applied.isChecked
            upgradesToHTTPS = upgradesToHTTPS || applied.upgradesToHTTPS
        }
        return AppliedActions(lists: lists, isChecked: isChecked, upgradesToHTTPS: upgradesToHTTPS)
    }

    /// Whether any list blocks the load. Every engine decides, as every installed list would.
    func isBlocked(_ request: Request, cache: inout PageCache) -> Bool {
        if engines.count == 1, let engine = engines.first, !cache.caches.isEmpty {
            return engine.decision(for: request, cache: &cache.caches[0]).isBlocked
        }
        var isBlocked = false
        for index in engines.indices where index < cache.caches.count {
            if engines[index].decision(for: request, cache: &cache.caches[index]).isBlocked { isBlocked = true }
        }
        return isBlocked
    }
}

import Foundation
import TrackerData

/// What a ``PrivacyStats`` has learnt from the resolver, shared by all its tabs: which hosts can
/// never be trackers, and per site host the classification of each (URL, type) it has seen.
///
/// Both are functions of the resolver's inputs, so a cached answer is the resolver's answer.
/// Bounded: each table is emptied when it reaches its cap, which costs only recomputation.
/// Locked, so copies of a ``PageStats`` holding it stay safe on any thread.
final class ClassificationCache: @unchecked Sendable {
    /// A locked dictionary emptied when it reaches `maxEntries`.
    final class Table<Key: Hashable, Value>: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [Key: Value] = [:]
        let maxEntries: Int

        init(maxEntries: Int) { self.maxEntries = maxEntries }

        subscript(key: Key) -> Value? {
            lock.lock()
            defer { lock.unlock() }
            return entries[key]
        }

        func store(_ value: Value, for key: Key) {
            lock.lock()
            defer { lock.unlock() }
            if entries.count >= maxEntries { entries.removeAll(keepingCapacity: true) }
            entries[key] = value
        }
    }

    /// One site's classifications, by (URL, type).
    typealias SiteTable = Table<RequestKey, RequestClassification>

    /// Whether each host seen can never be a tracker.
    let plainHosts: Table<String, Bool>
    private let sites: Table<String, SiteTable>
    let maxEntriesPerSite: Int

    init(maxHosts: Int = 16_384, maxSites: Int = 256, maxEntriesPerSite: Int = 8192) {
        plainHosts = Table(maxEntries: maxHosts)
        sites = Table(maxEntries: maxSites)
        self.maxEntriesPerSite = maxEntriesPerSite
    }

    /// The table of a site host, created on first use; pages of one site share it. Pages still
    /// holding a table dropped at the cap keep using it; it is only no longer shared.
    func table(forSite host: String) -> SiteTable {
        if let table = sites[host] { return table }
        let table = SiteTable(maxEntries: maxEntriesPerSite)
        sites.store(table, for: host)
        return table
    }
}

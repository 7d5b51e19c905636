import Foundation
import TrackerData

/// What a ``PrivacyStats`` has learnt from the resolver, shared by all its tabs: which hosts can
/// never be trackers, and per site host the classification of each (URL, type) it has seen.
///
/// Both are functions of the resolver's inputs, so a cached answer is the resolver's answer.
/// Bounded: each table is emptied when it reaches its cap, which costs only recomputation.
/// Locked, so copies of a ``PageStats`` holding it stay safe on any thread.
final class ClassificationCache: @unchecked Sendable {
    /// The classifications of one site's requests, by (URL, type).
    final class SiteTable: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [RequestKey: RequestClassification] = [:]
        let maxEntries: Int

        init(maxEntries: Int) { self.maxEntries = maxEntries }

        func classification(for key: RequestKey) -> RequestClassification? {
            lock.lock()
            defer { lock.unlock() }
            return entries[key]
        }

        func store(_ classification: RequestClassification, for key: RequestKey) {
            lock.lock()
            defer { lock.unlock() }
            if entries.count >= maxEntries { entries.removeAll(keepingCapacity: true) }
            entries[key] = classification
        }
    }

    private let lock = NSLock()
    private var plainHosts: [String: Bool] = [:]
    private var sites: [String: SiteTable] = [:]
    let maxHosts: Int
    let maxSites: Int
    let maxEntriesPerSite: Int

    init(maxHosts: Int = 16_384, maxSites: Int = 256, maxEntriesPerSite: Int = 8192) {
        self.maxHosts = maxHosts
        self.maxSites = maxSites
        self.maxEntriesPerSite = maxEntriesPerSite
    }

    /// The table of a site host, created on first use; pages of one site share it.
    func table(forSite host: String) -> SiteTable {
        lock.lock()
        defer { lock.unlock() }
        if let table = sites[host] { return table }
        // Pages still holding a dropped table keep using it; it is only no longer shared.
        if sites.count >= maxSites { sites.removeAll(keepingCapacity: true) }
        let table = SiteTable(maxEntries: maxEntriesPerSite)
        sites[host] = table
        return table
    }

    func isPlainHost(_ host: String) -> Bool? {
        lock.lock()
        defer { lock.unlock() }
        return plainHosts[host]
    }

    func storePlainHost(_ host: String, _ isPlain: Bool) {
        lock.lock()
        defer { lock.unlock() }
        if plainHosts.count >= maxHosts { plainHosts.removeAll(keepingCapacity: true) }
        plainHosts[host] = isPlain
    }
}

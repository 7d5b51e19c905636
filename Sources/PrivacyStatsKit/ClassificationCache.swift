import Foundation
import TrackerDataKit
import TrackerlessCore

/// What a ``PrivacyStats`` has learnt from the resolver, shared by all its tabs: each host's
/// registrable domain and whether it can never be a tracker, the host of each URL authority, the
/// parsed URLs of requests to possible trackers, and per site host the classification of each
/// (URL, type) it has seen.
///
/// All are functions of the resolver's inputs (or of the URL alone), so a cached answer is the
/// resolver's answer.
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

    /// What is known of each host seen.
    let hosts: Table<String, HostInfo>
    /// The host of each raw URL authority seen (``RequestClassifier/authorityRange(in:)``).
    let authorities: AuthorityTable
    /// Request URLs on hosts that may be trackers, parsed.
    let trackerURLs: Table<String, CanonicalURL>
    private let sites: Table<String, SiteTable>
    let maxEntriesPerSite: Int

    init(maxHosts: Int = 16_384, maxTrackerURLs: Int = 4096, maxSites: Int = 256, maxEntriesPerSite: Int = 8192) {
        hosts = Table(maxEntries: maxHosts)
        authorities = AuthorityTable(maxEntries: maxHosts)
        trackerURLs = Table(maxEntries: maxTrackerURLs)
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

import Foundation
import TrackerData

/// What a ``PrivacyStats`` has learnt from the resolver, shared by all its tabs: each host's
/// registrable domain and whether it can never be a tracker, the host of each URL authority, and
/// per site host the classification of each (URL, type) it has seen.
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

    /// What is known of each host seen.
    let hosts: Table<String, HostInfo>
    /// The host of each raw URL authority seen (``RequestClassifier/authority(of:)``).
    let authorities: Table<Substring, HostInfo>
    private let sites: Table<String, SiteTable>
    let maxEntriesPerSite: Int

    init(maxHosts: Int = 16_384, maxSites: Int = 256, maxEntriesPerSite: Int = 8192) {
        hosts = Table(maxEntries: maxHosts)
        authorities = Table(maxEntries: maxHosts)
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

/// What the statistics know of one request host, whatever the site: its registrable domain,
/// whether it can never be a tracker, and the classification its requests share when it cannot.
final class HostInfo: Sendable {
    /// The host; "" for an authority that does not parse.
    let host: String
    /// Its registrable domain (eTLD+1), or the host itself.
    let domain: String
    /// Whether no tracker, CNAME or request-blocklist entry can apply to a URL on it.
    let isPlain: Bool
    /// The classification of its requests on a site of the same registrable domain, when plain.
    let firstParty: RequestClassification
    /// The classification of its requests on other sites, when plain.
    let thirdParty: RequestClassification

    init(host: String, domain: String, isPlain: Bool) {
        self.host = host
        self.domain = domain
        self.isPlain = isPlain
        firstParty = RequestClassification(host: host, isThirdParty: false)
        thirdParty = RequestClassification(host: host, isThirdParty: true)
    }

    static let unparseable = HostInfo(host: "", domain: "", isPlain: true)
}

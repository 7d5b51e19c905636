import Foundation
import TrackerData

/// What a ``PrivacyStats`` has learnt from the resolver, shared by all its tabs: which hosts can
/// never be trackers, and the classification of each (URL, type, site host) it has seen.
///
/// Both are functions of the resolver's inputs, so a cached answer is the resolver's answer.
/// Bounded: each table is emptied when it reaches its cap, which costs only recomputation.
/// Locked, so copies of a ``PageStats`` holding it stay safe on any thread.
final class ClassificationCache: @unchecked Sendable {
    struct Key: Hashable {
        var url: String
        var type: RequestType
        var siteHost: String
    }

    private let lock = NSLock()
    private var plainHosts: [String: Bool] = [:]
    private var classifications: [Key: RequestClassification] = [:]
    let maxHosts: Int
    let maxClassifications: Int

    init(maxHosts: Int = 16_384, maxClassifications: Int = 65_536) {
        self.maxHosts = maxHosts
        self.maxClassifications = maxClassifications
    }

    func classification(for key: Key) -> RequestClassification? {
        lock.lock()
        defer { lock.unlock() }
        return classifications[key]
    }

    func store(_ classification: RequestClassification, for key: Key) {
        lock.lock()
        defer { lock.unlock() }
        if classifications.count >= maxClassifications { classifications.removeAll(keepingCapacity: true) }
        classifications[key] = classification
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

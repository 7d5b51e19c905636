public import TrackerlessCore

/// The tracker domains of each Firefox category: what Firefox's generator reads from the
/// normalized shavar lists, derived here from Disconnect's list or read from those files.
public struct CategoryLists: Sendable, Hashable {
    /// The domains of each category, sorted, without duplicates; a category without domains
    /// maps to an empty array.
    public let domains: [FirefoxCategory: [TrackerDomain]]

    /// Creates the lists from domains per category; they are sorted and deduplicated.
    public init(domains: [FirefoxCategory: [TrackerDomain]]) {
        self.init(sets: domains.mapValues(Set.init))
    }

    private init(sets: [FirefoxCategory: Set<TrackerDomain>]) {
        var sorted: [FirefoxCategory: [TrackerDomain]] = [:]
        for category in FirefoxCategory.listCategories {
            sorted[category] = (sets[category] ?? []).sorted()
        }
        self.domains = sorted
    }

    /// Derives the lists from Disconnect's list as shavar-list-creation does for the lists
    /// Firefox uses.
    ///
    /// Each category takes the Disconnect category of the same name; fingerprinting takes the
    /// `FingerprintingInvasive` domains that are also advertising, analytics, social or content
    /// trackers. Domains of services tagged `dnt` are left out everywhere.
    public init(_ list: DisconnectList) {
        var byCategory: [DisconnectCategory: Set<TrackerDomain>] = [:]
        var doNotTrack: Set<TrackerDomain> = []
        for service in list.services {
            byCategory[service.category, default: []].formUnion(service.domains)
            if service.honorsDoNotTrack { doNotTrack.formUnion(service.domains) }
        }
        func domains(_ category: DisconnectCategory) -> Set<TrackerDomain> { byCategory[category] ?? [] }
        let tracking = domains(.advertising).union(domains(.analytics)).union(domains(.social))
            .union(domains(.content))
        let derived: [FirefoxCategory: Set<TrackerDomain>] = [
            .advertising: domains(.advertising),
            .analytics: domains(.analytics),
            .social: domains(.social),
            .content: domains(.content),
            .cryptomining: domains(.cryptomining),
            .fingerprinting: domains(.fingerprintingInvasive).intersection(tracking),
        ]
        self.init(sets: doNotTrack.isEmpty ? derived : derived.mapValues { $0.subtracting(doNotTrack) })
    }

    /// The domains of one category, sorted.
    public subscript(category: FirefoxCategory) -> [TrackerDomain] {
        domains[category] ?? []
    }

    /// Reads one normalized shavar list (`ads-track-digest256.json`): a JSON array of domains.
    ///
    /// - Throws: ``DisconnectListError`` naming the file and the element: invalid JSON, not an
    ///   array of strings, a string that is not a domain or is a public suffix.
    public static func parseNormalizedList(
        _ bytes: [UInt8], file: String, publicSuffixList: PublicSuffixList = .bundled
    ) throws(DisconnectListError) -> [TrackerDomain] {
        let reader = DocumentReader(file: file, publicSuffixList: publicSuffixList)
        return try reader.read(bytes) { (json) throws(JSONReadError) in try reader.trackerDomains(&json, at: .root) }
    }
}

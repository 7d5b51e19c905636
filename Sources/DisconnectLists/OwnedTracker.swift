import TrackerlessCore

/// A tracker domain with the sites on which it is first party: its owner's properties.
struct OwnedTracker: Sendable, Hashable {
    var domain: TrackerDomain
    /// The owner's properties, sorted, without duplicates; empty when no entity owns the domain.
    var ownerProperties: [String]

    /// The trackers of every category with their owners' properties. Entities are looked up once
    /// per domain, and the property arrays of one entity are shared.
    static func resolve(
        _ categoryLists: CategoryLists, _ entityList: EntityList, publicSuffixList: PublicSuffixList
    ) -> [FirefoxCategory: [OwnedTracker]] {
        var propertiesByEntity: [String: [String]] = [:]
        var ownerByHost: [String: [String]] = [:]
        var result: [FirefoxCategory: [OwnedTracker]] = [:]
        for category in FirefoxCategory.allCases {
            result[category] = categoryLists[category].map { domain in
                if let known = ownerByHost[domain.host] {
                    return OwnedTracker(domain: domain, ownerProperties: known)
                }
                var properties: [String] = []
                if let owner = entityList.owner(of: domain.host, publicSuffixList: publicSuffixList) {
                    if let shared = propertiesByEntity[owner.name] {
                        properties = shared
                    } else {
                        properties = Array(Set(owner.properties)).sorted()
                        propertiesByEntity[owner.name] = properties
                    }
                }
                ownerByHost[domain.host] = properties
                return OwnedTracker(domain: domain, ownerProperties: properties)
            }
        }
        return result
    }
}

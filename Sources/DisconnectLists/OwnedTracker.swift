import TrackerlessCore

/// A tracker domain with the sites on which it is first party: its owner's properties.
struct OwnedTracker: Sendable, Hashable {
    var domain: TrackerDomain
    /// The owner's properties, sorted, without duplicates; empty when no entity owns the domain.
    var ownerProperties: [String]
    /// The same with `*` before each, as `unless-domain` takes them.
    var unlessDomain: [String]

    /// The trackers of every category with their owners' properties. Entities are looked up once
    /// per domain, and the property arrays of one entity are shared.
    static func resolve(
        _ categoryLists: CategoryLists, _ entityList: EntityList, publicSuffixList: PublicSuffixList
    ) -> [FirefoxCategory: [OwnedTracker]] {
        // One shared pair of arrays per entity: Google's 206 properties are not copied into
        // each of its hundreds of rules.
        var propertiesByEntity: [String: (plain: [String], starred: [String])] = [:]
        var ownerByHost: [String: (plain: [String], starred: [String])] = [:]
        var result: [FirefoxCategory: [OwnedTracker]] = [:]
        for category in FirefoxCategory.allCases {
            result[category] = categoryLists[category].map { domain in
                if let known = ownerByHost[domain.host] {
                    return OwnedTracker(domain: domain, ownerProperties: known.plain, unlessDomain: known.starred)
                }
                var properties: (plain: [String], starred: [String]) = ([], [])
                if let owner = entityList.owner(of: domain.host, publicSuffixList: publicSuffixList) {
                    if let shared = propertiesByEntity[owner.name] {
                        properties = shared
                    } else {
                        let plain = Array(Set(owner.properties)).sorted()
                        properties = (plain, plain.map { "*" + $0 })
                        propertiesByEntity[owner.name] = properties
                    }
                }
                ownerByHost[domain.host] = properties
                return OwnedTracker(domain: domain, ownerProperties: properties.plain, unlessDomain: properties.starred)
            }
        }
        return result
    }
}

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
        var propertiesByEntity = [(plain: [String], starred: [String])?](repeating: nil, count: entityList.entities.count)
        var result: [FirefoxCategory: [OwnedTracker]] = [:]
        for category in FirefoxCategory.listCategories {
            result[category] = categoryLists[category].map { domain in
                guard let index = entityList.ownerPosition(of: domain.host, publicSuffixList: publicSuffixList) else {
                    return OwnedTracker(domain: domain, ownerProperties: [], unlessDomain: [])
                }
                if let shared = propertiesByEntity[index] {
                    return OwnedTracker(domain: domain, ownerProperties: shared.plain, unlessDomain: shared.starred)
                }
                let plain = Array(Set(entityList.entities[index].properties)).sorted()
                let starred = plain.map { "*" + $0 }
                propertiesByEntity[index] = (plain, starred)
                return OwnedTracker(domain: domain, ownerProperties: plain, unlessDomain: starred)
            }
        }
        return result
    }
}

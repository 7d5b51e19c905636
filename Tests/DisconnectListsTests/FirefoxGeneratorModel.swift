import DisconnectLists

/// What Firefox for iOS's generator (BrowserKit `ContentBlockingGenerator`) writes for one
/// domain, modelled from its documented behaviour to compare our lists with: the url-filter
/// without a right anchor, and the owner found by exact resource, else by the first entity whose
/// resource is a substring of the domain (in dictionary order, so any of the candidates).
struct FirefoxGeneratorModel {
    /// Firefox's rule for one domain.
    struct Rule {
        /// `^https?://([^/]+\.)?` + the domain with dots escaped.
        var urlFilter: String
        /// The entities Firefox may take the `unless-domain` from: one for an exact resource,
        /// every substring candidate otherwise (Firefox picks one of them at random).
        var candidateOwners: [EntityList.Entity]
        /// Whether the owner came from the exact resource lookup.
        var isExact: Bool
    }

    let entityList: EntityList
    private let ownerByResource: [String: EntityList.Entity]

    init(entityList: EntityList) {
        self.entityList = entityList
        var owners: [String: EntityList.Entity] = [:]
        for entity in entityList.entities {
            for resource in entity.resources { owners[resource] = entity }
        }
        ownerByResource = owners
    }

    func rule(for domain: String) -> Rule {
        let filter = #"^https?://([^/]+\.)?"# + domain.replacingDots()
        if let owner = ownerByResource[domain] {
            return Rule(urlFilter: filter, candidateOwners: [owner], isExact: true)
        }
        var candidates: [String: EntityList.Entity] = [:]
        for (resource, entity) in ownerByResource where domain.contains(resource) {
            candidates[entity.name] = entity
        }
        return Rule(
            urlFilter: filter, candidateOwners: candidates.keys.sorted().compactMap { candidates[$0] }, isExact: false)
    }
}

extension String {
    fileprivate func replacingDots() -> String {
        var result = ""
        for character in self {
            if character == "." { result += "\\" }
            result.append(character)
        }
        return result
    }
}

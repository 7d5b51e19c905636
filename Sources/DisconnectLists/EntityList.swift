public import TrackerlessCore

/// Disconnect's entity list (`disconnect-entitylist.json`): which organisation owns which sites
/// (its properties) and serves which tracker domains (its resources).
///
/// Firefox treats a tracker as first party on every property of its owner: the rules for the
/// owner's resources carry the properties in `unless-domain`.
public struct EntityList: Sendable, Hashable {
    /// One organisation.
    public struct Entity: Sendable, Hashable {
        /// The organisation's name, for example `Google`.
        public var name: String
        /// The sites it owns, lowercase.
        public var properties: [String]
        /// The domains it serves third-party content from, lowercase.
        public var resources: [String]

        /// Creates an entity.
        public init(name: String, properties: [String], resources: [String]) {
            self.name = name
            self.properties = properties
            self.resources = resources
        }
    }

    /// The entities in file order.
    public let entities: [Entity]
    /// Resource -> index of the first entity listing it.
    private let ownerIndex: [String: Int]

    /// Creates a list from entities; a resource listed by several entities belongs to the first.
    public init(entities: [Entity]) {
        self.entities = entities
        var ownerIndex: [String: Int] = [:]
        for (index, entity) in entities.enumerated() {
            for resource in entity.resources where ownerIndex[resource] == nil {
                ownerIndex[resource] = index
            }
        }
        self.ownerIndex = ownerIndex
    }

    /// The entity that owns `host`: the one listing `host` as a resource, else the one listing
    /// its closest parent domain, down to the registrable domain (`adfox.yandex.ru` -> the entity
    /// listing `yandex.ru`); nil when none does.
    ///
    /// Firefox's generator falls back to the first entity whose resource is a *substring* of the
    /// domain, in dictionary order: `subadmeld.com` would get `admeld.com`'s owner, and which of
    /// several candidates wins changes between runs. Walking parent domains is deterministic and
    /// never crosses into another site.
    public func owner(of host: String, publicSuffixList: PublicSuffixList = .bundled) -> Entity? {
        ownerPosition(of: host, publicSuffixList: publicSuffixList).map { entities[$0] }
    }

    /// The index in ``entities`` of ``owner(of:publicSuffixList:)``.
    func ownerPosition(of host: String, publicSuffixList: PublicSuffixList) -> Int? {
        if let index = ownerIndex[host] { return index }
        let site = publicSuffixList.registrableDomain(of: host) ?? host
        var rest = Substring(host)
        while rest.utf8.count > site.utf8.count, let dot = rest.firstIndex(of: ".") {
            rest = rest[rest.index(after: dot)...]
            if let index = ownerIndex[String(rest)] { return index }
        }
        return nil
    }
}

/// Disconnect's tracker list (`disconnect-blacklist.json`): for each category, the services
/// (organisations) it lists and the tracker domains of each.
///
/// Read one with ``init(parsing:file:publicSuffixList:)``. Firefox does not read this file directly but lists
/// derived from it (see ``CategoryLists/init(_:)``).
public struct DisconnectList: Sendable, Hashable {
    /// One service of one category: `{"Name": {"https://homepage/": ["domain", …], "tag": "value"}}`.
    public struct Service: Sendable, Hashable {
        /// The category it is listed in.
        public var category: DisconnectCategory
        /// The service's name, for example `Google`.
        public var name: String
        /// The tracker domains, in file order.
        public var domains: [TrackerDomain]
        /// String-valued members: `dnt` (`eff` or `w3c`), `performance`, `session-replay`, ….
        public var tags: [String: String]

        /// Creates a service.
        public init(category: DisconnectCategory, name: String, domains: [TrackerDomain], tags: [String: String] = [:]) {
            self.category = category
            self.name = name
            self.domains = domains
            self.tags = tags
        }

        /// Whether the service carries a `dnt` tag; the shavar lists Firefox uses leave such
        /// domains out.
        public var honorsDoNotTrack: Bool { tags["dnt"] != nil }
    }

    /// Every service of every category, in file order.
    public var services: [Service]

    /// Creates a list from services.
    public init(services: [Service]) {
        self.services = services
    }

    /// The domains listed in `category`, sorted and without duplicates.
    public func domains(in category: DisconnectCategory) -> [TrackerDomain] {
        Array(Set(services.lazy.filter { $0.category == category }.flatMap(\.domains))).sorted()
    }
}

/// A company in Tracker Radar, with every domain it owns.
///
/// Two hosts of the same entity are first parties to each other: a tracker is not blocked on a
/// site its owner also runs.
public struct Entity: Sendable, Hashable {
    /// The entity's name, its key in ``TrackerData/entities``.
    public var name: String
    /// A shorter name without company suffixes.
    public var displayName: String?
    /// Every property domain of the company.
    public var domains: [String]
    /// The share of sites the company's trackers appear on, as a percentage (0–100).
    public var prevalence: Double?

    /// Creates an entity.
    public init(name: String, displayName: String? = nil, domains: [String] = [], prevalence: Double? = nil) {
        self.name = name
        self.displayName = displayName
        self.domains = domains
        self.prevalence = prevalence
    }
}

extension Tracker {
    /// A tracker's metadata, which no rule reads, kept in a ``FieldBox``.
    struct Metadata: BoxedFields {
        var prevalence: Double?
        var fingerprinting: Int?
        var cookies: Double?
        var categories: [String] = []
        var subdomains: [String]?

        var isEmpty: Bool {
            prevalence == nil && fingerprinting == nil && cookies == nil && categories.isEmpty && subdomains == nil
        }
    }
}

extension RuleEngine {
    /// What the engine computes once per page (the top URL and the frame URL) and reuses for the
    /// page's loads: canonical URLs, the page's registrable domain and every domain and URL
    /// condition. Owned by one caller at a time; give each thread its own.
    public struct PageCache: Sendable {
        /// An empty cache.
        public init() {}
    }
}

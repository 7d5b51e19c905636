import ContentRuleList
import TrackerlessCore

extension RuleEngine {
    /// What the engine computes once per page (the top URL and the frame URL) and reuses for the
    /// page's loads: canonical URLs, the page's registrable domain and every domain and URL
    /// condition. Owned by one caller at a time; give each thread its own.
    public struct PageCache: Sendable {
        var program: Program?
        var topKey: String?
        var frameKey: String?
        var state: PageState?

        /// An empty cache.
        public init() {}
    }

    /// The page state for a request, from the cache when the page has not changed.
    func pageState(
        for request: Request, isMainFrameNavigation: Bool, isFrameNavigation: Bool, cache: inout PageCache
    ) -> PageState {
        let topKey = isMainFrameNavigation ? request.url : request.topURL
        let frameKey: String? =
            program.hasFrameConditions
            ? request.frameURL ?? (isMainFrameNavigation || isFrameNavigation ? request.url : nil) : nil
        if let state = cache.state, cache.program === program, cache.topKey == topKey, cache.frameKey == frameKey {
            return state
        }
        let top = CanonicalURL(topKey)
        let topURL = top?.string ?? topKey
        var frameURL = topURL
        if let frameKey {
            frameURL = CanonicalURL(frameKey)?.string ?? frameKey
        }
        let state = PageState(
            program: program, topURL: topURL, frameURL: frameURL, topHost: top?.host ?? "",
            publicSuffixList: publicSuffixList)
        cache.program = program
        cache.topKey = topKey
        cache.frameKey = frameKey
        cache.state = state
        return state
    }
}

import ContentRuleList
import TrackerlessCore

extension RuleEngine {
    /// What the engine computes once per page (the top URL and the frame URL) and reuses for the
    /// page's loads: canonical URLs, the page's registrable domain and every domain and URL
    /// condition. It remembers the last few pages, so that loads of pages open side by side
    /// (tabs, frames) interleave without recomputation. Owned by one caller at a time; give each
    /// thread its own.
    public struct PageCache: Sendable {
        /// The remembered pages, in no particular order.
        var entries: [PageEntry] = []
        /// Counts lookups; each entry remembers when it was last used, and a new page replaces the
        /// least recently used one.
        var clock: UInt64 = 0
        /// The entry the previous load used.
        var current = 0
        var program: Program?
        /// Set while ``RuleEngine/actions(for:cache:)`` asks which rules applied: the load is
        /// then evaluated noting each matched rule, the applied ones left in ``appliedRuleIndices``.
        var isExplaining = false
        /// The rule of each applied action of the last load evaluated while ``isExplaining``.
        var appliedRuleIndices: [UInt32] = []

        /// How many pages it remembers.
        static let capacity = 8

        /// An empty cache.
        public init() {}
    }

    /// One remembered page.
    struct PageEntry: Sendable {
        /// The top URL as the request gave it (or the request URL of a main-frame navigation).
        let topKey: String
        /// The frame URL as the request gave it, or nil when the frame is the main document or
        /// no condition reads frame URLs.
        let frameKey: String?
        var state: PageState
        var lastUsed: UInt64
    }

    /// The index in the cache of the request's page, computed when it is not there.
    func preparePage(for request: Request, cache: inout PageCache) -> Int {
        let isMainFrameNavigation = request.isMainFrameNavigation
        let isFrameNavigation = request.isFrameNavigation
        let usesFrameKey = program.hasFrameConditions
        // WebKit's frame URL is the document in the issuing frame. A navigation's issuing frame
        // is the frame it navigates: a new iframe still shows about:blank, a new view nothing
        // (then WebKit takes the request URL).
        let unsaidFrameKey: String? =
            isFrameNavigation
            ? Request.initialFrameDocumentURL
            : isMainFrameNavigation ? (evaluation.matchesNewViewAgainstItsURL ? request.url : "") : nil
        if cache.program !== program {
            cache.entries.removeAll()
            cache.program = program
        }
        cache.clock &+= 1
        // The page of the previous load first: loads of one page usually come together.
        if cache.current < cache.entries.count,
            isSamePage(cache.entries[cache.current], request, isMainFrameNavigation, unsaidFrameKey, usesFrameKey)
        {
            cache.entries[cache.current].lastUsed = cache.clock
            return cache.current
        }
        for index in cache.entries.indices
        where index != cache.current && isSamePage(cache.entries[index], request, isMainFrameNavigation, unsaidFrameKey, usesFrameKey) {
            cache.entries[index].lastUsed = cache.clock
            cache.current = index
            return index
        }
        let topKey = isMainFrameNavigation ? request.url : request.topURL
        let frameKey: String? = usesFrameKey ? request.frameURL ?? unsaidFrameKey : nil
        let top = CanonicalURL(topKey)
        let topURL = top?.string ?? topKey
        var frameURL = topURL
        if let frameKey {
            frameURL = CanonicalURL(frameKey)?.string ?? frameKey
        }
        let state = PageState(
            program: program, topURL: topURL, frameURL: frameURL, topHost: top?.host ?? "",
            publicSuffixList: publicSuffixList, comparesHostsUnderUnlistedSuffixes: evaluation.comparesHostsUnderUnlistedSuffixes)
        let entry = PageEntry(topKey: topKey, frameKey: frameKey, state: state, lastUsed: cache.clock)
        guard cache.entries.count == PageCache.capacity else {
            cache.entries.append(entry)
            cache.current = cache.entries.count - 1
            return cache.current
        }
        var oldest = 0
        for index in cache.entries.indices where cache.entries[index].lastUsed < cache.entries[oldest].lastUsed {
            oldest = index
        }
        cache.entries[oldest] = entry
        cache.current = oldest
        return oldest
    }

    /// Whether the remembered page is the request's, comparing the keys in place (copying them
    /// would cost reference counting on every load) and their lengths first.
    @inline(__always)
    private func isSamePage(
        _ entry: borrowing PageEntry, _ request: Request, _ isMainFrameNavigation: Bool, _ unsaidFrameKey: String?,
        _ usesFrameKey: Bool
    ) -> Bool {
        let top = isMainFrameNavigation ? request.url : request.topURL
        guard entry.topKey.utf8.count == top.utf8.count, entry.topKey == top else { return false }
        guard usesFrameKey else { return true }
        let frame = request.frameURL ?? unsaidFrameKey
        return entry.frameKey == frame
    }
}

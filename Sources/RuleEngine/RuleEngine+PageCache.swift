import ContentRuleList
import TrackerlessCore

extension RuleEngine {
    /// What the engine computes once per page (the top URL and the frame URL) and reuses for the
    /// page's loads: canonical URLs, the page's registrable domain and every domain and URL
    /// condition. It remembers the last few pages, so that loads of pages open side by side
    /// (tabs, frames) interleave without recomputation. Owned by one caller at a time; give each
    /// thread its own.
    public struct PageCache: Sendable {
        /// The most recently used page first.
        var entries: [PageEntry] = []
        var program: Program?

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
    }

    /// Puts the request's page first in the cache, computing it when it is not there.
    func preparePage(
        for request: Request, isMainFrameNavigation: Bool, isFrameNavigation: Bool, cache: inout PageCache
    ) {
        let usesFrameKey = program.hasFrameConditions
        let isNavigation = isMainFrameNavigation || isFrameNavigation
        if cache.program !== program {
            cache.entries.removeAll()
            cache.program = program
        }
        for index in cache.entries.indices {
            // Compared in place: copying the keys would cost reference counting on every load.
            let topMatches =
                isMainFrameNavigation ? cache.entries[index].topKey == request.url : cache.entries[index].topKey == request.topURL
            guard topMatches else { continue }
            if usesFrameKey {
                let frameMatches =
                    if let frame = request.frameURL {
                        cache.entries[index].frameKey == frame
                    } else if isNavigation {
                        cache.entries[index].frameKey == request.url
                    } else {
                        cache.entries[index].frameKey == nil
                    }
                guard frameMatches else { continue }
            }
            if index > 0 { cache.entries.swapAt(0, index) }
            return
        }
        let topKey = isMainFrameNavigation ? request.url : request.topURL
        let frameKey: String? = usesFrameKey ? request.frameURL ?? (isNavigation ? request.url : nil) : nil
        let top = CanonicalURL(topKey)
        let topURL = top?.string ?? topKey
        var frameURL = topURL
        if let frameKey {
            frameURL = CanonicalURL(frameKey)?.string ?? frameKey
        }
        let state = PageState(
            program: program, topURL: topURL, frameURL: frameURL, topHost: top?.host ?? "",
            publicSuffixList: publicSuffixList)
        let entry = PageEntry(topKey: topKey, frameKey: frameKey, state: state)
        if cache.entries.count == PageCache.capacity { cache.entries.removeLast() }
        cache.entries.insert(entry, at: 0)
    }
}

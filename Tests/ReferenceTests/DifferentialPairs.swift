import TrackerDataKit
import TrackerlessCore
import TrackerlessTestSupport

/// Request/page pairs for the differential test: each request on pages that exercise every
/// branch of the decision.
///
/// - three unrelated sites (third party; one under a multi-label public suffix, one with a path
///   and query);
/// - the request's own registrable domain and its `www.` (first party by eTLD+1);
/// - a site of the tracker's entity on another registrable domain, when the blocklist lists one
///   (first party by entity).
struct DifferentialPairs: Sendable {
    /// One request on one page.
    struct Pair: Sendable {
        var request: MatchingTestRequest
        var topURL: String
    }

    static let unrelatedSites = [
        "https://example.com/",
        "https://www.news-site.co.uk/article/1",
        "http://shop.example.org/cart?item=1",
    ]

    /// Every pair, in request order.
    let pairs: [Pair]

    var count: Int { pairs.count }

    private init(pairs: [Pair]) { self.pairs = pairs }

    /// A deterministic sample of about `fraction` of the pairs, chosen by a fixed-seed generator
    /// so that every run checks the same pairs.
    func sampled(fraction: Double, seed: UInt64 = 0x7472_6163_6b65_726c) -> DifferentialPairs {
        var generator = SplitMixGenerator(seed: seed)
        let threshold = UInt64(Double(UInt64.max) * min(max(fraction, 0), 1))
        return DifferentialPairs(pairs: pairs.filter { _ in generator.next() <= threshold })
    }

    init(requests: [MatchingTestRequest], trackerData: TrackerData, publicSuffixList: PublicSuffixList = .bundled) {
        var pairs: [Pair] = []
        pairs.reserveCapacity(requests.count * 6)
        for request in requests {
            var sites = Self.unrelatedSites
            if let host = CanonicalURL(request.url)?.host, !host.isEmpty {
                let site = publicSuffixList.registrableDomain(of: host) ?? host
                sites.append("https://\(site)/")
                sites.append("https://www.\(site)/")
                if let entity = trackerData.entity(forHost: host),
                    let other = entity.domains.sorted().first(where: {
                        (publicSuffixList.registrableDomain(of: $0) ?? $0) != site
                    })
                {
                    sites.append("https://\(other)/")
                }
            }
            var seen: Set<String> = []
            for site in sites where seen.insert(site).inserted {
                pairs.append(Pair(request: request, topURL: site))
            }
        }
        self.pairs = pairs
    }
}

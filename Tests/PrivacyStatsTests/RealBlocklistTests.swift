import Foundation
@testable import PrivacyStatsKit
import Testing
import TrackerDataKit
import TrackerlessCore
import TrackerlessTestSupport

/// The statistics classify with the resolver's answers: on the real blocklist and adblock-rust's
/// 8,276 request URLs, the cached and fast-pathed classification equals the resolver's decision
/// for every request, on sites of several owners.
@Suite("Real blocklist: classification equals the resolver's", .enabled(if: SharedData.shouldRun, SharedData.skipMessage))
struct RealBlocklistTests {
    static let sites = [
        "https://www.nytimes.com/", "https://www.google.com/search", "https://www.facebook.com/", "https://example.com/",
    ]

    @Test("every request URL, on every site, first from the resolver then from the cache")
    func classification() throws {
        let tds = try TrackerData(parsing: try #require(SharedData.bytes("tds/apple-tds.json")), file: "apple-tds.json")
        guard case .array(let items) = try JSONParser.parse(try #require(SharedData.bytes("requests/matching-test-requests.json")))
        else {
            Issue.record("matching-test-requests.json is not an array")
            return
        }
        let requests: [(String, RequestType)] = items.compactMap { item in
            guard case .object(let object) = item, case .string(let url)? = object["url"],
                case .string(let type)? = object["type"]
            else { return nil }
            return (url, type == "sub_frame" ? .subdocument : RequestType(rawValue: type))
        }
        #expect(requests.count == 8276)
        let resolver = TrackerResolver(trackerData: tds)
        let cache = ClassificationCache()
        var trackers = 0
        for site in Self.sites {
            let classifier = RequestClassifier(resolver: resolver, topURL: site, cache: cache)
            for pass in 0..<2 {
                for (url, type) in requests {
                    let classification = classifier.classify(RequestKey(url: url, type: type))
                    guard let decision = resolver.decision(forRequestURL: url, topURL: site, type: type) else {
                        #expect(classification.host.isEmpty, "\(url) does not parse, yet has a host")
                        continue
                    }
                    let isCounted = decision.isTracker || decision.isBlocked
                    if pass == 0, isCounted { trackers += 1 }
                    #expect((classification.company != nil) == isCounted, "\(url) on \(site)")
                    #expect(classification.blocks == decision.isBlocked, "\(url) on \(site)")
                    #expect(
                        classification.allowedReason
                            == AllowedReason(decision: decision, siteEntityName: tds.entityName(forHost: classifier.site?.host ?? "")),
                        "\(url) on \(site)")
                    if case .redirect(let surrogate)? = decision.action {
                        #expect(classification.surrogate == surrogate, "\(url) on \(site)")
                    } else {
                        #expect(classification.surrogate == nil, "\(url) on \(site)")
                    }
                }
            }
        }
        #expect(trackers > 1000)
    }
}

import Foundation
@testable import PrivacyStatsKit
import Testing
import TrackerDataKit
import TrackerlessCore
import TrackerlessTestSupport

/// The classifier keeps no copy of the resolver's knowledge: with every input that decides
/// whether a host can match (trackers, CNAMEs, the request blocklist) and whether a site is
/// protected (the user allowlist, `contentBlocking` exceptions), its shortcut and its answers
/// are the resolver's, on adblock-rust's request URLs and a request to every cloaked host.
@Suite("The classifier agrees with the resolver", .enabled(if: SharedData.shouldRun, SharedData.skipMessage))
struct ResolverAgreementTests {
    /// Protected sites of several owners, a site whose protection the user turned off, and one
    /// excepted from `contentBlocking`.
    static let sites = [
        "https://www.nytimes.com/", "https://www.google.com/search", "https://example.com/", "https://www.bing.com/",
        "https://www.facebook.com/",
    ]
    static let userAllowlisted = "example.com"
    static let contentBlockingException = "bing.com"

    /// A configuration whose request blocklist has an entry for every 40th request's registrable
    /// domain (trackers and not), blocking every URL on it on every site.
    static func configuration(blocking domains: [String]) throws -> PrivacyConfiguration {
        let entries = domains.map { #""\#($0)": {"rules": [{"rule": "\#($0)", "domains": ["<all>"]}]}"# }
        let json = #"""
            {"features": {
              "contentBlocking": {"state": "enabled", "exceptions": [{"domain": "\#(contentBlockingException)"}]},
              "requestBlocklist": {"state": "enabled", "settings": {"blockedRequests": {\#(entries.joined(separator: ", "))}}}
            }, "unprotectedTemporary": []}
            """#
        return try PrivacyConfiguration(parsing: Array(json.utf8), file: "agreement-config.json")
    }

    @Test("every request on every site: same shortcut, same answers, same protection")
    func agreement() throws {
        let tds = try TrackerData(parsing: try #require(SharedData.bytes("tds/apple-tds.json")), file: "apple-tds.json")
        var requests = MatchingTestRequest.all.map { ($0.url, $0.type) }
        try #require(!requests.isEmpty, "matching-test-requests.json has no requests")
        requests += tds.cnames.keys.sorted().map { ("https://\($0)/collect.js?id=1", RequestType.script) }
        let psl = PublicSuffixList.bundled
        let blocked = Set(stride(from: 0, to: requests.count, by: 40).compactMap {
            CanonicalURL(requests[$0].0).flatMap { psl.registrableDomain(of: $0.host) }
        }).sorted()
        let resolver = TrackerResolver(
            trackerData: tds, privacyConfiguration: try Self.configuration(blocking: blocked),
            userAllowlist: UserAllowlist(domains: [Self.userAllowlisted]))
        let cache = ClassificationCache()
        var reasons: [BlockingDecision.Reason: Int] = [:]
        var cloaked = 0
        for site in Self.sites {
            let classifier = RequestClassifier(resolver: resolver, topURL: site, cache: cache)
            let siteHost = try #require(classifier.site?.host)
            let siteEntityName = tds.entityName(forHost: siteHost)
            for (url, type) in requests {
                let classification = classifier.classify(RequestKey(url: url, type: type))
                guard let decision = resolver.decision(forRequestURL: url, topURL: site, type: type) else {
                    #expect(classification.host.isEmpty, "\(url) does not parse, yet has a host")
                    continue
                }
                reasons[decision.reason, default: 0] += 1
                if decision.cnameTarget != nil { cloaked += 1 }
                let place = "\(type.rawValue) \(url) on \(site) (\(decision.reason))"
                #expect(classification.trackerDomain == decision.tracker?.domain, "\(place)")
                #expect((classification.company != nil) == (decision.isTracker || decision.isBlocked), "\(place)")
                #expect(classification.blocks == decision.isBlocked, "\(place)")
                #expect(classification.allowedReason == AllowedReason(decision: decision, siteEntityName: siteEntityName), "\(place)")
                if case .redirect(let surrogate)? = decision.action {
                    #expect(classification.surrogate == surrogate, "\(place)")
                } else {
                    #expect(classification.surrogate == nil, "\(place)")
                }
                if decision.isTracker {
                    #expect(
                        classifier.isProtected == ![.userAllowlist, .unprotectedDomain].contains(decision.reason),
                        "\(place): the page says protection is \(classifier.isProtected ? "on" : "off")")
                }
            }
        }
        // Every input the shortcut depends on was exercised.
        for reason in [BlockingDecision.Reason.requestBlocklist, .userAllowlist, .unprotectedDomain, .matchedRuleBlock, .firstParty] {
            #expect(reasons[reason, default: 0] > 0, "no decision with reason \(reason)")
        }
        #expect(cloaked > 0, "no request found its tracker through a CNAME")
    }
}

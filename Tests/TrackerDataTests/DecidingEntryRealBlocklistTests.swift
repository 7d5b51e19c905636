import Testing
import TrackerDataKit
import TrackerlessCore
import TrackerlessTestSupport

/// apple-tds.json with the request-blocklist suite's privacy configuration and a user
/// allowlist, over the 8,276 real request URLs (and as navigations) from five real sites and the
/// configuration's two unprotected ones: every blocked or ignored
/// tracker request names its deciding entry, and ``DecidingEntryCheck`` re-checking that entry
/// alone reproduces the decision.
@Suite(
    "Deciding entries on the real blocklist",
    .enabled(if: SharedData.shouldRun(SharedData.matchingTestRequests), SharedData.skipMessage))
struct DecidingEntryRealBlocklistTests {
    @Test("every tracker decision names an entry that re-checks alone")
    func everyDecision() throws {
        let trackerData = try TrackerData(contentsOfFile: SharedData.path("tds/apple-tds.json"))
        let configuration = try PrivacyConfiguration(
            parsing: try #require(SharedData.bytes("\(SharedData.requestBlocklist)/config-reference.json")))
        let userAllowlist = UserAllowlist(domains: ["www.amazon.com"])
        let resolver = TrackerResolver(
            trackerData: trackerData, privacyConfiguration: configuration, userAllowlist: userAllowlist)
        let check = DecidingEntryCheck(trackerData: trackerData, configuration: configuration, userAllowlist: userAllowlist)
        let requests = try ResolverOracleTests.requests()
        #expect(requests.count == 8_276)
        var kinds: [String: Int] = [:]
        var failures = 0
        let unprotected = ["https://unprotected-temporary.example/", "https://www.content-blocking-exception.example/"]
        for site in ResolverOracleTests.sites + unprotected {
            let topURL = try #require(CanonicalURL(site))
            for (url, requestType) in requests {
                guard let requestURL = CanonicalURL(url) else { continue }
                for type in [requestType, .mainFrame] {
                    let decision = resolver.decision(forRequestURL: requestURL, topURL: topURL, type: type)
                    if decision.isTracker || decision.action != nil {
                        #expect(decision.decidingEntry != nil, "\(url) from \(site): \(decision.reason.rawValue)")
                    }
                    if let problem = check.problem(with: decision, request: requestURL, site: topURL, type: type) {
                        failures += 1
                        if failures <= 20 { Issue.record("\(url) from \(site) as \(type.rawValue): \(problem)") }
                    }
                    if let kind = decision.decidingEntry?.kind { kinds[kind, default: 0] += 1 }
                }
            }
        }
        #expect(failures == 0)
        // The run must reach the entries a real page meets; a count of zero would hide a path.
        for kind in [
            "trackerRule", "trackerDefault", "sameEntity", "userAllowlist", "mainFrame", "unprotectedTemporary", "featureException",
        ] {
            #expect(kinds[kind, default: 0] > 0, "\(kind): \(kinds)")
        }
    }
}

import Testing
import TrackerDataKit
import TrackerlessTestSupport

/// The request blocklist cases (41) through the built rules, with the folder's configuration,
/// blocklist and user allowlist.
@Suite("Request blocklist through the built rules", .enabled(if: SharedData.shouldRun, SharedData.skipMessage))
struct RequestBlocklistRuleTests {
    static let rules: Result<BuiltRules, any Error> = Result {
        let fixture = try RequestBlocklistFixture.loaded.get()
        return try BuiltRules(
            trackerData: fixture.trackerData, configuration: fixture.configuration,
            userAllowlist: fixture.userAllowlist, surrogates: fixture.surrogates)
    }

    @Test("the suite has 41 cases and the rules build")
    func suiteSize() throws {
        #expect(RequestBlocklistCase.all.count == 41)
        #expect(try Self.rules.get().build.ruleCount > 0)
    }

    @Test("rules, resolver and expectation agree", arguments: RequestBlocklistCase.all)
    func decision(_ test: RequestBlocklistCase) throws {
        let rules = try Self.rules.get()
        let outcome = rules.outcome(requestURL: test.requestURL, topURL: test.websiteURL, type: test.type)
        let decision = try #require(outcome.decision, "unparsable URL")
        let isBlocked = try #require(outcome.isBlockedByRules as Bool?, "no WebKit load for type \(test.requestType)")
        #expect(decision.isBlocked == test.expectsBlocked, "resolver: \(outcome)")
        #expect(isBlocked == test.expectsBlocked, "rules: \(outcome)")
    }

    /// The comparison can fail: rules built without the configuration miss its request blocklist
    /// and user allowlist, and the cases notice.
    @Test("rules built without the configuration disagree with the resolver")
    func comparisonNoticesMissingConfiguration() throws {
        let fixture = try RequestBlocklistFixture.loaded.get()
        let withoutConfiguration = try BuiltRules(trackerData: fixture.trackerData, surrogates: fixture.surrogates)
        let disagreements = RequestBlocklistCase.all.filter { test in
            let isBlocked = withoutConfiguration.isBlockedByRules(
                requestURL: test.requestURL, topURL: test.websiteURL, type: test.type)
            let decision = fixture.resolver.decision(
                forRequestURL: test.requestURL, topURL: test.websiteURL, type: test.type)
            return isBlocked != decision?.isBlocked
        }
        #expect(disagreements.count >= 10, "only \(disagreements.count) of \(RequestBlocklistCase.all.count) differ")
    }
}

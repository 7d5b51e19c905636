import Testing
import TrackerDataKit
import TrackerlessCore
import TrackerlessTestSupport

/// The tracker allowlist cases (25) through the built rules, with `contentBlocking` and
/// `trackerAllowlist` enabled: an allowlisted request loads; any other request is whatever the
/// resolver decides, and the rules agree with it.
@Suite("Tracker allowlist through the built rules", .enabled(if: SharedData.shouldRun, SharedData.skipMessage))
struct TrackerAllowlistRuleTests {
    static let rules: Result<BuiltRules, any Error> = Result {
        let fixture = try TrackerAllowlistFixture.loaded.get()
        return try BuiltRules(trackerData: fixture.trackerData, configuration: fixture.configuration)
    }

    @Test("the suite has 25 cases and the rules build")
    func suiteSize() throws {
        #expect(TrackerAllowlistCase.all.count == 25)
        #expect(try Self.rules.get().build.ruleCount > 0)
    }

    @Test("rules, resolver and expectation agree", arguments: TrackerAllowlistCase.all)
    func allowlisted(_ test: TrackerAllowlistCase) throws {
        let rules = try Self.rules.get()
        let outcome = rules.outcome(requestURL: test.request, topURL: test.site, type: .script)
        let decision = try #require(outcome.decision, "unparsable URL")
        let isBlocked = try #require(outcome.isBlockedByRules as Bool?)

        if test.isAllowlisted {
            #expect(decision.action == .ignore, "\(outcome)")
            #expect(decision.reason == .trackerAllowlist, "\(outcome)")
            #expect(!isBlocked, "allowlisted, but \(outcome)")
        } else {
            #expect(decision.reason != .trackerAllowlist, "\(outcome)")
            #expect(isBlocked == decision.isBlocked, "\(outcome)")
        }
    }
}

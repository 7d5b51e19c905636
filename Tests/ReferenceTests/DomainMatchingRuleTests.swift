import Testing
import TrackerDataKit
import TrackerlessTestSupport

/// TR-domain-matching (122 domain and 12 surrogate cases) through the built rules: the rules,
/// the resolver and the expected action agree. `redirect` must be blocked (WebKit blocks the
/// request; the surrogate is injected separately), `ignore` and no action must load.
@Suite("TR-domain-matching through the built rules", .enabled(if: SharedData.shouldRun, SharedData.skipMessage))
struct DomainMatchingRuleTests {
    static let rules: Result<BuiltRules, any Error> = Result {
        let fixture = try DomainMatchingFixture.loaded.get()
        return try BuiltRules(trackerData: fixture.trackerData, surrogates: fixture.surrogates)
    }

    @Test("the suite has 134 cases and the rules build")
    func suiteSize() throws {
        #expect(DomainMatchingCase.all.count == 134)
        #expect(DomainMatchingCase.all.filter { $0.set == "surrogateTests" }.count == 12)
        #expect(try Self.rules.get().build.ruleCount > 0)
    }

    @Test("rules, resolver and expectation agree", arguments: DomainMatchingCase.all)
    func decision(_ test: DomainMatchingCase) throws {
        let rules = try Self.rules.get()
        let outcome = rules.outcome(requestURL: test.requestURL, topURL: test.topURL, type: test.type)
        let decision = try #require(outcome.decision, "unparsable URL")
        let isBlocked = try #require(outcome.isBlockedByRules as Bool?, "no WebKit load for type \(test.requestType)")

        switch test.expectAction {
        case nil:
            #expect(decision.action == nil, "\(outcome)")
        case "ignore"?:
            #expect(decision.action == .ignore, "\(outcome)")
        case "block"?:
            #expect(decision.action == .block, "\(outcome)")
        case "redirect"?:
            if case .redirect(let name)? = decision.action {
                #expect(rules.resolver.surrogates[name]?.dataURL == test.expectRedirect)
            } else {
                Issue.record("expected a redirect: \(outcome)")
            }
        case let other?:
            Issue.record("unknown expectAction \(other)")
        }
        #expect(isBlocked == test.expectsBlocked, "expected \(test.expectAction ?? "no action"): \(outcome)")
    }
}

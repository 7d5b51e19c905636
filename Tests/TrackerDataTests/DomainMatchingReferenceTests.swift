import Testing
import TrackerDataKit
import TrackerlessCore
import TrackerlessTestSupport

/// privacy-reference-tests/tracker-radar-tests/TR-domain-matching/domain_matching_tests.json
/// through ``TrackerResolver`` (cases and fixture from TrackerlessTestSupport).
@Suite("TR-domain-matching reference tests", .enabled(if: SharedData.shouldRun, SharedData.skipMessage))
struct DomainMatchingReferenceTests {
    @Test("the suite has 122 domain tests and 12 surrogate tests")
    func suiteSize() {
        #expect(DomainMatchingCase.all.count == 134)
        #expect(DomainMatchingCase.all.filter { $0.set == "surrogateTests" }.count == 12)
    }

    @Test("reference blocklist loads; its only warnings are the unsupported actions")
    func referenceBlocklist() throws {
        let fixture = try DomainMatchingFixture.loaded.get()
        let (resolver, surrogates) = (fixture.resolver, fixture.surrogates)
        #expect(resolver.warnings.isEmpty)
        #expect(resolver.trackerData.warnings.count == 2)
        #expect(resolver.trackerData.warnings.allSatisfy { $0.message.contains("unsupported-action") })
        #expect(surrogates.surrogates.map(\.name) == ["tracker", "script.js"])
    }

    @Test("decision", arguments: DomainMatchingCase.all)
    func decision(_ test: DomainMatchingCase) throws {
        let fixture = try DomainMatchingFixture.loaded.get()
        let (resolver, surrogates) = (fixture.resolver, fixture.surrogates)
        let decision = try #require(
            resolver.decision(
                forRequestURL: test.requestURL, topURL: test.topURL, type: RequestType(rawValue: test.requestType)),
            "unparsable URL")
        switch test.expectAction {
        case nil:
            #expect(decision.action == nil, "reason: \(decision.reason.rawValue)")
            #expect(!decision.isTracker)
        case "ignore"?:
            #expect(decision.action == .ignore, "reason: \(decision.reason.rawValue)")
        case "block"?:
            #expect(decision.action == .block, "reason: \(decision.reason.rawValue)")
        case "redirect"?:
            guard case .redirect(let name)? = decision.action else {
                Issue.record("expected a redirect, got \(String(describing: decision.action)) (\(decision.reason.rawValue))")
                return
            }
            let surrogate = try #require(surrogates[name])
            #expect(surrogate.dataURL == test.expectRedirect)
        case let other?:
            Issue.record("unknown expectAction \(other)")
        }
    }
}

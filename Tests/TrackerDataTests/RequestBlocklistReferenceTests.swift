import Testing
import TrackerDataKit
import TrackerlessCore
import TrackerlessTestSupport

/// privacy-reference-tests/request-blocklist/tests.json through ``TrackerResolver`` (cases and
/// fixture from TrackerlessTestSupport).
@Suite("Request blocklist reference tests", .enabled(if: SharedData.shouldRun, SharedData.skipMessage))
struct RequestBlocklistReferenceTests {
    @Test("the suite has 41 cases")
    func suiteSize() {
        #expect(RequestBlocklistCase.all.count == 41)
    }

    @Test("invalid rules and entries are dropped with warnings naming their paths")
    func warnings() throws {
        let configuration = try RequestBlocklistFixture.loaded.get().configuration
        let warnings = configuration.warnings.map { $0.path?.description ?? "" }
        let base = "features.requestBlocklist.settings.blockedRequests"
        #expect(warnings.contains { $0 == ("\(base)[\"request-blocklist.example\"].rules[5].rule") })  // ||…^
        #expect(warnings.contains { $0 == ("\(base)[\"request-blocklist.example\"].rules[6].domains") })  // missing
        #expect(warnings.contains { $0 == ("\(base)[\"request-blocklist.example\"].rules[8].unknown") })  // extra
        #expect(warnings.contains { $0 == ("\(base)[\"subdomain.request-blocklist.example\"]") })  // not eTLD+1
        #expect(warnings.count == 4, "\(warnings)")
    }

    @Test("decision", arguments: RequestBlocklistCase.all)
    func decision(_ test: RequestBlocklistCase) throws {
        let resolver = try RequestBlocklistFixture.loaded.get().resolver
        let decision = try #require(
            resolver.decision(
                forRequestURL: test.requestURL, topURL: test.websiteURL, type: RequestType(rawValue: test.requestType)),
            "unparsable URL")
        let action = decision.isBlocked ? "block" : "allow"
        #expect(action == test.expectAction, "reason: \(decision.reason.rawValue)")
    }
}

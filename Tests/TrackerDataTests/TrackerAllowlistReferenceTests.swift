import Testing
import TrackerDataKit
import TrackerlessCore
import TrackerlessTestSupport

/// TR-domain-matching/tracker_allowlist_matching_tests.json through ``TrackerAllowlist`` and
/// ``TrackerResolver`` (cases and fixture from TrackerlessTestSupport).
@Suite("Tracker allowlist reference tests", .enabled(if: SharedData.shouldRun, SharedData.skipMessage))
struct TrackerAllowlistReferenceTests {
    @Test("the suite has 25 cases and the allowlist 3 entries with 6 rules")
    func suiteSize() throws {
        #expect(TrackerAllowlistCase.all.count == 25)
        let allowlist = try TrackerAllowlistFixture.loaded.get().allowlist
        #expect(allowlist.entries.count == 3)
        #expect(allowlist.entries.map(\.rules.count).reduce(0, +) == 6)
        #expect(allowlist.warnings.isEmpty)
    }

    @Test("isAllowlisted", arguments: TrackerAllowlistCase.all)
    func allowlisted(_ test: TrackerAllowlistCase) throws {
        let fixture = try TrackerAllowlistFixture.loaded.get()
        let (allowlist, resolver) = (fixture.allowlist, fixture.resolver)
        let request = try #require(CanonicalURL(test.request))
        let site = try #require(CanonicalURL(test.site))
        #expect(allowlist.isAllowlisted(requestURL: request, siteHost: site.host) == test.isAllowlisted)

        // Through the resolver: every request here is to a default-block tracker, so it is
        // ignored because of the allowlist exactly when allowlisted, and blocked otherwise.
        let decision = resolver.decision(forRequestURL: request, topURL: site, type: .script)
        if test.isAllowlisted {
            #expect(decision.action == .ignore)
            #expect(decision.reason == .trackerAllowlist)
        } else {
            #expect(decision.action == .block, "reason: \(decision.reason.rawValue)")
        }
    }
}

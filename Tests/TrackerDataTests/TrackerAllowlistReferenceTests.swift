import Testing
import TrackerData
import TrackerlessCore

/// TR-domain-matching/tracker_allowlist_matching_tests.json (25 cases) with
/// tracker_allowlist_reference.json and tracker_allowlist_tds_reference.json.
struct TrackerAllowlistCase: Sendable, CustomTestStringConvertible {
    var description: String
    var site: String
    var request: String
    var isAllowlisted: Bool

    var testDescription: String { description }

    static let all: [TrackerAllowlistCase] = {
        guard let root = SharedData.json("\(SharedData.domainMatching)/tracker_allowlist_matching_tests.json"),
            let tests = try? root.array()
        else { return [] }
        return tests.map { test in
            TrackerAllowlistCase(
                description: (try? test.required("description").string()) ?? "?",
                site: (try? test.required("site").string()) ?? "",
                request: (try? test.required("request").string()) ?? "",
                isAllowlisted: (try? test.required("isAllowlisted").bool()) ?? false)
        }
    }()
}

enum TrackerAllowlistFixture {
    /// The allowlist on its own, and a resolver whose configuration enables it.
    static let loaded: Result<(TrackerAllowlist, TrackerResolver), TrackerDataError> = {
        do throws(TrackerDataError) {
            let allowlist = try TrackerAllowlist(
                parsing: SharedData.bytes("\(SharedData.domainMatching)/tracker_allowlist_reference.json") ?? [],
                file: "tracker_allowlist_reference.json")
            let tds = try TrackerData(
                contentsOfFile: SharedData.path("\(SharedData.domainMatching)/tracker_allowlist_tds_reference.json"))
            let configuration = PrivacyConfiguration(
                features: [
                    "contentBlocking": .init(state: .enabled),
                    "trackerAllowlist": .init(state: .enabled),
                ],
                trackerAllowlist: allowlist)
            return .success((allowlist, TrackerResolver(trackerData: tds, privacyConfiguration: configuration)))
        } catch {
            return .failure(error)
        }
    }()
}

@Suite("Tracker allowlist reference tests", .enabled(if: SharedData.shouldRun, SharedData.skipMessage))
struct TrackerAllowlistReferenceTests {
    @Test("the suite has 25 cases and the allowlist 3 entries with 6 rules")
    func suiteSize() throws {
        #expect(TrackerAllowlistCase.all.count == 25)
        let (allowlist, _) = try TrackerAllowlistFixture.loaded.get()
        #expect(allowlist.entries.count == 3)
        #expect(allowlist.entries.map(\.rules.count).reduce(0, +) == 6)
        #expect(allowlist.warnings.isEmpty)
    }

    @Test("isAllowlisted", arguments: TrackerAllowlistCase.all)
    func allowlisted(_ test: TrackerAllowlistCase) throws {
        let (allowlist, resolver) = try TrackerAllowlistFixture.loaded.get()
        let request = try #require(CanonicalURL(test.request))
        let site = try #require(CanonicalURL(test.site))
        #expect(allowlist.isAllowlisted(requestURL: request, siteHost: site.host) == test.isAllowlisted)

        // Through the resolver: every request here is to a default-block tracker, so it is
        // ignored because of the allowlist exactly when allowlisted, and blocked otherwise.
        let decision = resolver.decision(forRequestURL: request, siteURL: site, type: .script)
        if test.isAllowlisted {
            #expect(decision.action == .ignore)
            #expect(decision.reason == .trackerAllowlist)
        } else {
            #expect(decision.action == .block, "reason: \(decision.reason.rawValue)")
        }
    }
}

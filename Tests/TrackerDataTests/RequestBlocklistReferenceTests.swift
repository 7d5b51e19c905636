import Testing
import TrackerData
import TrackerlessCore

/// privacy-reference-tests/request-blocklist/tests.json (41 cases) with the folder's
/// configuration, blocklist, surrogates and user allowlist.
struct RequestBlocklistCase: Sendable, CustomTestStringConvertible {
    var set: String
    var name: String
    var websiteURL: String
    var requestURL: String
    var requestType: String
    var expectAction: String

    var testDescription: String { "\(set): \(name)" }

    static let all: [RequestBlocklistCase] = {
        guard let root = SharedData.json("\(SharedData.requestBlocklist)/tests.json"),
            let sets = try? root.members()
        else { return [] }
        var cases: [RequestBlocklistCase] = []
        for (setKey, set) in sets {
            guard let tests = try? set.required("tests").array() else { continue }
            for test in tests {
                cases.append(RequestBlocklistCase(
                    set: setKey,
                    name: (try? test.required("name").string()) ?? "?",
                    websiteURL: (try? test.required("websiteUrl").string()) ?? "",
                    requestURL: (try? test.required("requestUrl").string()) ?? "",
                    requestType: (try? test.required("requestType").string()) ?? "",
                    expectAction: (try? test.required("expectAction").string()) ?? ""))
            }
        }
        return cases
    }()
}

enum RequestBlocklistFixture {
    static let loaded: Result<TrackerResolver, TrackerDataError> = {
        do throws(TrackerDataError) {
            let folder = SharedData.requestBlocklist
            let tds = try TrackerData(contentsOfFile: SharedData.path("\(folder)/tds-reference.json"))
            let configuration = try PrivacyConfiguration(contentsOfFile: SharedData.path("\(folder)/config-reference.json"))
            let userAllowlist = try UserAllowlist(
                parsing: SharedData.bytes("\(folder)/user-allowlist-reference.json") ?? [],
                file: "user-allowlist-reference.json")
            let surrogates = Surrogates(
                parsing: String(decoding: SharedData.bytes("\(folder)/surrogates-reference.txt") ?? [], as: UTF8.self))
            return .success(TrackerResolver(
                trackerData: tds, surrogates: surrogates, privacyConfiguration: configuration,
                userAllowlist: userAllowlist))
        } catch {
            return .failure(error)
        }
    }()
}

@Suite("Request blocklist reference tests", .enabled(if: SharedData.shouldRun, SharedData.skipMessage))
struct RequestBlocklistReferenceTests {
    @Test("the suite has 41 cases")
    func suiteSize() {
        #expect(RequestBlocklistCase.all.count == 41)
    }

    @Test("invalid rules and entries are dropped with warnings naming their paths")
    func warnings() throws {
        let configuration = try RequestBlocklistFixture.loaded.get().privacyConfiguration
        let warnings = try #require(configuration?.warnings).map { $0.path?.description ?? "" }
        let base = "features.requestBlocklist.settings.blockedRequests"
        #expect(warnings.contains { $0 == ("\(base)[\"request-blocklist.example\"].rules[5].rule") })  // ||…^
        #expect(warnings.contains { $0 == ("\(base)[\"request-blocklist.example\"].rules[6].domains") })  // missing
        #expect(warnings.contains { $0 == ("\(base)[\"request-blocklist.example\"].rules[8].unknown") })  // extra
        #expect(warnings.contains { $0 == ("\(base)[\"subdomain.request-blocklist.example\"]") })  // not eTLD+1
        #expect(warnings.count == 4, "\(warnings)")
    }

    @Test("decision", arguments: RequestBlocklistCase.all)
    func decision(_ test: RequestBlocklistCase) throws {
        let resolver = try RequestBlocklistFixture.loaded.get()
        let decision = try #require(
            resolver.decision(
                forRequestURL: test.requestURL, siteURL: test.websiteURL, type: RequestType(rawValue: test.requestType)),
            "unparsable URL")
        let action = decision.isBlocked ? "block" : "allow"
        #expect(action == test.expectAction, "reason: \(decision.reason.rawValue)")
    }
}

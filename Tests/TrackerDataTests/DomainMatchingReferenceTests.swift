import Foundation
import Testing
import TrackerData
import TrackerlessCore

/// privacy-reference-tests/tracker-radar-tests/TR-domain-matching/domain_matching_tests.json:
/// 122 domain tests and 12 surrogate tests, run through ``TrackerResolver`` with
/// tracker_radar_reference.json and surrogates.txt. `exceptPlatforms` is ignored: we pass all.
struct DomainMatchingCase: Sendable, CustomTestStringConvertible {
    var set: String
    var name: String
    var siteURL: String
    var requestURL: String
    var requestType: String
    var expectAction: String?
    var expectRedirect: String?

    var testDescription: String { "\(set): \(name)" }

    static let all: [DomainMatchingCase] = {
        guard let root = SharedData.json("\(SharedData.domainMatching)/domain_matching_tests.json"),
            let sets = try? root.members()
        else { return [] }
        var cases: [DomainMatchingCase] = []
        for (setKey, set) in sets {
            guard let tests = try? set.required("tests").array() else { continue }
            for test in tests {
                cases.append(DomainMatchingCase(
                    set: setKey,
                    name: (try? test.required("name").string()) ?? "?",
                    siteURL: (try? test.required("siteURL").string()) ?? "",
                    requestURL: (try? test.required("requestURL").string()) ?? "",
                    requestType: (try? test.required("requestType").string()) ?? "",
                    expectAction: try? test["expectAction"]?.string(),
                    expectRedirect: try? test["expectRedirect"]?.string()))
            }
        }
        return cases
    }()
}

/// The resolver and surrogates for the TR-domain-matching suite, loaded once.
enum DomainMatchingFixture {
    static let loaded: Result<(TrackerResolver, Surrogates), TrackerDataError> = {
        do throws(TrackerDataError) {
            let tds = try TrackerData(contentsOfFile: SharedData.path("\(SharedData.domainMatching)/tracker_radar_reference.json"))
            let text = String(decoding: SharedData.bytes("\(SharedData.domainMatching)/surrogates.txt") ?? [], as: UTF8.self)
            let surrogates = Surrogates(parsing: text, file: "surrogates.txt")
            return .success((TrackerResolver(trackerData: tds, surrogates: surrogates), surrogates))
        } catch {
            return .failure(error)
        }
    }()
}

@Suite("TR-domain-matching reference tests", .enabled(if: SharedData.shouldRun, SharedData.skipMessage))
struct DomainMatchingReferenceTests {
    @Test("the suite has 122 domain tests and 12 surrogate tests")
    func suiteSize() {
        #expect(DomainMatchingCase.all.count == 134)
        #expect(DomainMatchingCase.all.filter { $0.set == "surrogateTests" }.count == 12)
    }

    @Test("reference blocklist loads; its only warnings are the unsupported actions")
    func referenceBlocklist() throws {
        let (resolver, surrogates) = try DomainMatchingFixture.loaded.get()
        #expect(resolver.warnings.isEmpty)
        #expect(resolver.trackerData.warnings.count == 2)
        #expect(resolver.trackerData.warnings.allSatisfy { $0.message.contains("unsupported-action") })
        #expect(surrogates.surrogates.map(\.name) == ["tracker", "script.js"])
    }

    @Test("decision", arguments: DomainMatchingCase.all)
    func decision(_ test: DomainMatchingCase) throws {
        let (resolver, surrogates) = try DomainMatchingFixture.loaded.get()
        let decision = try #require(
            resolver.decision(
                forRequestURL: test.requestURL, siteURL: test.siteURL, type: RequestType(rawValue: test.requestType)),
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

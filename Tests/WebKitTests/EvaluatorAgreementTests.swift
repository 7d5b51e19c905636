import ContentRuleList
import Testing
import TrackerlessTestSupport

/// ``ReferenceEvaluator`` checked against real WebKit: for every load of the reference suites in
/// ``ReferenceSuitesInWebKitTests`` (our rules for all three suites, DuckDuckGo's for
/// TR-domain-matching and the tracker allowlist), the evaluator must block exactly what WebKit
/// blocked, right or wrong. DuckDuckGo's rules matter here because they fail 30 cases in WebKit:
/// the evaluator has to reproduce WebKit's mistakes too, not only the expected answers.
@Suite(
    "Reference evaluator agrees with WebKit",
    .enabled(if: WebKitHarness.shouldRun, "WebKitGTK (python3-gi, gir1.2-webkit2-4.1, xvfb) is not installed"),
    .enabled(if: SharedData.shouldRun, SharedData.skipMessage))
struct EvaluatorAgreementTests {
    static let ourLoads = ReferenceSuite.allCases.flatMap(\.loads)
    static let duckDuckGoLoads = ReferenceSuite.domainMatching.loads + ReferenceSuite.trackerAllowlist.loads

    @Test("our rules: evaluator == WebKit", arguments: ourLoads)
    func ourRules(_ load: ReferenceLoad) throws {
        try Self.expectAgreement(load, in: ReferenceRuns.ours(load.suite))
    }

    @Test("DuckDuckGo's rules: evaluator == WebKit", arguments: duckDuckGoLoads)
    func duckDuckGoRules(_ load: ReferenceLoad) throws {
        try Self.expectAgreement(load, in: ReferenceRuns.duckDuckGo(load.suite))
    }

    static func expectAgreement(_ load: ReferenceLoad, in run: ReferenceRun) throws {
        let webKit = try #require(run.webKit[load.id], "WebKit gave no result")
        let evaluator = try run.evaluator.get()
        let actions = evaluator.actions(for: load.request)
        #expect(
            actions.isBlocked == webKit.blocked,
            "evaluator: \(actions.actions.map(\.type)), WebKit: \(webKit.detail); \(load.summary)")
    }
}

import Testing
import TrackerDataKit
import TrackerlessCore
import TrackerlessTestSupport

/// The privacy-configuration cases about blocking (`contentBlocking`, `trackerAllowlist`)
/// through rules built from the case's configuration and a one-tracker blocklist: a third-party
/// request to a default-block tracker is blocked exactly when tracker blocking is on for the site.
@Suite("Privacy configuration through the built rules", .enabled(if: SharedData.shouldRun, SharedData.skipMessage))
struct PrivacyConfigurationRuleTests {
    /// The features whose state changes what the rules block.
    static let blockingFeatures: Set<String> = [
        PrivacyConfiguration.FeatureName.contentBlocking,
        PrivacyConfiguration.FeatureName.trackerAllowlist,
        PrivacyConfiguration.FeatureName.requestBlocklist,
    ]

    static let cases = PrivacyConfigurationCase.all.filter { blockingFeatures.contains($0.featureName) }

    /// One tracker that blocks everything by default, owned by an entity no test site belongs to.
    static let trackerData: Result<TrackerData, TrackerDataError> = Result {
        () throws(TrackerDataError) -> TrackerData in
        try TrackerData(parsing: Array(PrivacyConfigurationCase.oneTrackerBlocklist.utf8), file: "one-tracker tds")
    }

    static let trackerURL = "https://tracker.example/pixel.gif"

    @Test("the suite has blocking cases for contentBlocking (17) and trackerAllowlist (2)")
    func suiteSize() {
        #expect(Self.cases.filter { $0.featureName == PrivacyConfiguration.FeatureName.contentBlocking }.count == 17)
        #expect(Self.cases.filter { $0.featureName == PrivacyConfiguration.FeatureName.trackerAllowlist }.count == 2)
    }

    @Test("a default-block tracker is blocked iff tracker blocking is on", arguments: cases)
    func blocking(_ test: PrivacyConfigurationCase) throws {
        var configuration = try PrivacyConfiguration(contentsOfFile: test.referenceConfigPath)
        let site = try #require(CanonicalURL(test.topURL))
        let expectsBlocked: Bool
        switch test.featureName {
        case PrivacyConfiguration.FeatureName.trackerAllowlist:
            // Allowlist the tracker everywhere: it loads exactly when the allowlist is on (and
            // tracker blocking would block it otherwise).
            configuration.trackerAllowlist = TrackerAllowlist(entries: [
                .init(trackerDomain: "tracker.example", rules: [.init(rule: "tracker.example/", domains: ["<all>"])])
            ])
            let blocking = configuration.isFeatureEnabled(
                PrivacyConfiguration.FeatureName.contentBlocking, forTopURL: site)
            expectsBlocked = blocking && !test.expectFeatureEnabled
        default:
            expectsBlocked = test.expectFeatureEnabled
        }
        let rules = try BuiltRules(trackerData: Self.trackerData.get(), configuration: configuration)
        let outcome = rules.outcome(requestURL: Self.trackerURL, topURL: test.topURL, type: .image)
        let decision = try #require(outcome.decision, "unparsable URL")
        #expect(decision.isBlocked == expectsBlocked, "resolver: \(outcome)")
        #expect(outcome.isBlockedByRules == expectsBlocked, "rules: \(outcome)")
    }
}

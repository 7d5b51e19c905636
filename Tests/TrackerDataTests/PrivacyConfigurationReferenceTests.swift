import Testing
import TrackerDataKit
import TrackerlessCore
import TrackerlessTestSupport

/// privacy-reference-tests/privacy-configuration/tests.json: every set (feature states, local
/// and global exceptions, about:blank frames, scripts, missing features); cases from
/// TrackerlessTestSupport.
@Suite("Privacy configuration reference tests", .enabled(if: SharedData.shouldRun, SharedData.skipMessage))
struct PrivacyConfigurationReferenceTests {
    @Test("the suite has 58 cases in 7 sets")
    func suiteSize() {
        #expect(PrivacyConfigurationCase.all.count == 58)
        #expect(Set(PrivacyConfigurationCase.all.map(\.set)).count == 7)
    }

    @Test("isFeatureEnabled", arguments: PrivacyConfigurationCase.all)
    func featureEnabled(_ test: PrivacyConfigurationCase) throws {
        let configuration = try PrivacyConfiguration(
            contentsOfFile: test.referenceConfigPath)
        let site = try #require(CanonicalURL(test.topURL))
        let frame = test.frameURL.flatMap(CanonicalURL.init)
        let script = test.scriptURL.flatMap(CanonicalURL.init)
        #expect(
            configuration.isFeatureEnabled(test.featureName, forTopURL: site, frameURL: frame, scriptURL: script)
                == test.expectFeatureEnabled)
    }
}

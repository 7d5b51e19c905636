import Testing
import TrackerData
import TrackerlessCore

/// privacy-reference-tests/privacy-configuration/tests.json: every set (feature states, local
/// and global exceptions, about:blank frames, scripts, missing features).
struct PrivacyConfigurationCase: Sendable, CustomTestStringConvertible {
    var set: String
    var referenceConfig: String
    var name: String
    var featureName: String
    var siteURL: String
    var frameURL: String?
    var scriptURL: String?
    var expectFeatureEnabled: Bool

    var testDescription: String { "\(set): \(name)" }

    static let all: [PrivacyConfigurationCase] = {
        guard let root = SharedData.json("\(SharedData.privacyConfiguration)/tests.json"),
            let sets = try? root.members()
        else { return [] }
        var cases: [PrivacyConfigurationCase] = []
        for (setKey, set) in sets {
            guard let tests = try? set.required("tests").array(),
                let config = try? set.required("referenceConfig").string()
            else { continue }
            for test in tests {
                cases.append(PrivacyConfigurationCase(
                    set: setKey, referenceConfig: config,
                    name: (try? test.required("name").string()) ?? "?",
                    featureName: (try? test.required("featureName").string()) ?? "",
                    siteURL: (try? test.required("siteURL").string()) ?? "",
                    frameURL: try? test["frameURL"]?.string(),
                    scriptURL: try? test["scriptURL"]?.string(),
                    expectFeatureEnabled: (try? test.required("expectFeatureEnabled").bool()) ?? false))
            }
        }
        return cases
    }()
}

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
            contentsOfFile: SharedData.path("\(SharedData.privacyConfiguration)/\(test.referenceConfig)"))
        let site = try #require(CanonicalURL(test.siteURL))
        let frame = test.frameURL.flatMap(CanonicalURL.init)
        let script = test.scriptURL.flatMap(CanonicalURL.init)
        #expect(
            configuration.isFeatureEnabled(test.featureName, forSiteURL: site, frameURL: frame, scriptURL: script)
                == test.expectFeatureEnabled)
    }
}

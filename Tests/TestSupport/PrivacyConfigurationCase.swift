public import Testing
import TrackerlessCore

/// One case of `privacy-configuration/tests.json` (58 cases in 7 sets): whether a feature is on
/// for a site (and optionally a frame or a script) under one of the folder's configurations.
public struct PrivacyConfigurationCase: Sendable, CustomTestStringConvertible {
    /// The test set's key in the file.
    public var set: String
    /// The configuration file in the folder, for example `config2_reference.json`.
    public var referenceConfig: String
    /// The case's name in the file.
    public var name: String
    /// The feature, for example `contentBlocking`.
    public var featureName: String
    /// The top-level page.
    public var topURL: String
    /// The frame's URL, when the case is about a frame (`about:blank`).
    public var frameURL: String?
    /// The script's URL, when the case is about a script.
    public var scriptURL: String?
    /// Whether the feature must be on.
    public var expectFeatureEnabled: Bool

    /// `set: name`, so that a failing case is reported by name.
    public var testDescription: String { "\(set): \(name)" }

    /// The absolute path of the case's configuration.
    public var referenceConfigPath: String { SharedData.path("\(SharedData.privacyConfiguration)/\(referenceConfig)") }

    /// Every case in file order; empty when the file is missing.
    public static let all: [PrivacyConfigurationCase] = {
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
                    topURL: (try? test.required("siteURL").string()) ?? "",
                    frameURL: try? test["frameURL"]?.string(),
                    scriptURL: try? test["scriptURL"]?.string(),
                    expectFeatureEnabled: (try? test.required("expectFeatureEnabled").bool()) ?? false))
            }
        }
        return cases
    }()
}

extension PrivacyConfigurationCase {
    /// The blocklist the suite's blocking cases run against: one tracker that blocks everything
    /// by default, owned by an entity no test site belongs to.
    public static let oneTrackerBlocklist = """
        {
          "trackers": {
            "tracker.example": {
              "domain": "tracker.example", "default": "block", "rules": [],
              "owner": {"name": "Tracker Inc", "displayName": "Tracker"}
            }
          },
          "entities": {"Tracker Inc": {"domains": ["tracker.example"], "displayName": "Tracker", "prevalence": 1}},
          "domains": {"tracker.example": "Tracker Inc"},
          "cnames": {}
        }
        """
}

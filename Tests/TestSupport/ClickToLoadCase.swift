public import Testing
public import TrackerDataKit
import TrackerlessCore

/// One case of `click-to-load/tests.json` (17 cases): whether a request is blocked, redirected or
/// ignored on a page, given the Click-to-Load rule actions the user unblocked there, under the
/// folder's blocklist, configuration and surrogates.
public struct ClickToLoadCase: Sendable, CustomTestStringConvertible {
    /// The case's name in the file.
    public var name: String
    /// The top-level page.
    public var topURL: String
    /// The request.
    public var requestURL: String
    /// The Click-to-Load rule actions the user allowed on the page.
    public var userUnblockedRuleActions: [String]
    /// `block`, `redirect` or `ignore` (not blocked: `ignore`, or not a tracker at all).
    public var expectedOutcome: String
    /// Platforms that skip the case.
    public var exceptPlatforms: [String]

    /// The case's name, so that a failing case is reported by it.
    public var testDescription: String { name }

    /// The folder of the suite.
    public static let folder = "privacy-reference-tests/click-to-load"

    /// The suite's blocklist, configuration and surrogates.
    public static func loadFixture() throws(TrackerDataError) -> (TrackerData, PrivacyConfiguration, Surrogates) {
        let text = String(decoding: SharedData.bytes("\(folder)/surrogates_reference.txt") ?? [], as: UTF8.self)
        return (
            try TrackerData(contentsOfFile: SharedData.path("\(folder)/tds_reference.json")),
            try PrivacyConfiguration(contentsOfFile: SharedData.path("\(folder)/config_reference.json")),
            Surrogates(parsing: text, file: "surrogates_reference.txt"))
    }

    /// Every case in file order; empty when the file is missing.
    public static let all: [ClickToLoadCase] = {
        guard let root = SharedData.json("\(folder)/tests.json"), let sets = try? root.members() else { return [] }
        var cases: [ClickToLoadCase] = []
        for (_, set) in sets {
            for test in (try? set.required("tests").array()) ?? [] {
                cases.append(ClickToLoadCase(
                    name: (try? test.required("name").string()) ?? "?",
                    topURL: (try? test.required("siteUrl").string()) ?? "",
                    requestURL: (try? test.required("requestUrl").string()) ?? "",
                    userUnblockedRuleActions: (try? test["userUnblockedRuleActions"]?.stringArray()) ?? [],
                    expectedOutcome: (try? test.required("expectedOutcome").string()) ?? "",
                    exceptPlatforms: (try? test["exceptPlatforms"]?.stringArray()) ?? []))
            }
        }
        return cases
    }()
}

import NavigationProtections
import Testing
import TrackerDataKit
import TrackerlessCore
import TrackerlessTestSupport

@Suite("Tracking parameters: the url-parameters reference suite", .enabled(if: SharedData.shouldRun, SharedData.skipMessage))
struct TrackingParametersTests {
    static let suite = ReferenceSuite(folder: "url-parameters")

    @Test("the suite has its 20 cases")
    func suiteSize() {
        #expect(Self.suite.cases.count == 20)
    }

    @Test("every case, no platform exception", arguments: suite.cases)
    func referenceCase(_ test: ReferenceCase) throws {
        let protection = TrackingParameters(configuration: try Self.suite.configuration())
        let url = try #require(test.string("testURL"))
        let expected = try #require(test.string("expectURL"))
        #expect(protection.cleaning(url, initiator: test.string("initiatorURL")) == (expected.isEmpty ? url : expected))
    }
}

@Suite("Tracking parameters")
struct TrackingParametersUnitTests {
    static let configuration = PrivacyConfiguration(features: [
        "trackingParameters": PrivacyConfiguration.Feature(
            state: .enabled, exceptions: [PrivacyConfiguration.Exception(domain: "kept.example")],
            settings: .object(JSONObject([("parameters", .array([.string("utm_source"), .string("gclid")]))])))
    ])

    @Test("the fragment stays, and a query left empty loses its ?")
    func fragmentAndEmptyQuery() {
        let protection = TrackingParameters(configuration: Self.configuration)
        #expect(protection.cleaning("https://a.example/p?utm_source=x#top") == "https://a.example/p#top")
        #expect(protection.cleaning("https://a.example/p?q=1&gclid=2#gclid=3") == "https://a.example/p?q=1#gclid=3")
    }

    @Test("the user's allowlist and a disabled feature leave the URL alone")
    func scope() {
        let url = "https://a.example/p?gclid=2"
        #expect(TrackingParameters(configuration: Self.configuration, userAllowlist: UserAllowlist(domains: ["a.example"])).cleaning(url) == url)
        var disabled = Self.configuration
        disabled.features["trackingParameters"]?.state = .disabled
        #expect(TrackingParameters(configuration: disabled).cleaning(url) == url)
        #expect(TrackingParameters(configuration: Self.configuration).cleaning("https://sub.kept.example/?gclid=1") == "https://sub.kept.example/?gclid=1")
    }
}

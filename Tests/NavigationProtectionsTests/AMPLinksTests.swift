import NavigationProtections
import Testing
import TrackerDataKit
import TrackerlessCore
import TrackerlessTestSupport

@Suite("AMP links: the amp-protections reference suite", .enabled(if: SharedData.shouldRun, SharedData.skipMessage))
struct AMPLinksTests {
    static let suite = ReferenceSuite(folder: "amp-protections")

    @Test("the suite has its 12 cases")
    func suiteSize() {
        #expect(Self.suite.cases.count == 12)
    }

    @Test("every case, no platform exception", arguments: suite.cases)
    func referenceCase(_ test: ReferenceCase) throws {
        let protection = AMPLinks(configuration: try Self.suite.configuration())
        #expect(protection.invalidLinkFormats.isEmpty)
        let url = try #require(test.string("ampURL"))
        if let expected = test.string("expectURL") {
            #expect(protection.canonicalURL(forAMPLink: url) == (expected.isEmpty ? nil : expected))
        } else {
            let detected = try #require(test.bool("expectAmpDetected"))
            #expect(protection.isAMPKeywordURL(url) == detected)
        }
    }
}

@Suite("AMP links")
struct AMPLinksUnitTests {
    @Test("a link format that does not compile is skipped and reported; the others still work")
    func invalidFormat() {
        let settings = JSONObject([
            ("linkFormats", .array([.string("(unclosed"), .string("^https://amp\\.example/c/(\\S+)$")])),
            ("keywords", .array([.string("/amp")])),
        ])
        let configuration = PrivacyConfiguration(features: ["ampLinks": .init(state: .enabled, settings: .object(settings))])
        let protection = AMPLinks(configuration: configuration)
        #expect(protection.invalidLinkFormats.map(\.pattern) == ["(unclosed"])
        #expect(protection.canonicalURL(forAMPLink: "https://amp.example/c/news.example/a") == "https://news.example/a")
        #expect(AMPLinks(configuration: configuration, userAllowlist: UserAllowlist(domains: ["amp.example"]))
            .canonicalURL(forAMPLink: "https://amp.example/c/news.example/a") == nil)
    }
}

import NavigationProtections
import Testing
import TrackerDataKit
import TrackerlessTestSupport

@Suite("Referrer trimming: the referrer-trimming reference suite", .enabled(if: SharedData.shouldRun, SharedData.skipMessage))
struct ReferrerTrimmingTests {
    static let suite = ReferenceSuite(folder: "referrer-trimming")

    @Test("the suite has its 34 cases")
    func suiteSize() {
        #expect(Self.suite.cases.count == 34)
    }

    @Test("every case, no platform exception", arguments: suite.cases)
    func referenceCase(_ test: ReferenceCase) throws {
        let trimming = ReferrerTrimming(configuration: try Self.suite.configuration(), trackerData: try Self.suite.trackerData())
        let referrer = test.string("referrerValue")
        if let from = test.string("navigatingFromURL") {
            let to = try #require(test.string("navigatingToURL"))
            #expect(trimming.navigationReferrer(referrer, from: from, to: to) == test.string("expectReferrerHeaderValue"))
        } else if let request = test.string("requestURL") {
            let site = try #require(test.string("siteURL"))
            #expect(trimming.subrequestReferrer(referrer, topURL: site, requestURL: request) == test.string("expectReferrerHeaderValue"))
        } else {
            let site = try #require(test.string("siteURL"))
            let expected = try #require(test.string("expectReferrerAPIValue"))
            #expect(trimming.documentReferrer(referrer ?? "", topURL: site, frameURL: test.string("frameURL")) == expected)
        }
    }
}

import NavigationProtections
import Testing
import TrackerDataKit
import TrackerlessTestSupport

@Suite("Global Privacy Control: the global-privacy-control reference suite", .enabled(if: SharedData.shouldRun, SharedData.skipMessage))
struct GlobalPrivacyControlTests {
    static let suite = ReferenceSuite(folder: "global-privacy-control")

    @Test("the suite has its 15 cases")
    func suiteSize() {
        #expect(Self.suite.cases.count == 15)
    }

    /// The header scopes a case holds for. Two cases contradict each other on purpose: one is for
    /// hosts that send the header to `gpcHeaderEnabledSites` only, one for hosts that send it on
    /// every request; each runs in the scope it describes, every other case in both.
    static func scopes(of test: ReferenceCase) -> [GlobalPrivacyControl.HeaderScope] {
        if test.name.contains("on platforms using gpcHeaderEnabledSites") { return [.enabledSites] }
        if test.name.contains("on platforms not using gpcHeaderEnabledSites") { return [.everyRequest] }
        return [.enabledSites, .everyRequest]
    }

    @Test("every case, in every header scope it holds for", arguments: suite.cases)
    func referenceCase(_ test: ReferenceCase) throws {
        let configuration = try Self.suite.configuration()
        let site = try #require(test.string("siteURL"))
        for scope in Self.scopes(of: test) {
            let gpc = GlobalPrivacyControl(configuration: configuration, isOnForUser: test.bool("gpcUserSettingOn") ?? true, headerScope: scope)
            if let expectHeader = test.bool("expectGPCHeader") {
                #expect(test.string("requestURL") != nil)
                let value = gpc.headerValue(topURL: site)
                #expect((value != nil) == expectHeader, "\(scope)")
                if let expected = test.string("expectGPCHeaderValue") { #expect(value == expected, "\(scope)") }
            } else {
                let api = gpc.javaScriptValue(topURL: site)
                #expect((api != nil) == (try #require(test.bool("expectGPCAPI"))))
                if let expected = test.string("expectGPCAPIValue") {
                    #expect((api.map { $0 ? "true" : "false" } ?? "undefined") == expected)
                }
            }
        }
    }
}

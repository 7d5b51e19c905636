import NavigationProtections
import Testing
import TrackerDataKit

@Suite("Global Privacy Control: the sites that get the header")
struct GlobalPrivacyControlSiteTests {
    /// The configuration's sites were lowercased with `String.lowercased()` and compared by
    /// `hasSuffix`: an IDN never matched the Punycode host of a URL. They are normalized as every
    /// other list of domains is now (``DomainName/normalized(_:)``).
    @Test("gpcHeaderEnabledSites: case, a final dot and IDNs are normalized like every other domain list")
    func headerEnabledSitesNormalized() throws {
        let json = #"{"features": {"gpc": {"state": "enabled", "exceptions": [], "settings": {"gpcHeaderEnabledSites": ["Bücher.Example.", "NEWS.example", ""]}}}}"#
        let configuration = try PrivacyConfiguration(parsing: Array(json.utf8), file: "test config")
        let gpc = GlobalPrivacyControl(configuration: configuration, isOnForUser: true, headerScope: .enabledSites)
        #expect(gpc.headerEnabledSites == ["xn--bcher-kva.example", "news.example", ""])
        #expect(gpc.headerValue(topURL: "https://shop.bücher.example/") == "1")
        #expect(gpc.headerValue(topURL: "https://www.news.example./") == "1")
        #expect(gpc.headerValue(topURL: "https://badnews.example/") == nil)
        #expect(gpc.headerValue(topURL: "https://other.example/") == nil)
    }
}

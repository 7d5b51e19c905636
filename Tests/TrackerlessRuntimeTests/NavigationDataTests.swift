import Foundation
import NavigationProtections
import Testing
import TrackerDataKit
import TrackerlessRuntime
import TrackerlessTestSupport

/// A set's navigation data (what the navigation protections read of its configuration and
/// blocklist, which a WebKitGTK web process loads instead of the inputs) decides every navigation,
/// subrequest referrer and GPC header as the set's own composition of the whole inputs does.
@Suite("ProtectionSet.navigationData: the same decisions as the inputs")
struct NavigationDataTests {
    /// Every navigation protection on, with exceptions, an unprotected site and settings, beside
    /// features the data leaves out.
    static let configuration = #"""
        {"features": {
           "contentBlocking": {"state": "enabled", "exceptions": [{"domain": "shop.example", "reason": "broken"}]},
           "referrer": {"state": "enabled", "exceptions": [{"domain": "blog.example"}]},
           "trackingParameters": {"state": "enabled", "exceptions": [{"domain": "mail.example"}],
             "settings": {"parameters": ["utm_source", "fbclid", "gclid"]}},
           "ampLinks": {"state": "enabled", "exceptions": [],
             "settings": {"linkFormats": ["^https?:\\/\\/(?:w{3}\\.)?google\\.\\S{2,}\\/amp\\/s\\/(\\S+)$"], "keywords": ["/amp", "amp."]}},
           "gpc": {"state": "enabled", "exceptions": [{"domain": "bank.example"}],
             "settings": {"gpcHeaderEnabledSites": ["news.example", "firsttest.com", "nytimes.com"]}}},
         "unprotectedTemporary": [{"domain": "unprotected.example"}]}
        """#

    /// The user allowlist.
    static let allowlist = #"["allowed.example", "www.cnn.com"]"#

    /// The inputs: the configuration above, `trackerData`, an allowlisted site.
    static func inputs(_ trackerData: InputDocument) -> ProtectionInputs {
        var inputs = ProtectionInputs(trackerData: trackerData)
        inputs.privacyConfiguration = .bytes(Array(configuration.utf8), name: "privacy-config.json")
        inputs.userAllowlist = .bytes(Array(allowlist.utf8), name: "allowlist.json")
        return inputs
    }

    /// Pages, trackers of the sample (direct, a subdomain, a CNAME), first parties and the
    /// configuration's excepted sites.
    static let sampleURLs = [
        "https://news.example/story?utm_source=x&id=1", "https://ads.example/tag.js?fbclid=2", "https://edge.ads.example/p",
        "https://stats.news.example/c", "https://track.shop.example/t", "https://shop.example/item?gclid=3",
        "https://metrics.example/m", "https://collector.metrics.example/c", "https://social.example/share",
        "https://socialphotos.example/i.jpg", "https://blog.example/post?utm_source=y", "https://mail.example/?fbclid=1",
        "https://bank.example/login", "https://unprotected.example/a?utm_source=z", "https://allowed.example/?gclid=1",
        "https://www.google.com/amp/s/news.example/amp/story?utm_source=x", "http://amp.other.example/page",
        "https://adserver.example/x", "not a url",
    ]

    /// Compares the set's composition with the one from its navigation data for each pair of
    /// `urls` as page and destination: the navigation decision, a subrequest's Referer and the
    /// GPC header of a host that sees every request. Returns the number of differences.
    static func differences(_ inputs: ProtectionInputs, urls: [String]) throws -> Int {
        let set = try ProtectionSet.build(inputs)
        let data = try NavigationProtectionData(parsing: set.navigationData)
        let allowlist = try UserAllowlist(parsing: Array(Self.allowlist.utf8))
        let fromData = NavigationProtector(data, userAllowlist: allowlist)
        // The whole inputs composed, as `trackerless navigate` does, and the set's own decision
        // (made from its data): both against the data's.
        let fromInputs = try inputs.navigationProtector()
        let everyRequest = try inputs.navigationProtector(gpcHeaderScope: .everyRequest)
        let everyRequestFromData = NavigationProtector(data, userAllowlist: allowlist, gpcHeaderScope: .everyRequest)
        var differences = 0
        for page in urls {
            for url in urls {
                let navigation = Navigation(url: url, initiator: page, referrer: page)
                let expected = fromInputs.decision(for: navigation)
                let actual = fromData.decision(for: navigation)
                if expected != actual {
                    differences += 1
                    Issue.record("\(page) -> \(url): \(actual) from the data, \(expected) from the inputs")
                }
                if set.navigationProtector.decision(for: navigation) != expected {
                    differences += 1
                    Issue.record("\(page) -> \(url): the set's decision differs from the inputs'")
                }
                let referrer = everyRequest.referrerTrimming.subrequestReferrer(page, topURL: page, requestURL: url)
                let dataReferrer = everyRequestFromData.referrerTrimming.subrequestReferrer(page, topURL: page, requestURL: url)
                if referrer != dataReferrer {
                    differences += 1
                    Issue.record("Referer of \(url) on \(page): \(dataReferrer ?? "none") from the data, \(referrer ?? "none") from the inputs")
                }
            }
            let header = everyRequest.globalPrivacyControl.headerValue(topURL: page)
            if header != everyRequestFromData.globalPrivacyControl.headerValue(topURL: page) {
                differences += 1
                Issue.record("Sec-GPC on \(page) differs")
            }
        }
        return differences
    }

    @Test("the bundled sample: every navigation, Referer and Sec-GPC decided alike; some of each protection applied")
    func sample() throws {
        let inputs = Self.inputs(ProtectionInputs.sample.trackerData)
        #expect(try Self.differences(inputs, urls: Self.sampleURLs) == 0)
        // The comparison covers each protection: the data's protector applies them.
        let data = try NavigationProtectionData(parsing: try ProtectionSet.build(inputs).navigationData)
        let protector = NavigationProtector(data)
        let decision = protector.decision(for: Navigation(
            url: "https://www.google.com/amp/s/news.example/story?utm_source=x", initiator: "https://metrics.example/",
            referrer: "https://metrics.example/page"))
        #expect(decision.url == "https://news.example/story")
        #expect(decision.reasons == [.ampLinkResolved, .trackingParametersRemoved, .globalPrivacyControl, .referrerTrimmed])
        #expect(protector.referrerTrimming.subrequestReferrer(
            "https://news.example/story", topURL: "https://news.example/story", requestURL: "https://stats.news.example/c")
            == "https://news.example/", "a tracker of another owner under the site, by its CNAME or domain")
    }

    @Test("apple-tds.json: the navigations between the pages and URLs of the real requests decided alike",
          .enabled(if: SharedData.shouldRun("tds/apple-tds.json"), SharedData.skipMessage))
    func appleTDS() throws {
        let inputs = Self.inputs(.file(SharedData.path("tds/apple-tds.json")))
        // Every 40th request's URL and page (about 200 each, 90,000 pairs), and the sample's.
        let requests = MatchingTestRequest.all.enumerated().filter { $0.offset % 40 == 0 }.map(\.element)
        #expect(requests.count > 150)
        let urls = Array(Set(requests.flatMap { [$0.url, $0.sourceURL] }).sorted().prefix(300)) + Self.sampleURLs
        #expect(try Self.differences(inputs, urls: urls) == 0)
    }

    @Test("only what the protections read: other features, reasons and the trackers' rules left out; encoded and parsed back whole")
    func compact() throws {
        let set = try ProtectionSet.build(Self.inputs(ProtectionInputs.sample.trackerData))
        let data = try NavigationProtectionData(parsing: set.navigationData)
        #expect(data.configuration.features.keys.sorted() == ["ampLinks", "gpc", "referrer", "trackingParameters"])
        #expect(data.configuration.unprotectedTemporary.map(\.domain) == ["unprotected.example"])
        #expect(data.configuration.features["referrer"]?.exceptions.map(\.reason) == [nil])
        #expect(data.trackerData.trackers["ads.example"]?.rules.isEmpty == true)
        #expect(data.trackerData.entities.isEmpty && !data.trackerData.domains.isEmpty && !data.trackerData.cnames.isEmpty)
        #expect(data.encoded() == set.navigationData, "the encoding depends only on what it holds")
        #expect(NavigationProtectionData(configuration: data.configuration, trackerData: data.trackerData) == data)
    }

    @Test("a set from the cache carries the built set's navigation data, without parsing the blocklist")
    func cached() throws {
        let directory = try RuntimeFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let inputs = Self.inputs(ProtectionInputs.sample.trackerData)
        let built = try ProtectionSet.load(inputs, cacheDirectory: directory)
        let cached = try ProtectionSet.load(inputs, cacheDirectory: directory)
        #expect(built.origin == .built && cached.origin == .cache)
        #expect(cached.navigationData == built.navigationData)
        #expect(!cached.navigationData.isEmpty)
    }

    @Test("another format version or a missing part is refused, naming the file")
    func refusals() {
        for (text, words) in [
            (#"{"format": 2, "privacyConfiguration": {}, "trackerData": {"trackers": {}}}"#, "not format 1"),
            (#"{"format": 1, "trackerData": {"trackers": {}, "entities": {}, "domains": {}}}"#, "\"privacyConfiguration\" is missing"),
            ("[", "nav.json"),
        ] {
            #expect {
                try NavigationProtectionData(parsing: Array(text.utf8), file: "nav.json")
            } throws: { error in
                "\(error)".contains(words) && "\(error)".hasPrefix("nav.json")
            }
        }
    }
}

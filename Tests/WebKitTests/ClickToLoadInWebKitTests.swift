import ContentRuleList
import RuleBuilder
import Testing
import TrackerDataKit
import TrackerlessTestSupport

/// Click-to-Load in WebKitGTK: with every rule list compiled a Facebook-style and a YouTube-style
/// embed are blocked; with one action's list removed (the user clicked to load those embeds on
/// the page) its embeds load and the other action's stay blocked.
@Suite("Click-to-Load lists in WebKitGTK")
struct ClickToLoadInWebKitTests {
    static let trackerData = #"""
        {"trackers": {
           "facebook.net": {"domain": "facebook.net", "owner": {"name": "Facebook, Inc.", "displayName": "Facebook"},
             "default": "ignore", "rules": [{"rule": "facebook\\.net/[a-z_A-Z]+/sdk\\.js", "action": "block-ctl-fb"}]},
           "facebook.com": {"domain": "facebook.com", "owner": {"name": "Facebook, Inc.", "displayName": "Facebook"},
             "default": "ignore", "rules": [{"rule": "facebook\\.com/plugins/", "action": "block-ctl-fb"},
                                            {"rule": "facebook\\.com/tr"}]},
           "youtube.com": {"domain": "youtube.com", "owner": {"name": "Google LLC", "displayName": "Google"},
             "default": "ignore", "rules": [{"rule": "youtube\\.com/embed/", "action": "block-ctl-yt"}]}},
         "entities": {"Facebook, Inc.": {"displayName": "Facebook", "domains": ["facebook.com", "facebook.net"]},
                      "Google LLC": {"displayName": "Google", "domains": ["youtube.com"]}},
         "domains": {"facebook.com": "Facebook, Inc.", "facebook.net": "Facebook, Inc.", "youtube.com": "Google LLC"}}
        """#

    static let page = "https://news.example/article"
    static let youtube = (url: "https://www.youtube.com/embed/abc123", type: "child-document")
    static let facebookPlugin = (url: "https://www.facebook.com/plugins/post.php?href=x", type: "child-document")
    static let facebookSDK = (url: "https://connect.facebook.net/en_US/sdk.js", type: "script")
    static let facebookPixel = (url: "https://www.facebook.com/tr?id=1", type: "image")

    @Test("the embeds are blocked with every list, and load once their action's list is removed",
          .enabled(if: WebKitHarness.shouldRun, "WebKitGTK (python3-gi, gir1.2-webkit2-4.1, xvfb) is not installed"))
    func webKit() throws {
        let harness = try #require(try WebKitHarness.make(), "WebKitGTK is not installed")
        let build = RuleListBuilder(trackerData: try TrackerData(parsing: Array(Self.trackerData.utf8))).build()
        #expect(build.clickToLoadActions == [nil, "block-ctl-fb", "block-ctl-yt"])
        let requests = [Self.youtube, Self.facebookPlugin, Self.facebookSDK, Self.facebookPixel]
        // unblocked actions -> what stays blocked
        let expectations: [(unblocked: Set<String>, blocked: [Bool])] = [
            ([], [true, true, true, true]),
            (["block-ctl-yt"], [false, true, true, true]),
            (["block-ctl-fb"], [true, false, false, true]),
        ]
        for (unblocked, blocked) in expectations {
            let cases = requests.enumerated().map { index, request in
                WebKitHarness.LoadCase(id: "\(index) \(request.url)", topURL: Self.page, requestURL: request.url, type: request.type)
            }
            let lists = build.ruleLists(unblocking: unblocked).map { $0.encoded() }
            let results = try harness.load(ruleLists: lists, cases: cases)
            for (load, isBlocked) in zip(cases, blocked) {
                let webKit = try #require(results[load.id], "WebKit gave no result for \(load.id)")
                #expect(webKit.blocked == isBlocked, "\(load.id), unblocked \(unblocked.sorted()): WebKit \(webKit.detail)")
            }
        }
    }
}

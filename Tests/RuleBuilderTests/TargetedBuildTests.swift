import ContentRuleList
import RuleBuilder
import Testing
import TrackerDataKit
import TrackerlessCore

/// Every list kind built for every target: only what that WebKit knows, the resolver's meaning
/// as it evaluates them.
@Suite("Rule builder: lists for each WebKit")
struct TargetedBuildTests {
    /// A tracker whose rules are limited to frames and to navigations, one on a CSP report only,
    /// another owned by a company with a second site, and a cloaked host.
    static let source = tds([
        tracker("frames.example", default: "ignore", rules: #"""
            [{"rule": "frames\\.example/embed", "options": {"types": ["subdocument"]}},
             {"rule": "frames\\.example/nav", "options": {"types": ["main_frame", "image"]}},
             {"rule": "frames\\.example/report", "options": {"types": ["csp_report"]}}]
            """#),
        tracker("ads.example", owner: "Ads Co"),
    ], entities: #"{"Ads Co": {"domains": ["ads.example", "ads-media.example"]}}"#,
       domains: #"{"ads.example": "Ads Co", "ads-media.example": "Ads Co"}"#,
       cnames: #"{"m.news.example": "ads.example"}"#)

    @Test("each target's lists name only what it knows and pass its validator", arguments: WebKitTarget.all)
    func vocabulary(target: WebKitTarget) throws {
        let rules = try BuiltRules(Self.source, settings: .init(target: target))
        for list in rules.build.ruleLists {
            try list.validateTriggers(for: target)
            #expect(try list.validate(for: target).isEmpty)
            let types = Set(list.rules.flatMap(\.trigger.resourceTypes))
            #expect(types.allSatisfy(target.supports), "\(types)")
        }
        let cookies = CookieRules(trackerData: try TrackerData(parsing: Array(Self.source.utf8), file: "t"),
                                  settings: .init(target: target)).build()
        for list in cookies.ruleLists { try list.validateTriggers(for: target) }
    }

    @Test("frame and navigation rules mean the same in every target", arguments: WebKitTarget.all)
    func frames(target: WebKitTarget) throws {
        let rules = try BuiltRules(Self.source, settings: .init(target: target))
        #expect(rules.blocks("https://frames.example/embed", on: "https://news.example/", .childDocument))
        #expect(!rules.blocks("https://frames.example/embed", on: "https://news.example/", .image))
        #expect(rules.blocks("https://frames.example/nav.gif", on: "https://news.example/", .image))
        #expect(!rules.blocks("https://frames.example/nav", on: "https://news.example/", .childDocument))
        // Navigations are never blocked, whatever the rule says.
        #expect(!rules.blocks("https://frames.example/nav", on: "https://news.example/", .topDocument))
    }

    @Test("the oldest target says top-document and child-document with load-context, and names the CSP report it cannot say")
    func lowering() throws {
        let old = try BuiltRules(Self.source, settings: .init(target: .oldest)).build
        let types = Set(old.ruleLists.flatMap { $0.rules.flatMap(\.trigger.resourceTypes) })
        #expect(!types.contains(.topDocument) && !types.contains(.childDocument) && !types.contains(.cspReport))
        #expect(old.ruleLists[0].rules.contains { $0.trigger.resourceTypes == [.document] && $0.trigger.loadContexts == [.childFrame] })
        #expect(old.report.approximations.contains {
            $0.path == #"trackers["frames.example"]"# && $0.reason.contains(#""csp-report""#)
        }, "\(old.report.approximations)")
        let newest = try BuiltRules(Self.source, settings: .init(target: .newest)).build
        #expect(newest.ruleLists[0].rules.contains { $0.trigger.resourceTypes.contains(.childDocument) })
        #expect(newest.report.approximations.isEmpty)
    }

    @Test("where third party is by origin, a tracker's own site still loads it; elsewhere it is blocked",
          arguments: [WebKitTarget.safari15, .safari16, .webKitGTK2_44])
    func ownSite(target: WebKitTarget) throws {
        let rules = try BuiltRules(Self.source, settings: .init(target: target))
        #expect(!rules.blocks("https://cdn.ads.example/a.js", on: "https://www.ads.example/"))
        #expect(!rules.blocks("https://ads.example/a.js", on: "http://ads.example:8080/"))
        #expect(!rules.blocks("https://ads.example/a.js", on: "https://ads-media.example/"))
        #expect(rules.blocks("https://ads.example/a.js", on: "https://news.example/"))
        // The cloaked host is blocked on its own site.
        #expect(rules.blocks("https://m.news.example/a.js", on: "https://news.example/"))
    }
}

import ContentRuleList
import Foundation
import NavigationProtections
import RequestHookKit
import RuleEngineKit
import Testing
import TrackerDataKit

/// What the web-process extension decides, without WebKit: the type read from the headers
/// `send-request` gives, the engine's answer, the headers it sets.
@Suite("RequestHookKit: the web-process extension's decisions")
struct RequestHookTests {
    static let page = "https://news.example/article"

    @Test("the type comes from Sec-Fetch-Dest (WebKitGTK 2.50 sends it to the extension), else from Accept",
          arguments: [
            (HookedRequest(url: page, topURL: page, fetchDestination: "document"), ResourceType.topDocument),
            (HookedRequest(url: "https://ads.example/f", topURL: page, fetchDestination: "iframe"), .childDocument),
            (HookedRequest(url: "https://t.example/p.gif", topURL: page, fetchDestination: "image"), .image),
            (HookedRequest(url: "https://t.example/a.js", topURL: page, fetchDestination: "script"), .script),
            (HookedRequest(url: "https://t.example/w.js", topURL: page, fetchDestination: "worker"), .script),
            (HookedRequest(url: "https://t.example/s.css", topURL: page, fetchDestination: "style"), .styleSheet),
            (HookedRequest(url: "https://t.example/f.woff", topURL: page, fetchDestination: "font"), .font),
            (HookedRequest(url: "https://t.example/v.mp4", topURL: page, fetchDestination: "video"), .media),
            (HookedRequest(url: "https://t.example/x", topURL: page, fetchDestination: "empty", fetchMode: "cors"), .fetch),
            (HookedRequest(url: "https://t.example/b", method: "POST", topURL: page, fetchDestination: "empty", fetchMode: "no-cors"), .other),
            (HookedRequest(url: "https://t.example/ping", method: "POST", topURL: page, fetchDestination: "empty", fetchMode: "no-cors", isPing: true), .ping),
            (HookedRequest(url: "https://t.example/r", topURL: page, fetchDestination: "report"), .cspReport),
            (HookedRequest(url: "https://t.example/m.json", topURL: page, fetchDestination: "manifest"), .other),
            (HookedRequest(url: page, topURL: page, accept: "text/html,application/xhtml+xml"), .topDocument),
            (HookedRequest(url: "https://ads.example/f", topURL: page, accept: "text/html,application/xhtml+xml"), .childDocument),
            (HookedRequest(url: "https://t.example/p.gif", topURL: page, accept: "image/webp,*/*;q=0.5"), .image),
            (HookedRequest(url: "https://t.example/s.css", topURL: page, accept: "text/css,*/*;q=0.1"), .styleSheet),
            (HookedRequest(url: "https://t.example/a.js", topURL: page, accept: "*/*"), .other),
          ])
    func resourceType(request: HookedRequest, expected: ResourceType) {
        #expect(request.resourceType == expected)
    }

    @Test("the engine matches a subresource against the page's URL, a navigation against its own")
    func engineRequest() {
        let image = HookedRequest(url: "https://t.example/p.gif", method: "GET", topURL: Self.page, fetchDestination: "image")
        #expect(image.engineRequest == Request(url: "https://t.example/p.gif", topURL: Self.page, resourceType: .image))
        let navigation = HookedRequest(url: "https://other.example/", method: "POST", topURL: Self.page, fetchDestination: "document")
        #expect(navigation.engineRequest == .mainDocument("https://other.example/", method: .post))
        #expect(image.requestType == .image && navigation.requestType == .mainFrame)
    }

    /// A hook with an engine compiled from `rules` and the navigation data of the given
    /// configuration and tds (the sample's when none), as a set's build writes it.
    static func hook(
        rules: String, configuration: String? = nil, trackerData: String? = nil, sitesOff: [String] = [],
        globalPrivacyControl: Bool = true
    ) throws -> (RequestHook, URL) {
        let directory = try BrowserProcess.temporaryDirectory()
        let engine = try RuleEngine(ruleList: try RuleList(parsing: rules))
        let enginePath = directory.appendingPathComponent("engine.bin")
        try Data(engine.compiled()).write(to: enginePath)
        var hookConfiguration = RequestHookConfiguration(
            blocksRequests: true, enginePath: enginePath.path, sitesWithProtectionOff: sitesOff, globalPrivacyControl: globalPrivacyControl)
        if let configuration {
            let data = NavigationProtectionData(
                configuration: try PrivacyConfiguration(parsing: Array(configuration.utf8)),
                trackerData: try TrackerData(parsing: Array((trackerData ?? TrackerData.sampleDocument).utf8)))
            let path = directory.appendingPathComponent("navigation.json")
            try Data(data.encoded()).write(to: path)
            hookConfiguration.navigationDataPath = path.path
        }
        return (try RequestHook(configuration: hookConfiguration), directory)
    }

    static let imageRule = #"[{"trigger": {"url-filter": "^https?://t\\.example/", "resource-type": ["image"]}, "action": {"type": "block"}}]"#

    @Test("blocked by the engine for the type read from the request; not on a site whose protection is off")
    func blocking() throws {
        let (hook, directory) = try Self.hook(rules: Self.imageRule, sitesOff: ["off.example"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let image = HookedRequest(url: "https://t.example/p.gif", topURL: Self.page, fetchDestination: "image")
        let script = HookedRequest(url: "https://t.example/a.js", topURL: Self.page, fetchDestination: "script")
        #expect(hook.verdict(for: image).isBlocked)
        #expect(!hook.verdict(for: script).isBlocked)
        var onSiteOff = image
        onSiteOff.topURL = "https://off.example/"
        #expect(!hook.verdict(for: onSiteOff).isBlocked)
    }

    @Test("a blocked request's verdict names the rule that blocked it, as the reference evaluator does; an allowed one names none")
    func blockingRule() throws {
        let rules = #"""
            [{"trigger": {"url-filter": "^https?://t\\.example/"}, "action": {"type": "block"}},
             {"trigger": {"url-filter": "^https?://t\\.example/keep/"}, "action": {"type": "ignore-previous-rules"}},
             {"trigger": {"url-filter": "^https?://t\\.example/", "resource-type": ["script"]}, "action": {"type": "css-display-none", "selector": ".ad"}},
             {"trigger": {"url-filter": "^https?://t\\.example/keep/but"}, "action": {"type": "block"}}]
            """#
        let (hook, directory) = try Self.hook(rules: rules)
        defer { try? FileManager.default.removeItem(at: directory) }
        let evaluator = try ReferenceEvaluator(ruleLists: [try RuleList(parsing: rules)])
        let cases: [(String, BlockingRule?)] = [
            ("https://t.example/a.js", BlockingRule(list: 0, rule: 0)), ("https://t.example/keep/a.js", nil),
            ("https://t.example/keep/but.js", BlockingRule(list: 0, rule: 3)),
        ]
        for (url, expected) in cases {
            let request = HookedRequest(url: url, topURL: Self.page, fetchDestination: "script")
            let verdict = hook.verdict(for: request)
            #expect(verdict.blockingRule == expected, "\(url)")
            #expect(verdict.isBlocked == (expected != nil), "\(url)")
            let actions = evaluator.actions(for: request.engineRequest).lists[0]
            let reference = zip(actions.actions, actions.ruleIndices).first { $0.0 == .block }.map { BlockingRule(list: 0, rule: $0.1) }
            #expect(verdict.blockingRule == reference, "\(url)")
        }
    }

    @Test("Sec-GPC: 1 on every request of a page where gpc applies, none where the configuration excepts the site; Referer cut to the origin for a tracker")
    func headers() throws {
        let configuration = #"""
            {"features": {"gpc": {"state": "enabled", "exceptions": [{"domain": "excepted.example"}]},
                          "referrer": {"state": "enabled", "exceptions": []}}}
            """#
        let trackerData = #"""
            {"trackers": {"t.example": {"domain": "t.example", "owner": {"name": "T Inc"}, "default": "ignore", "rules": []}},
             "entities": {"T Inc": {"domains": ["t.example"]}}, "domains": {"t.example": "T Inc"}, "cnames": {}}
            """#
        let (hook, directory) = try Self.hook(rules: Self.imageRule, configuration: configuration, trackerData: trackerData)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = HookedRequest(url: "https://t.example/a.js", topURL: Self.page, fetchDestination: "script", referrer: Self.page)
        #expect(hook.verdict(for: script) == RequestVerdict(isBlocked: false, globalPrivacyControl: "1", trimmedReferrer: "https://news.example/"))
        let sameSite = HookedRequest(url: "https://news.example/x.js", topURL: Self.page, fetchDestination: "script", referrer: Self.page)
        #expect(hook.verdict(for: sameSite) == RequestVerdict(isBlocked: false, globalPrivacyControl: "1", trimmedReferrer: nil))
        let excepted = HookedRequest(url: "https://excepted.example/", topURL: Self.page, fetchDestination: "document")
        #expect(hook.verdict(for: excepted).globalPrivacyControl == nil)
    }

    @Test("the user's Global Privacy Control setting off: no Sec-GPC on any request, the same for the user's setting on")
    func userTurnedGlobalPrivacyControlOff() throws {
        let configuration = #"{"features": {"gpc": {"state": "enabled", "exceptions": []}}}"#
        for isOn in [true, false] {
            let (hook, directory) = try Self.hook(rules: Self.imageRule, configuration: configuration, globalPrivacyControl: isOn)
            defer { try? FileManager.default.removeItem(at: directory) }
            let document = HookedRequest(url: Self.page, topURL: Self.page, fetchDestination: "document")
            #expect(hook.verdict(for: document).globalPrivacyControl == (isOn ? "1" : nil))
        }
    }

    @Test("an engine file that is missing or damaged is an error naming the file")
    func badEngine() throws {
        let directory = try BrowserProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("engine.bin").path
        #expect { try RequestHook(configuration: RequestHookConfiguration(blocksRequests: true, enginePath: path)) } throws: {
            ($0 as? RequestHookError).map { "\($0)".hasPrefix(path + ": compiled engine:") } ?? false
        }
        try Data("not an engine".utf8).write(to: URL(fileURLWithPath: path))
        #expect { try RequestHook(configuration: RequestHookConfiguration(blocksRequests: true, enginePath: path)) } throws: {
            ($0 as? RequestHookError).map { "\($0)".hasPrefix(path + ": compiled engine:") } ?? false
        }
    }
}

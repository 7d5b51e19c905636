import ContentRuleList
import Foundation
import RuleBuilder
import Testing
import TrackerDataKit
import TrackerlessCore
import TrackerlessTestSupport
import UserScripts

/// The page protections of blocking.js in a real WebKit, rendered by ``ScriptRenderer`` from this
/// tree's templates and the suites' configurations: `navigator.globalPrivacyControl` in the top
/// frame and in same-origin, cross-origin and about:blank frames (global-privacy-control),
/// `document.referrer` after real navigations and in frames (referrer-trimming), the expiry
/// WebKit's cookie jar keeps for a cookie a tracker script writes (expire-first-party-js-cookies),
/// and the Facebook SDK's widgets replaced by the Click-to-Load placeholder where the rule lists
/// block the SDK.
@Suite(
    "Page protections in WebKitGTK",
    .enabled(if: WebKitHarness.shouldRun, "WebKitGTK (python3-gi, gir1.2-webkit2-4.1, xvfb) is not installed"),
    .enabled(if: SharedData.shouldRun, SharedData.skipMessage),
    .serialized
)
struct PageProtectionsInWebKitTests {
    typealias Resource = UserScriptHarness.Resource

    static let suites = "privacy-reference-tests"

    /// blocking.js from this tree's templates.
    static func blockingScript(
        trackerData: TrackerData, configuration: PrivacyConfiguration, globalPrivacyControl: Bool = true
    ) throws -> String {
        let root = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let templates = try ScriptTemplates(directory: root.appendingPathComponent("JSTemplates").path)
        let renderer = try ScriptRenderer(templates: templates, settings: ScriptSettings(globalPrivacyControl: globalPrivacyControl))
        return renderer.render(trackerData: trackerData, privacyConfiguration: configuration).blocking.source
    }

    /// blocking.js in the page world of every frame at document start, the handler in that world.
    static func spec(_ script: String) -> UserScriptHarness.Spec {
        var spec = UserScriptHarness.Spec()
        spec.scripts = [.init(source: script, world: nil)]
        spec.handlers = [("trackerless", nil)]
        return spec
    }

    static func cases(_ folder: String) -> [JSONNode] {
        guard let root = SharedData.json("\(suites)/\(folder)/tests.json"), let sets = try? root.members() else { return [] }
        return sets.flatMap { (try? $0.node.required("tests").array()) ?? [] }
    }

    static func origin(_ url: String) -> String {
        guard let parsed = CanonicalURL(url) else { return url }
        return parsed.scheme + "://" + parsed.host + (parsed.port.map { ":\($0)" } ?? "")
    }

    /// A page that collects reports from its frames (`label` → report) beside its own, and sets
    /// its title to done once every frame has reported.
    static func collectingPage(head: String = "", own: String, frames: [(url: String, label: String)]) -> String {
        """
        <!DOCTYPE html><html><head><meta charset=utf-8>\(head)<script>
        window.__r = {top: \(own)};
        var expected = \(frames.count);
        function finish() { if (Object.keys(window.__r).length === expected + 1) { document.title = 'done'; } }
        addEventListener('message', function (event) { window.__r[event.data.label] = event.data.report; finish(); });
        finish();
        </script></head><body>
        \(frames.map { "<iframe src=\"\($0.url)#\($0.label)\"></iframe>" }.joined())
        </body></html>
        """
    }

    /// A frame that reports `report` (a JavaScript expression) to its parent under its label.
    static func reportingFrame(head: String = "", report: String) -> String {
        """
        <!DOCTYPE html><html><head><meta charset=utf-8>\(head)<script>
        parent.postMessage({label: location.hash.slice(1), report: \(report)}, '*');
        </script></head><body></body></html>
        """
    }

    // MARK: - Global Privacy Control

    /// Read from the navigator itself: WebKitGTK 2.54 has a native getter, which throws when
    /// read from `Navigator.prototype`.
    static let gpcReport = "{injected: 'globalPrivacyControl' in navigator, value: String(navigator.globalPrivacyControl)}"

    /// WebKitGTK 2.54 has `navigator.globalPrivacyControl` of its own (false unless its setting
    /// is on; MEASURED-FEATURES.md): where the script does not define it, the page sees WebKit's.
    static let hasNativeGPC: Bool = {
        guard let version = try? WebKitHarness.version() else { return false }
        return version.major > 2 || (version.major == 2 && version.minor >= 54)
    }()

    /// The top page's report, with that of an about:blank frame it adds (reported as `blank`).
    static let gpcTopReport = """
        (function () {
          var frame = document.createElement('iframe');
          document.documentElement.appendChild(frame);
          var blank = frame.contentWindow;
          return {injected: 'globalPrivacyControl' in navigator, value: String(navigator.globalPrivacyControl),
                  blank: {injected: 'globalPrivacyControl' in blank.navigator, value: String(blank.navigator.globalPrivacyControl)}};
        })()
        """

    @Test("navigator.globalPrivacyControl: the suite's 6 JavaScript cases, in the top frame and in same-origin, cross-origin and about:blank frames")
    func globalPrivacyControl() throws {
        let harness = try #require(try UserScriptHarness.make(), "WebKitGTK is not installed")
        let configuration = try PrivacyConfiguration(contentsOfFile: SharedData.path("\(Self.suites)/global-privacy-control/config_reference.json"))
        let cases = Self.cases("global-privacy-control").filter { $0["expectGPCAPI"] != nil }
        #expect(cases.count == 6)
        var failures: [String] = []
        for userSetting in [true, false] {
            let group = cases.filter { (try? $0.required("gpcUserSettingOn").bool()) ?? true == userSetting }
            var spec = Self.spec(try Self.blockingScript(
                trackerData: TrackerData(), configuration: configuration, globalPrivacyControl: userSetting))
            // One page per site, with the cases' frames, a cross-origin frame and a same-origin one.
            var sites: [String] = []
            for test in group where !sites.contains(try test.required("siteURL").string()) {
                sites.append(try test.required("siteURL").string())
            }
            for (index, site) in sites.enumerated() {
                var frames = [(url: "https://frame\(index).example/", label: "cross"), (url: Self.origin(site) + "/same-frame", label: "same")]
                for test in group where (try? test.required("siteURL").string()) == site {
                    if let frame = try? test.required("frameURL").string() { frames.append((frame, "case")) }
                }
                spec.resources[site] = .html(Self.collectingPage(own: Self.gpcTopReport, frames: frames))
                for frame in frames { spec.resources[frame.url] = .html(Self.reportingFrame(report: Self.gpcReport)) }
                spec.pages.append(.init(id: site, url: site, timeout: 8, result: "window.__r"))
            }
            let pages = try harness.run(spec)
            for test in group {
                let name = try test.required("name").string()
                let site = try test.required("siteURL").string()
                guard let page = pages[site], page.done else {
                    failures.append("\(name): the page did not finish (\(pages[site]?.loadFailed ?? "no result"))")
                    continue
                }
                // Where the script leaves the API out, a WebKit with its own shows its own (false).
                let expectScript = try test.required("expectGPCAPI").bool()
                let expectInjected = expectScript || Self.hasNativeGPC
                let expectValue = try? test.required("expectGPCAPIValue").string()
                // Where the API is, it says the user's setting; the case's frame, and every frame of the page, as the top.
                let labels = test["frameURL"] != nil ? ["case", "cross", "same", "blank"] : ["top", "cross", "same", "blank"]
                for label in labels {
                    let report = label == "blank" ? page["top"]?["blank"] : page[label]
                    let injected = try? report?.required("injected").bool()
                    let value = try? report?.required("value").string()
                    if injected != expectInjected { failures.append("\(name) [\(label)]: injected \(String(describing: injected))") }
                    let expected = !expectScript && Self.hasNativeGPC
                        ? "false" : expectValue ?? (expectScript ? String(userSetting) : "undefined")
                    if value != expected { failures.append("\(name) [\(label)]: value \(String(describing: value))") }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures)")
    }

    // MARK: - Referrer trimming

    @Test("document.referrer: the suite's 11 cases after real navigations (unsafe-url) and in frames")
    func documentReferrer() throws {
        let harness = try #require(try UserScriptHarness.make(), "WebKitGTK is not installed")
        let folder = "\(Self.suites)/referrer-trimming"
        let configuration = try PrivacyConfiguration(contentsOfFile: SharedData.path("\(folder)/config_reference.json"))
        let trackerData = try TrackerData(contentsOfFile: SharedData.path("\(folder)/tracker_radar_reference.json"))
        let cases = Self.cases("referrer-trimming").filter { $0["expectReferrerAPIValue"] != nil }
        #expect(cases.count == 11)
        var spec = Self.spec(try Self.blockingScript(trackerData: trackerData, configuration: configuration))
        // Every page sends its whole URL as the referrer, so that what the page reads is the script's trimming.
        let policy = "<meta name=referrer content=unsafe-url>"
        var framesBySite: [String: [(url: String, label: String)]] = [:]
        for test in cases {
            let site = try test.required("siteURL").string()
            if let frame = try? test.required("frameURL").string() {
                framesBySite[site, default: []].append((frame, "frame\(framesBySite[site, default: []].count)"))
            }
        }
        for test in cases {
            let site = try test.required("siteURL").string()
            spec.resources[site] = .html(Self.collectingPage(head: policy, own: "document.referrer", frames: framesBySite[site] ?? []))
            for frame in framesBySite[site] ?? [] {
                spec.resources[frame.url] = .html(Self.reportingFrame(head: policy, report: "document.referrer"))
            }
            let referrer = try test.required("referrerValue").string()
            if test["frameURL"] != nil {
                // A frame's referrer is its page's URL, as the cases give it.
                #expect(referrer == site, "\((try? test.required("name").string()) ?? "")")
            } else if !referrer.isEmpty {
                // The referring page navigates, once loaded, to the site named in its fragment
                // (which no referrer carries).
                spec.resources[referrer] = .html("""
                    <!DOCTYPE html><html><head>\(policy)<script>
                    addEventListener('load', function () {
                      setTimeout(function () { location.href = decodeURIComponent(location.hash.slice(1)); }, 0);
                    });
                    </script></head></html>
                    """)
            }
        }
        for (index, test) in cases.enumerated() {
            let site = try test.required("siteURL").string()
            let referrer = try test.required("referrerValue").string()
            let direct = referrer.isEmpty || test["frameURL"] != nil
            let url = direct ? site : referrer + "#" + (site.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? site)
            spec.pages.append(.init(id: "\(index)", url: url, timeout: 8, result: "window.__r"))
        }
        let pages = try harness.run(spec)
        var failures: [String] = []
        for (index, test) in cases.enumerated() {
            let name = try test.required("name").string()
            guard let page = pages["\(index)"], page.done else {
                failures.append("\(name): the page did not finish (\(pages["\(index)"]?.loadFailed ?? "no result"))")
                continue
            }
            var label = "top"
            if let frame = try? test.required("frameURL").string() {
                label = framesBySite[try test.required("siteURL").string()]?.first { $0.url == frame }?.label ?? "?"
            }
            let value = try? page[label]?.string()
            let expected = try test.required("expectReferrerAPIValue").string()
            if value != expected { failures.append("\(name) [\(label)]: \(String(describing: value)), expected \(expected)") }
        }
        #expect(failures.isEmpty, "\(failures)")
    }

    // MARK: - Tracker scripts' first-party cookies

    @Test("document.cookie: the suite's 10 cases, the expiry read from WebKit's cookie jar")
    func trackerScriptCookies() throws {
        let harness = try #require(try UserScriptHarness.make(), "WebKitGTK is not installed")
        let folder = "\(Self.suites)/expire-first-party-js-cookies"
        let configuration = try PrivacyConfiguration(contentsOfFile: SharedData.path("\(folder)/config_reference.json"))
        let trackerData = try TrackerData(contentsOfFile: SharedData.path("\(folder)/tracker_radar_reference.json"))
        let cases = Self.cases("expire-first-party-js-cookies")
        #expect(cases.count == 10)
        var spec = Self.spec(try Self.blockingScript(trackerData: trackerData, configuration: configuration))
        var pageURLs: [String] = []
        for (index, test) in cases.enumerated() {
            // One page per case: the site's URL with the case in its query (the host is what counts).
            let url = try test.required("siteURL").string() + "?case=\(index)"
            let script = try test.required("scriptURL").string()
            let cookie = try test.required("setDocumentCookie").string()
            let literal = String(decoding: JSONValue.string(cookie).jsonBytes(), as: UTF8.self)
            spec.resources[url] = .html("""
                <!DOCTYPE html><html><head><script>window.__r = {}; window.cookieToSet = \(literal);</script>
                <script src="\(script)"></script>
                <script>document.title = 'done';</script></head></html>
                """)
            // The tracker's script writes the page's cookie: its URL is on the stack of the write.
            spec.resources[script] = .script("window.__r.at = Date.now() / 1000; document.cookie = window.cookieToSet;")
            spec.pages.append(.init(id: "\(index)", url: url, timeout: 8, result: "window.__r", cookies: true))
            pageURLs.append(url)
        }
        let pages = try harness.run(spec)
        var failures: [String] = []
        for (index, test) in cases.enumerated() {
            let name = try test.required("name").string()
            guard let page = pages["\(index)"], page.done, let at = try? page["at"]?.double() else {
                failures.append("\(name): the page did not finish (\(pages["\(index)"]?.loadFailed ?? "no result"))")
                continue
            }
            let cookie = page.cookies.first { $0.name == "foo" }
            if !(try test.required("expectCookieSet").bool()) {
                if let cookie { failures.append("\(name): set, expires \(String(describing: cookie.expires))") }
                continue
            }
            guard let cookie else {
                failures.append("\(name): not set (jar \(page.cookies.map(\.name)))")
                continue
            }
            let expected = try test.required("expectExpiryToBe").double()
            if expected == -1 {
                if cookie.expires != nil { failures.append("\(name): expires \(cookie.expires!), expected a session cookie") }
            } else if let expires = cookie.expires {
                if abs(expires - at - expected) > 2 { failures.append("\(name): lives \(expires - at) s, expected \(expected)") }
            } else {
                failures.append("\(name): a session cookie, expected \(expected) s")
            }
        }
        #expect(failures.isEmpty, "\(failures)")
    }

    // MARK: - Click-to-Load: the Facebook SDK's widgets

    static let facebookTrackerData = #"""
        {"trackers": {
           "facebook.net": {"domain": "facebook.net", "owner": {"name": "Facebook, Inc.", "displayName": "Facebook"},
             "default": "ignore", "rules": [{"rule": "facebook\\.net/[a-z_A-Z]+/sdk\\.js", "action": "block-ctl-fb"}]}},
         "entities": {"Facebook, Inc.": {"displayName": "Facebook", "domains": ["facebook.com", "facebook.net"]}},
         "domains": {"facebook.com": "Facebook, Inc.", "facebook.net": "Facebook, Inc."}}
        """#

    static let facebookConfiguration = #"""
        {"features": {"contentBlocking": {"state": "enabled", "exceptions": []},
                      "clickToLoad": {"state": "enabled", "exceptions": [],
                                      "settings": {"Facebook, Inc.": {"state": "enabled", "ruleActions": ["block-ctl-fb"]}}}},
         "unprotectedTemporary": []}
        """#

    @Test("where the rule lists block the Facebook SDK, its widgets become placeholders; a page's click posts nothing")
    func facebookWidgets() throws {
        let harness = try #require(try UserScriptHarness.make(), "WebKitGTK is not installed")
        let trackerData = try TrackerData(parsing: Array(Self.facebookTrackerData.utf8))
        let configuration = try PrivacyConfiguration(parsing: Array(Self.facebookConfiguration.utf8))
        let sdk = "https://connect.facebook.net/en_US/sdk.js"
        let page = "https://news.example/article"
        var spec = Self.spec(try Self.blockingScript(trackerData: trackerData, configuration: configuration))
        spec.ruleLists = RuleListBuilder(trackerData: trackerData, configuration: configuration).build().ruleLists.map { $0.encoded() }
        spec.resources[sdk] = .script("window.__sdkRan = true;")
        spec.resources[page] = .html("""
            <!DOCTYPE html><html><head><meta charset=utf-8></head><body>
            <div class="fb-like" data-href="https://news.example/" data-width="300"></div>
            <div id="fb-root"></div><script async src="\(sdk)"></script>
            <div class="intro fb-page"></div><p class="fb-note">not a widget</p>
            <script>
            window.__r = {};
            addEventListener('load', function () {
              var later = document.createElement('div');
              later.className = 'fb-post';
              document.body.appendChild(later);
              setTimeout(function () {
                var boxes = document.querySelectorAll('[data-trackerless-click-to-load]');
                __r.placeholders = boxes.length;
                __r.actions = Array.prototype.map.call(boxes, function (box) { return box.getAttribute('data-trackerless-click-to-load'); });
                __r.widgetsLeft = document.querySelectorAll('.fb-like, .fb-page, .fb-post').length;
                __r.notWidget = document.querySelectorAll('.fb-note').length;
                __r.button = boxes.length > 0 ? boxes[0].querySelector('button').textContent : null;
                __r.width = boxes.length > 0 ? boxes[0].style.width : null;
                __r.sdkRan = window.__sdkRan === true;
                if (boxes.length > 0) { boxes[0].querySelector('button').click(); }
                setTimeout(function () { document.title = 'done'; }, 300);
              }, 300);
            });
            </script></body></html>
            """)
        spec.pages = [.init(id: "widgets", url: page, timeout: 8, result: "window.__r")]
        let result = try #require(try harness.run(spec)["widgets"])
        #expect(result.done)
        #expect(!result.requested(sdk), "the rule list let the SDK through")
        #expect(try result["placeholders"]?.double() == 3)
        #expect(try result["actions"]?.array().map { try $0.string() } == ["block-ctl-fb", "block-ctl-fb", "block-ctl-fb"])
        #expect(try result["widgetsLeft"]?.double() == 0)
        #expect(try result["notWidget"]?.double() == 1)
        #expect(try result["button"]?.string() == "Load the embedded content from connect.facebook.net")
        #expect(try result["width"]?.string() == "300px")
        #expect(try result["sdkRan"]?.bool() == false)
        let clicks = result.messages.flatMap { message -> [JSONNode] in
            (try? JSONNode(message.body).required("events").array()) ?? []
        }.filter { (try? $0.required("kind").string()) == "clickToLoad" }
        #expect(clicks.isEmpty, "a click by page script posted \(clicks.count) click message(s)")
    }
}

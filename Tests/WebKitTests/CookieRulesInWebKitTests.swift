import ContentRuleList
import Foundation
import RuleBuilder
import Testing
import TrackerDataKit
import TrackerlessTestSupport

/// ``CookieRules`` in real WebKit (WebKitGTK under Xvfb): the lists compile, and on the 28 cases
/// of `block-third-party-tracking-cookies` WebKit keeps cookies out of exactly the loads the
/// suite expects.
///
/// The main harness reports whether a request reached the network, not which cookies it carried,
/// so cookies are observed by a small probe of this file (``CookieProbe``): a loopback proxy that
/// records each request's `Cookie` header and answers with a `Set-Cookie`, and WebKit's own cookie
/// jar. Measured in WebKitGTK 2.50: `block-cookies` strips `Cookie` and drops `Set-Cookie` for the
/// load it matches, including a frame's document load, but it does not reach `document.cookie`:
/// a script in a tracker frame still reads and writes cookies. Blocking `document.cookie` on WebKit
/// needs a user script (DuckDuckGo's content-scope-scripts do it); ``CookieProtection`` gives the
/// decision such a script needs.
@Suite(
    "Cookie rules in WebKit",
    .enabled(if: WebKitHarness.shouldRun, "WebKitGTK (python3-gi, gir1.2-webkit2-4.1, xvfb) is not installed"),
    .enabled(if: SharedData.shouldRun, SharedData.skipMessage))
struct CookieRulesInWebKitTests {
    /// The probe's answers for the reference cases, with the suite's cookie rules and without rules.
    static let runs: Result<(withRules: [String: CookieProbe.Result], withoutRules: [String: CookieProbe.Result]), CookieProbe.Failure> = {
        do {
            let fixture = try CookieProtectionCase.loadFixture()
            let build = CookieRules(trackerData: fixture.trackerData, configuration: fixture.configuration).build()
            let loads = CookieProtectionCase.all.map(CookieProbe.Load.init)
            return .success((try CookieProbe.run(loads, ruleList: build.ruleLists.first?.encoded()),
                             try CookieProbe.run(loads, ruleList: nil)))
        } catch let failure as CookieProbe.Failure {
            return .failure(failure)
        } catch {
            return .failure(CookieProbe.Failure(message: "\(error)"))
        }
    }()

    @Test("WebKit compiles every cookie list")
    func compiles() throws {
        guard let harness = try WebKitHarness.make() else { return }
        let reference = try CookieProtectionCase.loadFixture()
        var inputs: [(name: String, trackerData: TrackerData, configuration: PrivacyConfiguration?)] = [
            ("block-third-party-tracking-cookies", reference.trackerData, reference.configuration)
        ]
        for path in SharedData.realBlocklists {
            inputs.append((path, try TrackerData(contentsOfFile: SharedData.path(path)), nil))
        }
        var lists: [(id: String, json: [UInt8])] = []
        for input in inputs {
            for style in RuleListBuilder.Settings.SiteConditionStyle.allCases {
                let build = CookieRules(
                    trackerData: input.trackerData, configuration: input.configuration,
                    settings: RuleListBuilder.Settings(siteConditionStyle: style)
                ).build()
                for (index, list) in build.ruleLists.enumerated() {
                    lists.append(("\(input.name) \(style.rawValue) #\(index)", list.encoded()))
                }
            }
        }
        let results = try harness.compile(lists)
        for list in lists {
            let result = results[list.id]
            #expect(result?.ok == true, "\(list.id): \(result?.error ?? "no answer")")
        }
    }

    @Test("without rules every load carries and stores its cookies, and document.cookie works",
          arguments: CookieProtectionCase.all)
    func baseline(_ test: CookieProtectionCase) throws {
        let result = try #require(try Self.runs.get().withoutRules[test.testDescription], "no answer")
        #expect(result.cookieSent == true, "\(result.detail)")
        if case .documentCookieSet(_, let value)? = test.expectation {
            #expect(result.documentCookie?.contains(value) == true, "\(result.detail)")
        } else {
            #expect(result.setCookieStored == true, "\(result.detail)")
        }
    }

    @Test("with the cookie rules WebKit strips exactly what the suite expects", arguments: CookieProtectionCase.all)
    func cookieRules(_ test: CookieProtectionCase) throws {
        let result = try #require(try Self.runs.get().withRules[test.testDescription], "no answer")
        switch try #require(test.expectation) {
        case .cookieHeadersRemoved(let removed):
            #expect(result.cookieSent == !removed, "\(result.detail)")
        case .setCookieHeadersRemoved(let removed):
            #expect(result.setCookieStored == !removed, "\(result.detail)")
        case .documentCookieSet(let stored, let value):
            // The frame's document load goes without cookies exactly when the suite blocks
            // document.cookie in it ...
            #expect(result.cookieSent == stored, "\(result.detail)")
            // ... but block-cookies does not reach the JavaScript API (see the suite's comment).
            #expect(result.documentCookie?.contains(value) == true, "\(result.detail)")
        }
    }
}

/// Loads reference cases in WebKitGTK and reports what happened to their cookies.
struct CookieProbe {
    /// One case: a page, and a request (an image) or a frame on it.
    struct Load: Sendable {
        var id: String
        var top: String
        var url: String
        var isFrame: Bool

        /// The case on `http:` (a proxy without TLS sees the headers; the rules do not look at
        /// the scheme).
        init(_ test: CookieProtectionCase) {
            id = test.testDescription
            top = Self.http(test.siteURL)
            if case .documentCookieSet? = test.expectation {
                url = Self.http(test.frameURL ?? test.siteURL)
                isFrame = true
            } else {
                url = Self.http(test.requestURL ?? "")
                isFrame = false
            }
        }

        private static func http(_ url: String) -> String {
            url.hasPrefix("https://") ? "http://" + url.dropFirst("https://".count) : url
        }
    }

    /// What WebKit did with one case's cookies.
    struct Result: Sendable, Decodable {
        var id: String
        /// Whether the request (or the frame's document request) carried the jar's cookie.
        var cookieSent: Bool?
        /// Whether the response's `Set-Cookie` reached the jar (requests only).
        var setCookieStored: Bool?
        /// What `document.cookie` read after the frame assigned `favorite_food=tripe` (frames only).
        var documentCookie: String?
        /// What the proxy and the jar saw, for failure messages.
        var detail: String
    }

    /// The probe did not run or did not answer.
    struct Failure: Error, CustomStringConvertible {
        var message: String
        var description: String { "cookie probe: \(message)" }
    }

    /// Runs the probe once over `loads`, with `ruleList` installed when given.
    static func run(_ loads: [Load], ruleList: [UInt8]?) throws -> [String: Result] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trackerless-cookies-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("cookie_probe.py")
        try Data(source.utf8).write(to: script)
        var command = [WebKitHarness.python, script.path]
        if let ruleList {
            let rules = directory.appendingPathComponent("rules.json")
            try Data(ruleList).write(to: rules)
            command.append(rules.path)
        }
        let input = directory.appendingPathComponent("cases.jsonl")
        let lines = try loads.map { load in
            let object: [String: String] = ["id": load.id, "top": load.top, "url": load.url, "kind": load.isFrame ? "frame" : "request"]
            return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
        }
        try Data(lines.joined(separator: "\n").utf8).write(to: input)
        let output = try WebKitHarness.run(command, stdin: input, stderrIn: directory)
        guard output.status == 0 else {
            throw Failure(message: "exit status \(output.status): \(output.stderr.suffix(2000))")
        }
        var results: [String: Result] = [:]
        for line in output.stdout.split(separator: UInt8(ascii: "\n")) where !line.isEmpty {
            guard let result = try? JSONDecoder().decode(Result.self, from: Data(line)) else {
                throw Failure(message: "unreadable line \(String(decoding: line, as: UTF8.self))")
            }
            results[result.id] = result
        }
        return results
    }

    /// The probe, run with /usr/bin/python3 (PyGObject, WebKit2 4.1, Soup 3). It re-executes
    /// itself under `xvfb-run` when there is no display, like the main harness.
    static let source = #"""
        # Observes cookies in WebKitGTK. stdin: JSON lines {"id", "top", "url", "kind": "request" | "frame"};
        # argv[1], optional: a rule list file. stdout: JSON lines {"id", "cookieSent", "setCookieStored"
        # (requests), "documentCookie" (frames), "detail"}. Every host is answered by a loopback http proxy;
        # before each case the jar holds only "seed=1" for the URL's host.
        import json
        import os
        import random
        import shutil
        import sys
        import tempfile
        import threading
        import time
        import urllib.parse
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        if not os.environ.get("DISPLAY"):
            xvfb = shutil.which("xvfb-run")
            if xvfb is None or os.environ.get("COOKIE_PROBE_UNDER_XVFB"):
                sys.exit("no display")
            env = dict(os.environ, COOKIE_PROBE_UNDER_XVFB="1")
            os.execve(xvfb, [xvfb, "-a", "-n", str(random.randint(100, 30000)), "-s", "-screen 0 1024x768x24 -nolisten tcp",
                             sys.executable, os.path.abspath(__file__)] + sys.argv[1:], env)

        import gi
        gi.require_version("WebKit2", "4.1")
        gi.require_version("Gtk", "3.0")
        gi.require_version("Soup", "3.0")
        from gi.repository import GLib, Gtk, Soup, WebKit2

        GIF = bytes.fromhex("47494638396101000100800000000000ffffff21f90401000000002c00000000010001000002024401003b")
        lock = threading.Lock()
        pages = {}      # url -> (content type, body, extra headers)
        seen = {}       # url -> Cookie header or ""


        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *_):
                pass

            def do_GET(self):
                url = self.path
                with lock:
                    seen[url] = self.headers.get("Cookie") or ""
                    page = pages.get(url)
                ctype, body, extra = page if page else ("text/plain", b"", {})
                self.send_response(200 if page else 404)
                self.send_header("Content-Type", ctype)
                self.send_header("Cache-Control", "no-store")
                self.send_header("Content-Length", str(len(body)))
                for name, value in extra.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)


        proxy = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        proxy.daemon_threads = True
        threading.Thread(target=proxy.serve_forever, daemon=True).start()
        loop_context = GLib.MainContext.default()


        def wait(predicate, seconds):
            end = time.monotonic() + seconds
            while time.monotonic() < end and not predicate():
                loop_context.iteration(False)
                time.sleep(0.002)
            return predicate()


        def call(start):
            # Runs an async WebKit call to completion; returns the callback's arguments.
            box = {}
            start(lambda *args: box.setdefault("result", args))
            wait(lambda: "result" in box, 10)
            return box.get("result")


        store_dir = tempfile.mkdtemp(prefix="cookie-probe-")
        content_filter = None
        if len(sys.argv) > 1:
            store = WebKit2.UserContentFilterStore.new(store_dir)
            with open(sys.argv[1], "rb") as rules:
                source = rules.read()
            result = call(lambda done: store.save("cookies", GLib.Bytes.new(source), None, done, None))
            content_filter = store.save_finish(result[1])

        Gtk.init_check(None)
        manager = WebKit2.WebsiteDataManager.new_ephemeral()
        manager.set_network_proxy_settings(WebKit2.NetworkProxyMode.CUSTOM,
                                           WebKit2.NetworkProxySettings.new("http://127.0.0.1:%d" % proxy.server_address[1], None))
        manager.set_itp_enabled(False)
        cookies = manager.get_cookie_manager()
        cookies.set_accept_policy(WebKit2.CookieAcceptPolicy.ALWAYS)
        context = WebKit2.WebContext.new_with_website_data_manager(manager)
        content = WebKit2.UserContentManager()
        if content_filter is not None:
            content.add_filter(content_filter)
        view = WebKit2.WebView(web_context=context, user_content_manager=content)
        window = Gtk.Window()
        window.add(view)
        window.show_all()
        for line in sys.stdin:
            if not line.strip():
                continue
            case = json.loads(line)
            top, url = case["top"], case["url"]
            host = urllib.parse.urlsplit(url).hostname
            report = "http://report.invalid/r?id=" + urllib.parse.quote(case["id"])
            if case["kind"] == "request":
                body = '<!doctype html><img src="%s">' % url
                served = {url: ("image/gif", GIF, {"Set-Cookie": "fromheader=1; Path=/; SameSite=None"})}
            else:
                body = '<!doctype html><iframe src="%s"></iframe>' % url
                script = ('<!doctype html><script>document.cookie = "favorite_food=tripe; SameSite=None";'
                          'new Image().src = "%s&c=" + encodeURIComponent(document.cookie);</script>' % report)
                served = {url: ("text/html", script.encode(), {})}
            with lock:
                pages.clear()
                seen.clear()
                pages[top] = ("text/html", body.encode(), {})
                pages.update(served)
            call(lambda done: manager.clear(WebKit2.WebsiteDataTypes.COOKIES, 0, None, done, None))
            seed = Soup.Cookie.new("seed", "1", host, "/", -1)
            seed.set_same_site_policy(Soup.SameSitePolicy.NONE)
            call(lambda done: cookies.add_cookie(seed, None, done, None))
            view.load_uri(top)
            if case["kind"] == "request":
                wait(lambda: url in seen, 8)
                wait(lambda: False, 0.3)
                result = call(lambda done: cookies.get_cookies(url, None, done, None))
                stored = [c.get_name() for c in cookies.get_cookies_finish(result[1])]
                out = {"id": case["id"], "cookieSent": "seed=1" in seen.get(url, ""),
                       "setCookieStored": "fromheader" in stored,
                       "detail": "cookie header %r, jar %r, seen %r" % (seen.get(url), stored, sorted(seen))}
            else:
                wait(lambda: any(u.startswith(report) for u in seen), 8)
                reported = [u for u in seen if u.startswith(report)]
                value = urllib.parse.parse_qs(urllib.parse.urlsplit(reported[0]).query).get("c", [""])[0] if reported else None
                out = {"id": case["id"], "cookieSent": "seed=1" in seen.get(url, ""), "documentCookie": value,
                       "detail": "cookie header %r, seen %r" % (seen.get(url), sorted(seen))}
            print(json.dumps(out), flush=True)
            view.stop_loading()
            view.load_uri("about:blank")
            wait(lambda: False, 0.1)

        shutil.rmtree(store_dir, ignore_errors=True)
        """#
}

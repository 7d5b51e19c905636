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
/// so cookies are observed by a small probe, `harness/cookie_probe.py` driven by ``CookieProbe``:
/// a loopback proxy that records each request's `Cookie` header and answers with a `Set-Cookie`,
/// and WebKit's own cookie jar. Measured in WebKitGTK 2.50: `block-cookies` strips `Cookie` and
/// drops `Set-Cookie` for the load it matches, including a frame's document load, but it does not
/// reach `document.cookie`: a script in a tracker frame still reads and writes cookies. Blocking
/// `document.cookie` on WebKit needs a user script (DuckDuckGo's content-scope-scripts do it);
/// ``CookieProtection`` gives the decision such a script needs.
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
        guard let harness = try WebKitHarness.make() else { try Test.cancel("WebKitGTK is not installed") }
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

        /// The case on `http:`, which `cookie_probe.py` loads over https again (its proxy reads
        /// the headers inside the TLS tunnel; WebKitGTK 2.54 keeps a SameSite=None cookie only
        /// when it is Secure); the rules do not look at the scheme.
        init(_ test: CookieProtectionCase) {
            id = test.testDescription
            top = Self.http(test.topURL)
            if case .documentCookieSet? = test.expectation {
                url = Self.http(test.frameURL ?? test.topURL)
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
        guard FileManager.default.fileExists(atPath: script) else { throw Failure(message: "\(script) is missing") }
        var command = [WebKitHarness.python, script]
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

    /// `harness/cookie_probe.py`, run with /usr/bin/python3 (PyGObject, WebKit2 4.1, Soup 3); it
    /// re-executes itself under `xvfb-run` when there is no display, like the main harness.
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("harness/cookie_probe.py").path
}

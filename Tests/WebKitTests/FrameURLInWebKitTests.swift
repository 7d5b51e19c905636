import ContentRuleList
import RuleEngineKit
import Testing

/// What WebKit matches `if-frame-url`, `unless-frame-url`, `if-top-url`, `if-domain` and
/// `load-context` against when a frame navigates, pinned in WebKitGTK, and the reference
/// evaluator and the engine agreeing with it. A navigation is issued by the frame it navigates,
/// so its frame URL is the document that frame leaves: about:blank for a new iframe (nested or
/// not), the iframe's current document when it navigates again, the page a view leaves (or the
/// URL itself in a new view). One hand-written list, one harness run (about 30 s).
@Suite(.enabled(if: WebKitHarness.shouldRun, "WebKitGTK (python3-gi, gir1.2-webkit2-4.1, xvfb) is not installed"))
struct FrameURLInWebKitTests {
    /// One navigation, what WebKit must do with it, and the load the evaluator and engine see.
    struct Case: Sendable, CustomTestStringConvertible {
        var load: WebKitHarness.LoadCase
        var request: Request
        /// What WebKitGTK 2.50 and later do.
        var blocked: Bool
        /// What WebKitGTK 2.44 does where it differs: it ignores `unless-frame-url`, and a new
        /// view's navigation has no frame URL (measured).
        var blockedBefore250: Bool? = nil
        var testDescription: String { load.id }

        /// What the WebKit under test must do.
        var expected: Bool {
            WebKitHarness.target.matchesNewViewAgainstItsURL ? blocked : (blockedBefore250 ?? blocked)
        }
    }

    /// Each rule blocks the URLs with its own path segment `/rN/`.
    static let ruleList = #"""
        [
          {"trigger": {"url-filter": "/r1/", "if-frame-url": ["^about:blank$"]}, "action": {"type": "block"}},
          {"trigger": {"url-filter": "/r2/", "unless-frame-url": ["^about:blank$"]}, "action": {"type": "block"}},
          {"trigger": {"url-filter": "/r3/", "if-frame-url": ["^http://frame\\.example/"]}, "action": {"type": "block"}},
          {"trigger": {"url-filter": "/r4/", "if-frame-url": ["^http://parent\\.example/"]}, "action": {"type": "block"}},
          {"trigger": {"url-filter": "/r5/", "if-frame-url": ["^http://left\\.example/"]}, "action": {"type": "block"}},
          {"trigger": {"url-filter": "/r6/", "if-top-url": ["^http://page\\.example/"]}, "action": {"type": "block"}},
          {"trigger": {"url-filter": "/r7/", "if-domain": ["page.example"]}, "action": {"type": "block"}},
          {"trigger": {"url-filter": "/r8/", "load-context": ["child-frame"]}, "action": {"type": "block"}},
          {"trigger": {"url-filter": "/r9/", "load-context": ["top-frame"]}, "action": {"type": "block"}}
        ]
        """#

    static let cases: [Case] = {
        var cases: [Case] = []
        func iframe(
            _ id: String, rule: Int, parent: Bool = false, from: Bool = false, by: String? = nil, blocked: Bool,
            before250: Bool? = nil
        ) {
            let index = cases.count
            let top = "http://page.example/p\(index)"
            let url = "http://frame.example/r\(rule)/d\(index)"
            let frame = parent ? "http://parent.example/g\(index)" : nil
            let left = from ? "http://left.example/f\(index)" : nil
            cases.append(Case(
                load: .init(id: id, topURL: top, requestURL: url, type: "child-document", frameURL: frame,
                            fromURL: left, navigatedBy: by),
                request: Request(url: url, topURL: top, frameURL: left, resourceType: .childDocument),
                blocked: blocked, blockedBefore250: before250))
        }
        func view(_ id: String, rule: Int, from: Bool = false, by: String? = nil, blocked: Bool, before250: Bool? = nil) {
            let index = cases.count
            let url = "http://frame.example/r\(rule)/t\(index)"
            let left = from ? "http://left.example/f\(index)" : nil
            cases.append(Case(
                load: .init(id: id, topURL: url, requestURL: url, type: "top-document", fromURL: left, navigatedBy: by),
                request: Request(url: url, topURL: url, frameURL: left, resourceType: .topDocument),
                blocked: blocked, blockedBefore250: before250))
        }
        // A new iframe's first load: about:blank, not its own URL; the top URL is the page's.
        iframe("new iframe: if-frame-url about:blank", rule: 1, blocked: true)
        iframe("new iframe: unless-frame-url about:blank", rule: 2, blocked: false, before250: true)
        iframe("new iframe: if-frame-url its own URL", rule: 3, blocked: false)
        iframe("new iframe: if-top-url the page", rule: 6, blocked: true)
        iframe("new iframe: if-domain the page", rule: 7, blocked: true)
        iframe("new iframe: load-context child-frame", rule: 8, blocked: true)
        iframe("new iframe: load-context top-frame", rule: 9, blocked: false)
        // A new iframe inside an iframe: about:blank too, not its parent.
        iframe("nested new iframe: if-frame-url about:blank", rule: 1, parent: true, blocked: true)
        iframe("nested new iframe: if-frame-url its parent", rule: 4, parent: true, blocked: false)
        iframe("nested new iframe: load-context child-frame", rule: 8, parent: true, blocked: true)
        // The same iframe navigating again: the document it leaves.
        iframe("new src: if-frame-url the document left", rule: 5, from: true, blocked: true)
        iframe("new src: if-frame-url about:blank", rule: 1, from: true, blocked: false)
        iframe("new src: unless-frame-url about:blank", rule: 2, from: true, blocked: true)
        iframe("new src: if-frame-url its own URL", rule: 3, from: true, blocked: false)
        iframe("new src: if-top-url the page", rule: 6, from: true, blocked: true)
        iframe("new src: load-context child-frame", rule: 8, from: true, blocked: true)
        iframe("location set inside: if-frame-url the document left", rule: 5, from: true, by: "frame", blocked: true)
        iframe("location set inside: if-frame-url about:blank", rule: 1, from: true, by: "frame", blocked: false)
        iframe("location set inside: load-context top-frame", rule: 9, from: true, by: "frame", blocked: false)
        iframe("nested new src: if-frame-url the document left", rule: 5, parent: true, from: true, blocked: true)
        iframe("nested new src: if-frame-url its parent", rule: 4, parent: true, from: true, blocked: false)
        // The main frame: a new view has no document, and WebKit takes the URL itself.
        view("new view: if-frame-url its own URL", rule: 3, blocked: true, before250: false)
        view("new view: if-frame-url about:blank", rule: 1, blocked: false)
        view("new view: load-context top-frame", rule: 9, blocked: true)
        view("view navigates: if-frame-url the page left", rule: 5, from: true, blocked: true)
        view("view navigates: if-frame-url its own URL", rule: 3, from: true, blocked: false)
        view("location set in the page: if-frame-url the page left", rule: 5, from: true, by: "frame", blocked: true)
        view("location set in the page: if-top-url another page", rule: 6, from: true, by: "frame", blocked: false)
        return cases
    }()

    static let results: Result<[String: WebKitHarness.LoadResult], any Error> = Result {
        guard let harness = try WebKitHarness.make() else {
            throw WebKitHarness.Failure.unavailable("WebKitGTK is not installed")
        }
        return try harness.load(ruleLists: [Array(ruleList.utf8)], cases: cases.map(\.load))
    }

    /// The list as the WebKit under test reads it (2.44 leaves out `unless-frame-url`).
    static let list = Result { () throws(RuleListError) -> RuleList in
        var warnings: [RuleListWarning] = []
        return try RuleList(parsing: Array(ruleList.utf8), for: WebKitHarness.target, warnings: &warnings)
    }

    @Test("WebKit, the reference evaluator and the engine agree on frame navigations", arguments: cases)
    func navigation(_ testCase: Case) throws {
        let result = try #require(try Self.results.get()[testCase.load.id])
        #expect(result.blocked == testCase.expected, "WebKit \(WebKitHarness.target): \(result.detail)")
        // The page, its frames and the first document all loaded, and nothing timed out.
        let troubles = ["inconsistent", "timed out", "was not requested"].filter { result.detail.contains($0) }
        #expect(troubles.isEmpty, "\(result.detail)")

        let list = try Self.list.get()
        let evaluator = try ReferenceEvaluator(ruleList: list, target: WebKitHarness.target)
        #expect(evaluator.actions(for: testCase.request).isBlocked == result.blocked, "evaluator, WebKit: \(result.detail)")
        // The engine matches a new view's navigation as WebKit 2.50 and later do.
        guard WebKitHarness.target.matchesNewViewAgainstItsURL || testCase.blockedBefore250 == nil
            || testCase.request.frameURL != nil || testCase.request.resourceType != .topDocument
        else { return }
        let engine = try RuleEngine(ruleList: list)
        var cache = RuleEngine.PageCache()
        #expect(engine.decision(for: testCase.request, cache: &cache).isBlocked == result.blocked, "engine, WebKit: \(result.detail)")
    }
}

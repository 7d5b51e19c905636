import Foundation
import ContentRuleList
import Testing

/// The harness must tell a blocked request from an allowed one for every resource type it
/// issues, over http and https, or no WebKit comparison built on it means anything. One
/// hand-written list, one harness run for all cases.
@Suite(.enabled(if: WebKitHarness.shouldRun, "WebKitGTK (python3-gi, gir1.2-webkit2-4.1, xvfb) is not installed"))
struct HarnessSelfTests {
    /// One request and whether WebKit must block it.
    struct Case: Sendable, CustomTestStringConvertible {
        var load: WebKitHarness.LoadCase
        var blocked: Bool
        var testDescription: String { load.id }
    }

    static let ruleList = #"""
        [
          {"trigger": {"url-filter": "^https?://blocked\\.example/"}, "action": {"type": "block"}},
          {"trigger": {"url-filter": "^wss?://blocked\\.example/"}, "action": {"type": "block"}},
          {"trigger": {"url-filter": "^https?://[^/]+/blocked-path/"}, "action": {"type": "block"}},
          {"trigger": {"url-filter": "^data:.*blockme"}, "action": {"type": "block"}},
          {"trigger": {"url-filter": "if-domain-target", "if-domain": ["*domain-a.example"]},
           "action": {"type": "block"}},
          {"trigger": {"url-filter": "third-party-target", "load-type": ["third-party"]},
           "action": {"type": "block"}},
          {"trigger": {"url-filter": "frame-target", "if-frame-url": ["^https?://frame\\.example/"]},
           "action": {"type": "block"}},
          {"trigger": {"url-filter": "typed-target", "resource-type": ["script"]},
           "action": {"type": "block"}}
        ]
        """#

    static let cases: [Case] = {
        var cases: [Case] = []
        func add(_ id: String, top: String, url: String, type: String, frame: String? = nil, blocked: Bool) {
            cases.append(Case(
                load: .init(id: id, topURL: top, requestURL: url, type: type, frameURL: frame), blocked: blocked))
        }
        let subresourceTypes = ["image", "script", "style-sheet", "font", "fetch", "child-document", "media",
                                "ping", "popup", "other"]
        for scheme in ["http", "https"] {
            let top = "\(scheme)://page.example/"
            for type in subresourceTypes {
                add("\(scheme) \(type) blocked", top: top, url: "\(scheme)://blocked.example/\(type)", type: type,
                    blocked: true)
                add("\(scheme) \(type) allowed", top: top, url: "\(scheme)://allowed.example/\(type)", type: type,
                    blocked: false)
            }
            // WebKit follows external <use> references only within the document's origin.
            add("\(scheme) svg-document blocked", top: top, url: "\(scheme)://page.example/blocked-path/a.svg",
                type: "svg-document", blocked: true)
            add("\(scheme) svg-document allowed", top: top, url: "\(scheme)://page.example/allowed-path/a.svg",
                type: "svg-document", blocked: false)
            add("\(scheme) top-document blocked", top: "\(scheme)://blocked.example/",
                url: "\(scheme)://blocked.example/page", type: "top-document", blocked: true)
            add("\(scheme) top-document allowed", top: "\(scheme)://allowed.example/",
                url: "\(scheme)://allowed.example/page", type: "top-document", blocked: false)
            let socket = scheme == "http" ? "ws" : "wss"
            add("\(socket) websocket blocked", top: top, url: "\(socket)://blocked.example/socket", type: "websocket",
                blocked: true)
            add("\(socket) websocket allowed", top: top, url: "\(socket)://allowed.example/socket", type: "websocket",
                blocked: false)
        }
        let gif = "data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"
        add("data: URL is never checked", top: "http://page.example/", url: gif + "#blockme", type: "image",
            blocked: false)
        add("if-domain on a subdomain of the domain", top: "http://www.domain-a.example/",
            url: "http://cdn.example/if-domain-target.gif", type: "image", blocked: true)
        add("if-domain on another domain", top: "http://domain-b.example/",
            url: "http://cdn.example/if-domain-target.gif", type: "image", blocked: false)
        add("third-party load", top: "http://www.site.example/",
            url: "http://tracker.other.example/third-party-target.gif", type: "image", blocked: true)
        // WebKitGTK 2.44 compares hosts under a top-level domain the Public Suffix List does not
        // list (`.example`): there the load is third party (MEASURED-FEATURES.md).
        add("first-party load (same registrable domain)", top: "http://www.site.example/",
            url: "http://cdn.site.example/third-party-target.gif", type: "image",
            blocked: WebKitHarness.target.thirdParty == .registrableDomainOfListedSuffixes)
        add("if-frame-url inside the frame", top: "http://page.example/", url: "http://cdn.example/frame-target-1.gif",
            type: "image", frame: "http://frame.example/inner", blocked: true)
        add("if-frame-url outside the frame", top: "http://page.example/", url: "http://cdn.example/frame-target-2.gif",
            type: "image", blocked: false)
        add("resource-type matches", top: "http://page.example/", url: "http://cdn.example/typed-target.js",
            type: "script", blocked: true)
        add("resource-type does not match", top: "http://page.example/", url: "http://cdn.example/typed-target.gif",
            type: "image", blocked: false)
        return cases
    }()

    static let results: Result<[String: WebKitHarness.LoadResult], any Error> = Result {
        guard let harness = try WebKitHarness.make() else {
            throw WebKitHarness.Failure.unavailable("WebKitGTK is not installed")
        }
        return try harness.load(ruleLists: [Array(ruleList.utf8)], cases: cases.map(\.load))
    }

    @Test("The harness tells blocked from allowed", arguments: cases)
    func verdict(_ testCase: Case) throws {
        let result = try #require(try Self.results.get()[testCase.load.id])
        #expect(result.blocked == testCase.blocked, "\(result.detail)")
        #expect(!result.detail.contains("inconsistent"), "\(result.detail)")
        #expect(!result.detail.contains("timed out"), "\(result.detail)")
    }

    @Test("An allowed request is seen by the page as loaded, a blocked one as failed")
    func pageAgreesWithProxy() throws {
        let results = try Self.results.get()
        let image = try #require(results["http image allowed"])
        #expect(image.detail == "proxy=requested page=load")
        let blockedImage = try #require(results["https image blocked"])
        #expect(blockedImage.detail == "proxy=not-requested page=error")
        let navigation = try #require(results["http top-document blocked"])
        #expect(navigation.detail.contains("WebKitPolicyError 104"), "\(navigation.detail)")
    }

    @Test("A list WebKit rejects makes the load fail with WebKit's message")
    func invalidListIsReported() throws {
        let harness = try #require(try WebKitHarness.make())
        let invalid = Array(#"[{"trigger":{"url-filter":"a|b"},"action":{"type":"block"}}]"#.utf8)
        let load = WebKitHarness.LoadCase(
            id: "x", topURL: "http://page.example/", requestURL: "http://page.example/a", type: "image")
        let temporaries = Self.contentRuleListTemporaries()
        #expect {
            _ = try harness.load(ruleLists: [invalid], cases: [load])
        } throws: { error in
            guard case WebKitHarness.Failure.failed(4, let stderr) = error else { return false }
            return stderr.contains("Invalid or unsupported regular expression.")
        }
        // WebKit's refusal left its temporary in the run's own temporary directory, now removed.
        #expect(Self.contentRuleListTemporaries().subtracting(temporaries).isEmpty)
    }

    /// The `ContentRuleList-*` files in the system's temporary directory.
    static func contentRuleListTemporaries() -> Set<String> {
        let directory = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        return Set(((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasPrefix("ContentRuleList-") })
    }
}

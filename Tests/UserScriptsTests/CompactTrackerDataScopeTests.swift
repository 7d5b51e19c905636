import Foundation
import Testing
import TrackerDataKit
import TrackerlessCore
import TrackerlessTestSupport
@testable import UserScripts

/// `CompactTrackerData.Scope.surrogateTrackers`: what it keeps, and that the blocking script's
/// decisions over it are the resolver's for every request to a tracker a surrogate can stand in
/// for (and never a redirect for any other).
@Suite("CompactTrackerData scope")
struct CompactTrackerDataScopeTests {
    /// `cdn.test` has a surrogate rule behind an ignore rule and a rule with an exception;
    /// `sub.cdn.test` (no surrogate) is under it; `ctl.test` redirects through a click-to-load
    /// rule; `other.test` and `ignored.test` (its only surrogate rule is `ignore`) are out.
    static let tds = #"""
        {
          "trackers": {
            "cdn.test": {
              "domain": "cdn.test", "owner": {"name": "Cdn Inc", "displayName": "Cdn"}, "default": "ignore",
              "rules": [
                {"rule": "cdn\\.test/a\\.js\\?keep", "action": "ignore"},
                {"rule": "cdn\\.test/a\\.js", "surrogate": "a.js", "exceptions": {"domains": ["excepted.test"]}},
                {"rule": "cdn\\.test/img", "options": {"types": ["image"]}}
              ]
            },
            "sub.cdn.test": {
              "domain": "sub.cdn.test", "owner": {"name": "Sub Inc", "displayName": "Sub"}, "default": "block", "rules": []
            },
            "ctl.test": {
              "domain": "ctl.test", "owner": {"name": "Ctl Inc", "displayName": "Ctl"}, "default": "ignore",
              "rules": [{"rule": "ctl\\.test/sdk\\.js", "surrogate": "a.js", "action": "block-ctl-fb"}]
            },
            "other.test": {
              "domain": "other.test", "owner": {"name": "Other Inc", "displayName": "Other"}, "default": "block",
              "rules": [{"rule": "other\\.test/a\\.js", "surrogate": "missing.js"}]
            },
            "ignored.test": {
              "domain": "ignored.test", "owner": {"name": "Ignored Inc", "displayName": "Ignored"}, "default": "block",
              "rules": [{"rule": "ignored\\.test/a\\.js", "surrogate": "a.js", "action": "ignore"}]
            }
          },
          "entities": {
            "Cdn Inc": {"domains": ["cdn.test", "cdn-owner.test"]},
            "Other Inc": {"domains": ["other.test", "sub.cdn-owner.test"]},
            "Nobody Inc": {"domains": ["nobody.test"]}
          },
          "domains": {
            "cdn.test": "Cdn Inc", "cdn-owner.test": "Cdn Inc", "sub.cdn-owner.test": "Other Inc",
            "deep.sub.cdn-owner.test": "Cdn Inc", "other.test": "Other Inc", "nobody.test": "Nobody Inc"
          },
          "cnames": {
            "cloaked.site.test": "x.cdn.test", "deep.site.test": "y.sub.cdn.test", "away.site.test": "other.test",
            "sub.other.test": "cdn.test"
          }
        }
        """#

    static let configuration = #"""
        {
          "features": {
            "contentBlocking": {"state": "enabled", "exceptions": [{"domain": "unprotected.test"}]},
            "trackerAllowlist": {"state": "enabled", "exceptions": [], "settings": {"allowlistedTrackers": {
              "cdn.test": {"rules": [{"rule": "cdn.test/a.js?allowed", "domains": ["<all>"], "reason": "t"}]},
              "site.test": {"rules": [{"rule": "cloaked.site.test/a.js", "domains": ["allowing.test"], "reason": "t"}]},
              "other.test": {"rules": [{"rule": "other.test/", "domains": ["<all>"], "reason": "t"}]}
            }}},
            "requestBlocklist": {"state": "enabled", "exceptions": [], "settings": {"blockedRequests": {
              "cdn.test": {"rules": [{"rule": "cdn.test/a.js?blocked", "domains": ["<all>"], "reason": "t"}]}
            }}}
          },
          "unprotectedTemporary": [{"domain": "temporary.test"}]
        }
        """#

    static let surrogates = Surrogates([Surrogates.Surrogate(
        name: "a.js", path: "cdn.test/a.js", contentType: "application/javascript", source: "(function () {})();")])

    static func inputs() throws -> (TrackerData, PrivacyConfiguration) {
        (try TrackerData(parsing: Array(tds.utf8), file: "tds.json"),
         try PrivacyConfiguration(parsing: Array(configuration.utf8), file: "config.json"))
    }

    static func lean(_ data: TrackerData, _ configuration: PrivacyConfiguration?) -> CompactTrackerData {
        CompactTrackerData(
            trackerData: data, surrogates: surrogates, privacyConfiguration: configuration, userAllowlist: UserAllowlist(),
            scope: .surrogateTrackers)
    }

    static func object(_ value: JSONValue?) throws -> JSONObject {
        switch value {
        case .object(let object)?: return object
        case .string(let text)?:
            guard case .object(let object) = try JSONParser.parse(Array(text.utf8)) else { return JSONObject() }
            return object
        default: return JSONObject()
        }
    }

    @Test("keeps the surrogate trackers, the trackers under them and what decides their requests")
    func keptMembers() throws {
        let (data, configuration) = try Self.inputs()
        let lean = Self.lean(data, configuration)
        #expect(lean.scope == .surrogateTrackers)
        let root = try CompactTrackerDataTests.root(lean)
        let trackers = try Self.object(root["trackers"])
        #expect(Set(trackers.keys) == ["cdn.test", "sub.cdn.test", "ctl.test"])
        // Every rule of a kept tracker, in order (the ignore rule before the surrogate wins first).
        #expect(try CompactTrackerDataTests.rules(lean, "cdn.test").count == 3)
        #expect(root["owners"] == .string(#"["Cdn Inc","Ctl Inc","Sub Inc"]"#))
        #expect(root["cnames"] == .object(JSONObject([
            ("cloaked.site.test", .string("x.cdn.test")), ("deep.site.test", .string("y.sub.cdn.test")),
        ])))
        // Domains of other entities only where they hide a kept owner's parent domain.
        #expect(root["entities"] == .string("\ncdn-owner.test\t0\ncdn.test\t0\ndeep.sub.cdn-owner.test\t0\nsub.cdn-owner.test\t-1\n"))
        guard case .array(let allowlist)? = root["allowlist"] else {
            Issue.record("no allowlist")
            return
        }
        #expect(allowlist.map { rule -> String in
            guard case .array(let parts) = rule, case .string(let host)? = parts.first else { return "" }
            return host
        } == ["cdn.test", "cloaked.site.test"])
        #expect(try Self.object(root["blocklist"]).keys == ["cdn.test"])
        #expect(root["contentBlocking"] == .array([.string("temporary.test"), .string("unprotected.test")]))

        let all = CompactTrackerData(trackerData: data, surrogates: Self.surrogates, privacyConfiguration: configuration)
        #expect(all.scope == .all)
        #expect(try Self.object(CompactTrackerDataTests.root(all)["trackers"]).count == 5)
        #expect(lean.json.utf8.count < all.json.utf8.count)
        // A rule naming a missing surrogate is reported even when its tracker is left out.
        #expect(lean.warnings.map(\.description) == all.warnings.map(\.description))
        #expect(lean.warnings.contains { $0.description.contains(#"trackers["other.test"].rules[0].surrogate"#) })
    }

    @Test("the default scope is all: the existing initializer's output is unchanged")
    func defaultScope() throws {
        let (data, configuration) = try Self.inputs()
        let implicit = CompactTrackerData(trackerData: data, surrogates: Self.surrogates, privacyConfiguration: configuration)
        let explicit = CompactTrackerData(
            trackerData: data, surrogates: Self.surrogates, privacyConfiguration: configuration, scope: .all)
        #expect(implicit.json == explicit.json)
    }

    @Test("no surrogate: only the Click-to-Load tracker (its embeds get placeholders), the request blocklist and the features")
    func emptyScope() throws {
        let (data, configuration) = try Self.inputs()
        let lean = CompactTrackerData(trackerData: data, privacyConfiguration: configuration, scope: .surrogateTrackers)
        let root = try CompactTrackerDataTests.root(lean)
        #expect(root["trackers"] == .string(#"{"ctl.test":[0,0]}"#))
        #expect(root["cnames"] == .object(JSONObject()))
        #expect(root["allowlist"] == .array([]))
        #expect(try Self.object(root["blocklist"]).count == 1)
    }

    @Test(
        "the script over the lean data decides like the resolver for the scope's trackers, never redirects others",
        .enabled(if: NodeRunner.isAvailable, "node not found"))
    func decisionsInNode() throws {
        let (data, configuration) = try Self.inputs()
        let resolver = TrackerResolver(trackerData: data, surrogates: Self.surrogates, privacyConfiguration: configuration)
        let urls = [
            "https://cdn.test/a.js", "https://cdn.test/a.js?keep", "https://www.cdn.test/a.js", "https://cdn.test/img.gif",
            "https://cdn.test/a.js?allowed", "https://cdn.test/a.js?blocked", "https://sub.cdn.test/a.js",
            "https://x.sub.cdn.test/a.js", "https://cloaked.site.test/a.js", "https://deep.site.test/a.js",
            "https://away.site.test/a.js", "https://sub.other.test/a.js", "https://ctl.test/sdk.js", "https://other.test/a.js",
            "https://ignored.test/a.js", "https://elsewhere.test/a.js",
        ]
        let sites = [
            "https://news.example/", "https://cdn.test/", "https://www.cdn-owner.test/", "https://sub.cdn-owner.test/",
            "https://deep.sub.cdn-owner.test/", "https://excepted.test/", "https://unprotected.test/",
            "https://temporary.test/", "https://allowing.test/", "https://site.test/", "https://other.test/",
        ]
        var requests: [(String, String, RequestType)] = []
        for url in urls {
            for site in sites {
                for type in [RequestType.script, .image, .mainFrame] { requests.append((url, site, type)) }
            }
        }
        let lean = try Self.decideInNode(Self.lean(data, configuration), requests)
        let inScope: Set<String> = ["cdn.test", "sub.cdn.test", "ctl.test"]
        var redirects = 0
        for (index, request) in requests.enumerated() {
            let swift = try #require(resolver.decision(forRequestURL: request.0, topURL: request.1, type: request.2))
            let expected = Self.summary(swift)
            if case .redirect? = swift.action { redirects += 1 }
            if let tracker = swift.tracker, inScope.contains(tracker.domain) {
                #expect(lean[index] == expected, "\(request)")
            } else {
                #expect(lean[index].action != "redirect" && lean[index].tracker == nil, "\(request): \(lean[index])")
            }
        }
        #expect(redirects > 10)
    }

    struct Summary: Equatable, CustomStringConvertible {
        var action: String?
        var reason: String
        var surrogate: String?
        var tracker: String?
        var owner: String?
        var description: String { "\(action ?? "nil") \(reason) \(surrogate ?? "-") \(tracker ?? "-") \(owner ?? "-")" }
    }

    static func summary(_ decision: BlockingDecision) -> Summary {
        var summary = Summary(reason: decision.reason.rawValue, tracker: decision.tracker?.domain, owner: decision.tracker?.owner?.name)
        switch decision.action {
        case .block?: summary.action = "block"
        case .ignore?: summary.action = "ignore"
        case .redirect(let surrogate)?:
            summary.action = "redirect"
            summary.surrogate = surrogate
        case nil: break
        }
        return summary
    }

    /// Renders blocking.js from this tree's templates over `compact` and decides `requests` in Node.
    static func decideInNode(_ compact: CompactTrackerData, _ requests: [(String, String, RequestType)]) throws -> [Summary] {
        let root = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let templates = try ScriptTemplates(directory: root.appendingPathComponent("JSTemplates").path)
        let renderer = try ScriptRenderer(templates: templates, settings: ScriptSettings(bridge: .none))
        let scripts = renderer.render(trackerData: compact, surrogates: SurrogateLibrary(surrogates))
        let list = JSONValue.array(requests.map { .array([.string($0.0), .string($0.1), .string($0.2.rawValue)]) })
        let driver = NodeRunner.withBlockingScript(scripts.blocking.source, """
            const requests = \(list.jsonString());
            console.log(JSON.stringify(requests.map((r) => {
              const d = api.decide(r[0], r[1], r[2]);
              return [d.action, d.reason, d.surrogate || null, d.tracker || null, d.owner || null];
            })));
            """)
        let result = try NodeRunner.run(driver)
        try #require(result.status == 0, "node failed: \(result.error)")
        guard case .array(let rows) = try JSONParser.parse(Array(result.output.utf8)) else { return [] }
        return rows.map { row in
            guard case .array(let fields) = row, fields.count == 5 else { return Summary(reason: "?") }
            func text(_ value: JSONValue) -> String? { if case .string(let string) = value { string } else { nil } }
            return Summary(
                action: text(fields[0]), reason: text(fields[1]) ?? "?", surrogate: text(fields[2]), tracker: text(fields[3]),
                owner: text(fields[4]))
        }
    }

    @Test(
        "apple-tds.json with this tree's surrogates: the scope's trackers and size",
        .enabled(if: SharedData.shouldRun("tds/apple-tds.json"), SharedData.skipMessage))
    func appleTDS() throws {
        let data = try TrackerData(contentsOfFile: SharedData.path("tds/apple-tds.json"))
        let surrogates = SurrogateLibrary.bundled.surrogates
        let start = ContinuousClock.now
        let lean = CompactTrackerData(trackerData: data, surrogates: surrogates, scope: .surrogateTrackers)
        let elapsed = ContinuousClock.now - start
        let all = CompactTrackerData(trackerData: data, surrogates: surrogates)
        print("CompactTrackerData from apple-tds.json: surrogateTrackers \(lean.json.utf8.count) bytes in \(elapsed), all \(all.json.utf8.count) bytes")
        let root = try CompactTrackerDataTests.root(lean)
        let kept = Set(try Self.object(root["trackers"]).keys)
        // Computed here on its own: trackers with a redirecting or a Click-to-Load rule, and
        // trackers under them.
        let redirecting = Set(data.trackers.compactMap { key, tracker -> String? in
            tracker.rules.contains { rule in
                if case .blockClickToLoad? = rule.action { return true }
                guard let surrogate = rule.surrogate, surrogates.contains(surrogate) else { return false }
                switch rule.action {
                case nil, .block?, .blockClickToLoad?: return true
                case .ignore?, .unsupported?: return false
                }
            } ? key : nil
        })
        let expected = Set(data.trackers.keys.filter { key in
            redirecting.contains { key == $0 || key.hasSuffix("." + $0) }
        })
        #expect(!redirecting.isEmpty)
        #expect(kept == expected)
        #expect(lean.json.utf8.count < 40_000)
        #expect(lean.json.utf8.count * 10 < all.json.utf8.count)
    }
}

import Foundation
import Testing
import TrackerDataKit
import TrackerlessCore
import TrackerlessTestSupport
@testable import UserScripts

@Suite("CompactTrackerData")
struct CompactTrackerDataTests {
    static let owner = Tracker.Owner(name: "Tracker Inc", displayName: "Tracker")

    static func trackerData(_ trackers: [Tracker]) -> TrackerData {
        var data = TrackerData()
        for tracker in trackers { data.trackers[tracker.domain] = tracker }
        data.entities = ["Tracker Inc": Entity(name: "Tracker Inc", domains: ["tracker.test"])]
        data.domains = ["tracker.test": "Tracker Inc", "tracker-cdn.test": "Tracker Inc", "other.test": "Other Inc"]
        return data
    }

    static func root(_ compact: CompactTrackerData) throws -> JSONObject {
        guard case .object(let object) = try JSONParser.parse(Array(compact.json.utf8)) else {
            Issue.record("the JSON is no object")
            return JSONObject()
        }
        return object
    }

    /// The rules of one tracker, decoded from their JSON text.
    static func rules(_ compact: CompactTrackerData, _ key: String) throws -> [JSONValue] {
        guard case .object(let rules)? = try root(compact)["rules"], case .string(let text)? = rules[key],
            case .array(let parsed) = try JSONParser.parse(Array(text.utf8))
        else { return [] }
        return parsed
    }

    @Test("a tracker's rules keep their order, options, exceptions, ignore and surrogate")
    func rulesWithConditions() throws {
        let tracker = Tracker(
            domain: "tracker.test", owner: Self.owner, defaultAction: .block,
            rules: [
                .init(rule: "tracker\\.test/a\\.js", surrogate: "a.js",
                      options: .init(domains: ["Site.test"], types: ["script"]),
                      exceptions: .init(types: [.image])),
                .init(rule: "tracker\\.test/ignored", action: .ignore),
                .init(rule: "tracker\\.test/unsupported", action: .unsupported("allow-ctl")),
                .init(rule: "tracker\\.test/plain"),
            ])
        let surrogates = Surrogates([.init(name: "a.js", path: "tracker.test/a.js", contentType: "application/javascript", source: "")])
        let compact = CompactTrackerData(trackerData: Self.trackerData([tracker]), surrogates: surrogates)
        #expect(compact.warnings.isEmpty)
        let rules = try Self.rules(compact, "tracker.test")
        #expect(rules == [
            .array([.string("tracker.test/a.js"), .string("a.js"),
                    .array([.array([.string("site.test")]), .array([.string("script")])]),
                    .array([.null, .array([.string("image")])])]),
            .array([.string("tracker.test/ignored"), .number(1)]),
            .array([.string("tracker.test/plain"), .number(0)]),
        ])
        #expect(compact.json.contains(#""owners":"[\"Tracker Inc\"]""#))
        #expect(compact.json.contains("\"trackers\":\"{\\\"tracker.test\\\":[0,1]}\""))
    }

    @Test("a rule naming a missing surrogate blocks, with a warning at its JSON path")
    func missingSurrogate() throws {
        let tracker = Tracker(
            domain: "tracker.test", owner: Self.owner,
            rules: [.init(rule: "tracker\\.test/x\\.js", surrogate: "missing.js")])
        let compact = CompactTrackerData(trackerData: Self.trackerData([tracker]))
        #expect(compact.warnings.map(\.description) == [
            "trackers[\"tracker.test\"].rules[0].surrogate: no surrogate \"missing.js\"; the rule blocks instead",
        ])
        #expect(try Self.rules(compact, "tracker.test") == [.array([.string("tracker.test/x.js"), .number(0)])])
    }

    @Test("a regular expression the resolver cannot use is left out, with a warning")
    func unusableRegex() throws {
        let tracker = Tracker(
            domain: "tracker.test", owner: Self.owner,
            rules: [.init(rule: "tracker\\.test/(?=x)"), .init(rule: "tracker\\.test/\\bword")])
        let compact = CompactTrackerData(trackerData: Self.trackerData([tracker]))
        #expect(compact.warnings.count == 2)
        #expect(compact.warnings.allSatisfy { $0.path?.description.hasSuffix(".rule") == true })
        #expect(try Self.rules(compact, "tracker.test").isEmpty)
    }

    @Test(
        "rule expressions are written as the resolver's NFA, state for state (see RuleProgram)",
        arguments: [
            ("tracker\\.test/a\\.js", "tracker.test/a.js"),
            ("TRACKER\\.test/[aA]", "tracker.test/a"),  // one character up to case is plain
            ("\\x41", "x41"),  // the resolver reads \x as x
            ("ads\\.js.*track", "L6;ads.jsads.jsJ7;DS6;8;track"),
            ("^https?://a", "L4;httpBhttpS6;7;s://a"),
            ("a[^b]c", "L1;aaCfffffffeffffffffffffffffffffffffc"),  // the resolver folds case after negating: [^b] matches b too
            ("a[^/]c", "L1;aaCfffffffeffff7fffffffffffffffffffc"),
            ("a$", "L1;aaE"),
            ("(a|bc)d", "L1;dS3;1;bcJ4;ad"),
            ("a*", "G1;aS0;2;"),
            ("", ""),
        ])
    func rulePrograms(_ source: String, _ expected: String) throws {
        let regex = try TrackerRuleRegex(parsing: source)
        #expect(try RuleProgram.program(of: regex) == expected)
    }

    @Test("the same inputs give the same bytes, whatever the order they were built in")
    func deterministic() {
        let trackers = (0..<50).map { index in
            Tracker(domain: "t\(index).test", owner: Self.owner, rules: [.init(rule: "t\(index)\\.test/x")])
        }
        let first = CompactTrackerData(trackerData: Self.trackerData(trackers))
        let second = CompactTrackerData(trackerData: Self.trackerData(trackers.reversed()))
        #expect(first.json == second.json)
    }

    @Test("CNAMEs are kept only when the cloaked host is no tracker and the target is one")
    func cnames() throws {
        var data = Self.trackerData([Tracker(domain: "tracker.test", owner: Self.owner)])
        data.cnames = [
            "cloaked.site.test": "x.tracker.test", "harmless.site.test": "cdn.example",
            "a.tracker.test": "b.tracker.test",
        ]
        let compact = CompactTrackerData(trackerData: data)
        #expect(compact.json.contains("\"cnames\":{\"cloaked.site.test\":\"x.tracker.test\"}"))
    }

    @Test("entities: domains of tracker owners, and others only where they hide an owner's parent domain")
    func entities() throws {
        var data = Self.trackerData([Tracker(domain: "tracker.test", owner: Self.owner)])
        data.domains["blog.tracker.test"] = "Blog Inc"
        data.domains["a.blog.tracker.test"] = "Other Inc"
        let compact = CompactTrackerData(trackerData: data)
        guard case .string(let entities)? = try Self.root(compact)["entities"] else {
            Issue.record("no entities text")
            return
        }
        #expect(entities == "\nblog.tracker.test\t-1\ntracker-cdn.test\t0\ntracker.test\t0\n")
    }

    @Test("the privacy configuration's features, exceptions, tracker allowlist and the user allowlist")
    func configuration() throws {
        let configuration = PrivacyConfiguration(
            features: [
                "contentBlocking": .init(state: .enabled, exceptions: [.init(domain: "Broken.test")]),
                "trackerAllowlist": .init(state: .disabled),
            ],
            unprotectedTemporary: [.init(domain: "temporary.test")],
            trackerAllowlist: TrackerAllowlist(entries: [
                .init(trackerDomain: "tracker.test", rules: [.init(rule: "tracker.test/Video", domains: ["<all>"])]),
            ]))
        let compact = CompactTrackerData(
            trackerData: Self.trackerData([]), privacyConfiguration: configuration,
            userAllowlist: UserAllowlist(domains: ["mine.test"]))
        let root = try Self.root(compact)
        #expect(root["contentBlocking"] == .array([.string("broken.test"), .string("temporary.test")]))
        #expect(root["trackerAllowlist"] == .bool(false))
        #expect(root["requestBlocklist"] == .bool(false))
        #expect(root["allowlist"] == .array([.array([.string("tracker.test"), .string("/video"), .number(1)])]))
        // The exact hosts the scripts look a page up in: the domain with www. and without.
        #expect(root["userAllowlist"] == .array([.string("mine.test"), .string("www.mine.test")]))

        let unconfigured = try Self.root(CompactTrackerData(trackerData: Self.trackerData([])))
        #expect(unconfigured["contentBlocking"] == .array([]))
    }

    @Test("public-suffix entries: those at or above tracker keys and below their registrable domains")
    func publicSuffixes() throws {
        let data = Self.trackerData([
            Tracker(domain: "tracker.co.uk", owner: Self.owner),
            Tracker(domain: "cloudfront.net", owner: Self.owner),
        ])
        guard case .object(let entries)? = try Self.root(CompactTrackerData(trackerData: data))["psl"] else {
            Issue.record("no psl object")
            return
        }
        #expect(entries["uk"] == .number(1))
        #expect(entries["co.uk"] == .number(1))
        #expect(entries["net"] == .number(1))
        #expect(entries["cloudfront.net"] == .number(1))
        #expect(entries["com"] == nil)
        #expect(entries.count < 20)
    }

    @Test(
        "size and warnings on apple-tds.json",
        .enabled(if: SharedData.shouldRun("tds/apple-tds.json"), SharedData.skipMessage))
    func appleTDS() throws {
        let data = try TrackerData(contentsOfFile: SharedData.path("tds/apple-tds.json"))
        let start = ContinuousClock.now
        let compact = CompactTrackerData(trackerData: data)
        let elapsed = ContinuousClock.now - start
        let bytes = compact.json.utf8.count
        print("CompactTrackerData from apple-tds.json: \(bytes) bytes in \(elapsed)")
        #expect(bytes < 600_000)
        #expect(!compact.json.contains("\u{2028}") && !compact.json.contains("\u{2029}"))
        // Every warning is a surrogate the empty surrogate set does not have.
        #expect(compact.warnings.allSatisfy { $0.message.hasPrefix("no surrogate") })
    }
}

import Testing
import TrackerDataKit
import TrackerlessCore

@Suite("Reading tds.json")
struct TrackerDataParsingTests {
    static let example = """
        {
          "_builtWith": {"tracker-radar": "abc"},
          "readme": "https://github.com/duckduckgo/tracker-blocklists",
          "trackers": {
            "Tracker.example": {
              "domain": "tracker.example",
              "owner": {"name": "Tracker Inc", "displayName": "Tracker", "ownedBy": "Parent LLC",
                        "privacyPolicy": "https://tracker.example/privacy", "url": "https://tracker.example"},
              "prevalence": 0.12, "fingerprinting": 2, "cookies": 0.05,
              "categories": ["Analytics"],
              "default": "ignore",
              "futureField": {"anything": true},
              "rules": [
                {"rule": "tracker\\\\.example/a\\\\.js", "surrogate": "a.js", "fingerprinting": 1, "cookies": 0,
                 "comment": "why", "options": {"domains": ["site.example"], "types": ["script"]},
                 "exceptions": {"domains": ["ok.example"]}},
                {"rule": "tracker\\\\.example/ctl", "action": "block-ctl-fb"},
                {"rule": "tracker\\\\.example/new", "action": "teleport"}
              ]
            }
          },
          "entities": {"Tracker Inc": {"displayName": "Tracker", "domains": ["tracker.example", "tracker-cdn.example"], "prevalence": 3.5}},
          "domains": {"tracker.example": "Tracker Inc", "tracker-cdn.example": "Tracker Inc"},
          "cnames": {"metrics.site.example": "Collect.Tracker.example"}
        }
        """

    @Test("every field is read")
    func everyField() throws {
        let tds = try TrackerData(parsing: Array(Self.example.utf8), file: "tds.json")
        let tracker = try #require(tds.trackers["tracker.example"], "keys are lowercased")
        #expect(tracker.domain == "tracker.example")
        #expect(tracker.owner == Tracker.Owner(
            name: "Tracker Inc", displayName: "Tracker", ownedBy: "Parent LLC",
            privacyPolicy: "https://tracker.example/privacy", url: "https://tracker.example"))
        #expect(tracker.prevalence == 0.12)
        #expect(tracker.fingerprinting == 2)
        #expect(tracker.cookies == 0.05)
        #expect(tracker.categories == ["Analytics"])
        #expect(tracker.defaultAction == .ignore)
        #expect(tracker.rules.count == 3)
        #expect(tracker.rules[0] == Tracker.Rule(
            rule: #"tracker\.example/a\.js"#, surrogate: "a.js",
            options: .init(domains: ["site.example"], types: [.script]),
            exceptions: .init(domains: ["ok.example"]),
            fingerprinting: 1, cookies: 0, comment: "why"))
        #expect(tracker.rules[1].action == .blockClickToLoad("block-ctl-fb"))
        #expect(tracker.rules[2].action == .unsupported("teleport"))
        #expect(tds.entities["Tracker Inc"] == Entity(
            name: "Tracker Inc", displayName: "Tracker", domains: ["tracker.example", "tracker-cdn.example"], prevalence: 3.5))
        #expect(tds.domains["tracker-cdn.example"] == "Tracker Inc")
        #expect(tds.cnames["metrics.site.example"] == "collect.tracker.example")
        #expect(tds.builtWith == .object(JSONObject([("tracker-radar", .string("abc"))])))
        #expect(tds.readme == "https://github.com/duckduckgo/tracker-blocklists")
    }

    @Test("an unknown rule action is kept and reported")
    func unsupportedActionWarning() throws {
        let tds = try TrackerData(parsing: Array(Self.example.utf8), file: "tds.json")
        #expect(tds.warnings.map(\.description) == [
            #"tds.json: trackers["Tracker.example"].rules[2].action: unsupported action "teleport"; the rule is skipped"#
        ])
    }

    @Test("lookups walk parent domains; CNAMEs do not")
    func lookups() throws {
        let tds = try TrackerData(parsing: Array(Self.example.utf8))
        #expect(tds.tracker(forHost: "a.b.tracker.example")?.domain == "tracker.example")
        #expect(tds.tracker(forHost: "nottracker.example") == nil)
        #expect(tds.tracker(forHost: "example") == nil)
        #expect(tds.entity(forHost: "img.tracker-cdn.example")?.name == "Tracker Inc")
        #expect(tds.entity(forHost: "other.example") == nil)
        #expect(tds.cname(forHost: "metrics.site.example") == "collect.tracker.example")
        #expect(tds.cname(forHost: "a.metrics.site.example") == nil)
    }

    @Test("empty document, and null for optional fields")
    func minimal() throws {
        let tds = try TrackerData(parsing: Array(#"{"trackers": {"x.example": {"default": "block", "rules": null}}}"#.utf8))
        #expect(tds.trackers["x.example"] == Tracker(domain: "x.example", defaultAction: .block))
        let empty = try TrackerData(parsing: Array(#"{"trackers": {}}"#.utf8), file: "tds.json")
        #expect(empty.trackers.isEmpty && empty.entities.isEmpty && empty.domains.isEmpty)
        #expect(empty.warnings.map(\.description) == ["tds.json: trackers: empty: this blocklist blocks no tracker"])
    }

    /// DuckDuckGo's decoders refuse a tds without `trackers`: a CDN answering `{}` (or any
    /// other object) must not switch protection off.
    @Test("a document without trackers is refused, naming the file and the member", arguments: ["{}", #"{"entities": {}, "domains": {}}"#])
    func missingTrackers(json: String) throws {
        #expect {
            try TrackerData(parsing: Array(json.utf8), file: "downloaded-tds.json")
        } throws: { error in
            "\(error)" == #"downloaded-tds.json: (root): the member "trackers" is missing; a blocklist without it would block nothing"#
        }
    }

    struct BadInput: Sendable, CustomTestStringConvertible {
        var name: String
        var json: String
        var message: String
        var testDescription: String { name }
    }

    static let badInputs: [BadInput] = [
        BadInput(
            name: "tracker is an array",
            json: #"{"trackers": {"x.com": []}}"#,
            message: #"apple-tds.json: trackers["x.com"]: expected an object, found an array"#),
        BadInput(
            name: "entity domains is a string",
            json: #"{"entities": {"X Inc": {"domains": "x.com"}}}"#,
            message: #"apple-tds.json: entities["X Inc"].domains: expected an array of strings, found a string"#),
        BadInput(
            name: "cname target is null",
            json: #"{"cnames": {"a.site.com": null}}"#,
            message: #"apple-tds.json: cnames["a.site.com"]: expected a string, found null"#),
        BadInput(
            name: "root is an array",
            json: #"[]"#,
            message: #"apple-tds.json: (root): expected an object, found an array"#),
    ]

    @Test("wrong types are errors naming the file and the JSON path", arguments: badInputs, [true, false])
    func wrongTypes(_ input: BadInput, keepingEntityRecords: Bool) {
        // The same errors whether the entities are kept or only checked.
        #expect(throws: TrackerDataError.self) {
            try TrackerData(parsing: Array(input.json.utf8), file: "apple-tds.json", keepingEntityRecords: keepingEntityRecords)
        }
        do {
            _ = try TrackerData(parsing: Array(input.json.utf8), file: "apple-tds.json", keepingEntityRecords: keepingEntityRecords)
        } catch {
            #expect(error.description == input.message)
            guard case .invalidValue = error else {
                Issue.record("expected .invalidValue, got \(error)")
                return
            }
        }
    }

    @Test("without entity records: everything else read the same, the entities left empty")
    func withoutEntityRecords() throws {
        let full = try TrackerData(parsing: Array(Self.example.utf8), file: "tds.json")
        let read = try TrackerData(parsing: Array(Self.example.utf8), file: "tds.json", keepingEntityRecords: false)
        #expect(!full.entities.isEmpty)
        #expect(read.entities.isEmpty)
        var expected = full
        expected.entities = [:]
        #expect(read == expected)
    }

    /// A tds of `count` trackers shaped as BuildMemoryShapeTests writes them, ending with
    /// `entityTail` as the last entity's members.
    static func shaped(_ count: Int, entityTail: String) -> [UInt8] {
        var json = Array(#"{"trackers": {"#.utf8)
        for index in 0..<count {
            json += Array(((index == 0 ? "" : ",") + #""t\#(index).example": {"domain": "t\#(index).example", "#
                + #""default": "block", "owner": {"name": "C\#(index)"}, "rules": [{"rule": "t\#(index)\\.example/ads/", "#
                + #""exceptions": {"domains": ["s\#(index).example"]}}, {"rule": "t\#(index)\\.example/ok", "action": "ignore"}]}"#).utf8)
        }
        json += Array(#"}, "entities": {"#.utf8)
        for index in 0..<count {
            json += Array(((index == 0 ? "" : ",") + #""C\#(index)": {"domains": ["t\#(index).example"]"#
                + (index == count - 1 ? entityTail : "") + "}").utf8)
        }
        json += Array(#"}, "domains": {"t0.example": "C0"}, "cnames": {"x.example": "t0.example"}}"#.utf8)
        return json
    }

    @Test("parsed giving its bytes back: megabytes read the same; a problem past a release reported the same")
    func givingBytesBack() throws {
        // Over 8 MB, the reader's release step, so that pages are given back before the end.
        let count = 60_000
        let bytes = Self.shaped(count, entityTail: "")
        #expect(bytes.count > 12 << 20)
        let plain = try TrackerData(parsing: bytes, file: "tds.json", keepingEntityRecords: false)
        var readAgain = false
        let consumed = try TrackerData(consuming: bytes, file: "tds.json", keepingEntityRecords: false) { () -> [UInt8] in
            readAgain = true
            return bytes
        }
        #expect(!readAgain)
        #expect(plain.trackers.count == count)
        #expect(consumed == plain)
        // A wrong value and a syntax error at the end, after the pages before them are gone: the
        // document is read again for the error, which is the one the plain parse reports.
        for tail in [#", "prevalence": "high""#, #", "prevalence": 1,"#] {
            let bad = Self.shaped(count, entityTail: tail)
            var plainError: TrackerDataError?
            do throws(TrackerDataError) {
                _ = try TrackerData(parsing: bad, file: "tds.json")
            } catch {
                plainError = error
            }
            let expected = try #require(plainError)
            readAgain = false
            #expect(throws: expected) {
                try TrackerData(consuming: bad, file: "tds.json", keepingEntityRecords: false) { () -> [UInt8] in
                    readAgain = true
                    return bad
                }
            }
            #expect(readAgain)
        }
    }

    @Test("a rule's boxed fields: each setter changes only its rule and field, equal to the rule made whole")
    func ruleFields() {
        let plain = Tracker.Rule(rule: "a")
        var rule = plain
        #expect(rule == Tracker.Rule(rule: "a", action: nil))
        rule.surrogate = "s.js"
        rule.options = .init(types: [.script])
        rule.exceptions = .init(domains: ["ok.example"])
        rule.fingerprinting = 2
        rule.cookies = 0.5
        rule.comment = "why"
        rule.action = .blockClickToLoad("block-ctl-fb")
        let whole = Tracker.Rule(
            rule: "a", action: .blockClickToLoad("block-ctl-fb"), surrogate: "s.js", options: .init(types: [.script]),
            exceptions: .init(domains: ["ok.example"]), fingerprinting: 2, cookies: 0.5, comment: "why")
        #expect(rule == whole)
        #expect(rule.hashValue == whole.hashValue)
        #expect(plain.surrogate == nil && plain.action == nil && plain.comment == nil, "the copy changed, not the original")
        var copy = rule
        copy.comment = nil
        #expect(rule.comment == "why")
        #expect(copy != rule)
        // Actions of every kind, inline or boxed, and back to none: equal to a rule made with it.
        for action in [Tracker.Rule.Action.block, .ignore, .unsupported("teleport"), .blockClickToLoad("block-ctl-yt"), nil] {
            copy.action = action
            #expect(copy.action == action)
            #expect(copy == Tracker.Rule(
                rule: "a", action: action, surrogate: "s.js", options: .init(types: [.script]),
                exceptions: .init(domains: ["ok.example"]), fingerprinting: 2, cookies: 0.5))
        }
        // Cleared field by field, the rule is the plain one again, equal and hashed alike.
        rule.action = nil
        rule.surrogate = nil
        rule.options = nil
        rule.exceptions = nil
        rule.fingerprinting = nil
        rule.cookies = nil
        rule.comment = nil
        #expect(rule == plain)
        #expect(rule.hashValue == plain.hashValue)
    }

    @Test("a rule is a string, a byte and a pointer; a tracker, its domain, action, rules and two boxes")
    func valueSizes() {
        // 136 bytes with every field inline: 3,000,000 of them at 1,000,000 trackers.
        #expect(MemoryLayout<Tracker.Rule>.stride <= 32)
        // 112 bytes with the metadata inline: a table of 1,000,000 trackers has 2²¹ slots.
        #expect(MemoryLayout<Tracker>.stride <= 56)
    }

    @Test("an owner reads back as it was set, with or without the fields past its display name; equal owners hash alike")
    func ownerFields() {
        let owners = [
            Tracker.Owner(name: "Tracker Inc"),
            Tracker.Owner(name: "Tracker Inc", displayName: "Tracker"),
            Tracker.Owner(name: "Tracker Inc", displayName: "Tracker", ownedBy: "Parent LLC"),
            Tracker.Owner(
                name: "Tracker Inc", displayName: nil, ownedBy: nil, privacyPolicy: "https://tracker.example/p",
                url: "https://tracker.example", localizedName: "Traqueur"),
        ]
        for owner in owners {
            var tracker = Tracker(domain: "tracker.example", owner: owner)
            #expect(tracker.owner == owner)
            #expect(tracker.ownerName == owner.name)
            #expect(tracker == Tracker(domain: "tracker.example", owner: owner))
            #expect(tracker.hashValue == Tracker(domain: "tracker.example", owner: owner).hashValue)
            for other in owners where other != owner {
                #expect(tracker != Tracker(domain: "tracker.example", owner: other))
            }
            tracker.owner = nil
            #expect(tracker.owner == nil && tracker.ownerName == nil)
        }
    }

    @Test("truncated JSON is a syntax error naming the file")
    func truncated() {
        let json = Array(Self.example.utf8.prefix(300))
        do {
            _ = try TrackerData(parsing: json, file: "apple-tds.json")
            Issue.record("expected an error")
        } catch {
            guard case .syntax = error else {
                Issue.record("expected .syntax, got \(error)")
                return
            }
            #expect(error.description.hasPrefix("apple-tds.json: line "))
        }
    }

    @Test("a missing file is reported with its path")
    func missingFile() {
        do {
            _ = try TrackerData(contentsOfFile: "/nonexistent/tds.json")
            Issue.record("expected an error")
        } catch {
            guard case .unreadable = error else {
                Issue.record("expected .unreadable, got \(error)")
                return
            }
            #expect(error.description.contains("/nonexistent/tds.json"))
        }
    }
}

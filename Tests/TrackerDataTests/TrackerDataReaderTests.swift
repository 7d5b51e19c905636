import Testing
import TrackerDataKit
import TrackerlessCore
import TrackerlessTestSupport

/// tds.json is read straight into the model (`JSONReader`), no longer through a JSON tree. These
/// tests hold the direct reader to the tree decoder it replaced (`TreeTrackerDataDecoder`): the
/// same model and warnings for good input, the same error (case, path, message, offset) for bad.
@Suite("Reading tds.json directly, as the tree decoder did")
struct TrackerDataReaderTests {
    /// Every field, `null`s, an unknown field, an escaped key, duplicate keys and an unsupported
    /// action and default, in 1.5 KB.
    static let document = """
        {
          "_builtWith": {"tracker-radar": "abc", "nested": [1, {"deep": [true, false, null]}]},
          "readme": "https://github.com/duckduckgo/tracker-blocklists",
          "trackers": {
            "Tracker.example": {
              "domain": "tracker.example",
              "owner": {"name": "Tracker Inc", "displayName": "Tracker", "ownedBy": "Parent LLC", "localizedName": null,
                        "privacyPolicy": "https://tracker.example/privacy", "url": "https://tracker.example", "extra": 1},
              "prevalence": 0.12, "fingerprinting": 2, "cookies": 5e-2,
              "categories": ["Analytics", "Ad Motivated Tracking"],
              "default": "ignore",
              "futureField": {"anything": [true, "x"]},
              "rules": [
                {"rule": "tracker\\\\.example/a\\\\.js", "surrogate": "a.js", "fingerprinting": 1, "cookies": 0,
                 "comment": "why", "options": {"domains": ["site.example"], "types": ["script"], "other": 2},
                 "exceptions": {"domains": ["ok.example"], "types": null}},
                {"rule": "tracker\\\\.example/ctl", "action": "block-ctl-fb"},
                {"action": "teleport", "rule": "tracker\\\\.example/new"}
              ],
              "subdomains": ["a", "b"]
            },
            "other.example": {"domain": "other.example", "default": "sneak", "owner": null, "rules": [],
                              "dom\\u0061in": "Other.Example", "rules": [{"rule": "other\\\\.example/x"}]},
            "empty.example": {}
          },
          "entities": {"Tracker Inc": {"displayName": "Tracker", "domains": ["tracker.example", "tracker-cdn.example"], "prevalence": 3.5},
                       "Caf\\u00e9 \u{00e9}": {"domains": []}},
          "domains": {"tracker.example": "Tracker Inc", "Tracker-CDN.example": "Tracker Inc"},
          "cnames": {"metrics.site.example": "Collect.Tracker.example"},
          "readme": null
        }
        """

    /// The reader's and the tree decoder's outcome for `bytes`, and whether they are the same.
    private static func outcomes(_ bytes: [UInt8]) -> (direct: String, tree: String, agree: Bool) {
        let direct = Result { () throws(TrackerDataError) in try TrackerData(parsing: bytes, file: "tds.json") }
        let tree = Result { () throws(TrackerDataError) in try TreeTrackerDataDecoder.decode(bytes, file: "tds.json") }
        return ("\(direct)", "\(tree)", direct == tree)
    }

    private static func expectAgreement(_ bytes: [UInt8], _ what: @autoclosure () -> String) {
        let (direct, tree, agree) = outcomes(bytes)
        #expect(agree, "\(what()): direct \(direct), tree \(tree)")
    }

    @Test("the example document reads the same, warnings included")
    func example() throws {
        let bytes = Array(Self.document.utf8)
        let tds = try TrackerData(parsing: bytes, file: "tds.json")
        #expect(tds == (try TreeTrackerDataDecoder.decode(bytes, file: "tds.json")))
        #expect(tds.trackers["other.example"]?.domain == "other.example", "an escaped key is a key")
        #expect(tds.trackers["other.example"]?.rules.count == 1, "a duplicate rules key adds its rules")
        #expect(tds.warnings.count == 3, "the unsupported action and default, and the null owner")
    }

    @Test("a repeated tracker key reads as the tree decoder reads it: the last wins")
    func repeatedTrackers() throws {
        let document = """
            {"trackers": {"a.example": {"domain": "a.example", "default": "block"}, "b.example": {},
                          "a.example": {"domain": "a.example", "default": "ignore", "owner": {"name": "Second"}},
                          "c.example": {"rules": [{"rule": "c"}]}, "b.example": {"rules": [{"rule": "b"}]}},
             "entities": {}, "domains": {}}
            """
        let bytes = Array(document.utf8)
        let tds = try TrackerData(parsing: bytes, file: "tds.json")
        #expect(tds == (try TreeTrackerDataDecoder.decode(bytes, file: "tds.json")))
        #expect(tds.trackers.count == 3)
        #expect(tds.trackers["a.example"]?.defaultAction == .ignore)
        #expect(tds.trackers["a.example"]?.ownerName == "Second")
        #expect(tds.trackers["b.example"]?.rules.map(\.rule) == ["b"])
    }

    @Test("both real blocklists read the same", arguments: ["apple-tds.json", "extension-tds.json"])
    func realBlocklists(_ name: String) throws {
        guard SharedData.shouldRun("tds/\(name)") else { try Test.cancel(SharedData.skipMessage) }
        let bytes = try #require(SharedData.bytes("tds/\(name)"))
        let direct = try TrackerData(parsing: bytes, file: name)
        #expect(direct.trackers.count > 2_000)
        #expect(direct == (try TreeTrackerDataDecoder.decode(bytes, file: name)))
    }

    @Test("every truncation gives the same error")
    func truncations() {
        DocumentMutations.eachTruncation(of: Array(Self.document.utf8)) { Self.expectAgreement($0, $1) }
    }

    @Test("every byte deleted or replaced gives the same result or error")
    func mutations() {
        let replacements = Array("\"1n{[]},: x\\-.".utf8)
        DocumentMutations.eachDeletionAndReplacement(of: Array(Self.document.utf8), replacements: replacements) {
            Self.expectAgreement($0, $1)
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var json: String
        var testDescription: String { name }
    }

    /// Inputs where the order of problems matters, which a reader that cannot look ahead could
    /// get wrong.
    static let orderCases: [Case] = [
        Case(name: "a wrong member before a missing rule", json: #"{"trackers": {"x.com": {"rules": [{"action": 1}]}}}"#),
        Case(name: "a wrong member before a wrong rule", json: #"{"trackers": {"x.com": {"rules": [{"action": 1, "rule": 2}]}}}"#),
        Case(name: "a wrong member after a good rule", json: #"{"trackers": {"x.com": {"rules": [{"rule": "a", "comment": 2}]}}}"#),
        Case(name: "a wrong rule, then a good one", json: #"{"trackers": {"x.com": {"rules": [{"rule": 1, "rule": "a"}]}}}"#),
        Case(name: "a good rule, then a wrong one", json: #"{"trackers": {"x.com": {"rules": [{"rule": "a", "rule": null}]}}}"#),
        Case(name: "a wrong member of a nested condition, then no rule",
             json: #"{"trackers": {"x.com": {"rules": [{"options": {"types": [1]}}]}}}"#),
        Case(name: "a wrong owner member before a missing name", json: #"{"trackers": {"x.com": {"owner": {"url": 1}}}}"#),
        Case(name: "an owner name that is null", json: #"{"trackers": {"x.com": {"owner": {"name": null}}}}"#),
        Case(name: "a rule that is a string", json: #"{"trackers": {"x.com": {"rules": ["a"]}}}"#),
        Case(name: "a wrong value, then a syntax error", json: #"{"trackers": {"x.com": {"default": 1}}, "domains": {"a": "b",}}"#),
        Case(name: "a wrong value, then trailing text", json: #"{"readme": 1} x"#),
        Case(name: "a wrong member before a missing rule, then a syntax error",
             json: #"{"trackers": {"x.com": {"rules": [{"action": 1}]}}, "cnames": [}"#),
        Case(name: "an integer out of range", json: #"{"trackers": {"x.com": {"fingerprinting": 1e300}}}"#),
        Case(name: "a negative zero and an exponent", json: #"{"trackers": {"x.com": {"fingerprinting": -0, "cookies": -1.5E+2}}}"#),
        Case(name: "a byte order mark", json: "\u{FEFF}{\"readme\": \"r\"}"),
        Case(name: "unknown fields of every kind", json: #"{"a": [], "b": {}, "c": [[{}]], "d": "\u0041", "e": -1, "f": true}"#),
    ]

    @Test("problems are reported in the tree decoder's order", arguments: orderCases)
    func order(_ input: Case) {
        Self.expectAgreement(Array(input.json.utf8), input.name)
    }

    @Test("nesting past the limit is the same error inside a skipped field and a read one")
    func depthLimit() {
        for depth in [509, 510, 511, 512, 513] {
            let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            Self.expectAgreement(Array(#"{"unknown": \#(nested)}"#.utf8), "\(depth) arrays in an unknown field")
            Self.expectAgreement(Array(#"{"_builtWith": \#(nested)}"#.utf8), "\(depth) arrays in _builtWith")
            Self.expectAgreement(
                Array(#"{"trackers": {"x.com": {"rules": [{"rule": "a", "options": {"domains": \#(nested)}}]}}}"#.utf8),
                "\(depth) arrays in a rule's domains")
        }
    }
}

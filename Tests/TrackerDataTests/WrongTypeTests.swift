import Testing
import TrackerDataKit
import TrackerlessCore

/// One wrong type for every field of tds.json, the privacy configuration and the user allowlist:
/// each is an error or a warning naming its JSON path, never accepted in silence. Which one
/// follows DuckDuckGo's decoders: an error where their decode of the whole file fails, a
/// warning where they drop the value (TrackerRadarKit decodes each tracker field with `try?`
/// and drops undecodable rules; BrowserServicesKit reads the privacy configuration with `as?`).
@Suite("Wrong types: an error or a warning with the JSON path, per field")
struct WrongTypeTests {
    enum Input: Sendable { case tds, privacyConfiguration, userAllowlist }
    enum Outcome: Sendable { case error, warning }

    struct Case: Sendable, CustomTestStringConvertible {
        var input: Input
        var json: String
        var outcome: Outcome
        /// The JSON path the error or warning names.
        var path: String
        var testDescription: String { "\(input) \(path): \(outcome)" }
    }

    static func tds(_ json: String, _ outcome: Outcome, _ path: String) -> Case {
        Case(input: .tds, json: json, outcome: outcome, path: path)
    }

    /// A tds with tracker x.com whose object holds `members`.
    static func tracker(_ members: String, _ outcome: Outcome, _ path: String) -> Case {
        tds(#"{"trackers": {"x.com": {"domain": "x.com", "default": "block", \#(members)}}, "entities": {}, "domains": {}}"#, outcome, path)
    }

    /// A tracker x.com with one rule whose object holds `members` besides a good `rule`.
    static func rule(_ members: String, _ outcome: Outcome, _ path: String) -> Case {
        tracker(#""rules": [{"rule": "x\\.com/a", \#(members)}]"#, outcome, path)
    }

    static func config(_ json: String, _ path: String, _ outcome: Outcome = .warning) -> Case {
        Case(input: .privacyConfiguration, json: json, outcome: outcome, path: path)
    }

    /// A configuration with feature `name` whose object holds `members`.
    static func feature(_ name: String, _ members: String, _ path: String) -> Case {
        config(#"{"features": {"contentBlocking": {"state": "enabled"}, "\#(name)": {\#(members)}}}"#, path)
    }

    static let cases: [Case] = [
        // tds.json: the top level (DuckDuckGo's decode needs trackers, entities and domains).
        tds("[]", .error, "(root)"),
        tds(#"{"trackers": []}"#, .error, "trackers"),
        tds(#"{"trackers": null}"#, .error, "trackers"),
        tds(#"{"entities": "x"}"#, .error, "entities"),
        tds(#"{"entities": null}"#, .error, "entities"),
        tds(#"{"domains": 5}"#, .error, "domains"),
        tds(#"{"domains": null}"#, .error, "domains"),
        tds(#"{"domains": {"x.com": 5}}"#, .error, #"domains["x.com"]"#),
        tds(#"{"cnames": []}"#, .error, "cnames"),
        tds(#"{"cnames": {"a.site.com": 5}}"#, .error, #"cnames["a.site.com"]"#),
        tds(#"{"trackers": {"x.com": {"domain": "x.com"}}, "readme": 5}"#, .warning, "readme"),
        // A tracker: not an object fails DuckDuckGo's decode; a wrong field is dropped.
        tds(#"{"trackers": {"x.com": "block"}}"#, .error, #"trackers["x.com"]"#),
        tracker(#""domain": 5"#, .warning, #"trackers["x.com"].domain"#),
        tracker(#""owner": "X Inc""#, .warning, #"trackers["x.com"].owner"#),
        tracker(#""owner": null"#, .warning, #"trackers["x.com"].owner"#),
        tracker(#""owner": {"name": 5}"#, .warning, #"trackers["x.com"].owner.name"#),
        tracker(#""owner": {"name": "X", "displayName": 5}"#, .warning, #"trackers["x.com"].owner.displayName"#),
        tracker(#""owner": {"name": "X", "ownedBy": []}"#, .warning, #"trackers["x.com"].owner.ownedBy"#),
        tracker(#""owner": {"name": "X", "privacyPolicy": 1}"#, .warning, #"trackers["x.com"].owner.privacyPolicy"#),
        tracker(#""owner": {"name": "X", "url": true}"#, .warning, #"trackers["x.com"].owner.url"#),
        tracker(#""owner": {"name": "X", "localizedName": {}}"#, .warning, #"trackers["x.com"].owner.localizedName"#),
        tracker(#""prevalence": "high""#, .warning, #"trackers["x.com"].prevalence"#),
        tracker(#""fingerprinting": "2""#, .warning, #"trackers["x.com"].fingerprinting"#),
        tracker(#""cookies": []"#, .warning, #"trackers["x.com"].cookies"#),
        tracker(#""categories": "Analytics""#, .warning, #"trackers["x.com"].categories"#),
        tracker(#""subdomains": "a""#, .warning, #"trackers["x.com"].subdomains"#),
        tds(#"{"trackers": {"x.com": {"default": 5}}}"#, .warning, #"trackers["x.com"].default"#),
        tds(#"{"trackers": {"x.com": {"default": "maybe"}}}"#, .warning, #"trackers["x.com"].default"#),
        tracker(#""rules": {}"#, .warning, #"trackers["x.com"].rules"#),
        // A rule: dropped, as DuckDuckGo drops a rule it cannot decode.
        tracker(#""rules": [5]"#, .warning, #"trackers["x.com"].rules[0]"#),
        tracker(#""rules": [{"rule": 5}]"#, .warning, #"trackers["x.com"].rules[0].rule"#),
        tracker(#""rules": [{"action": "ignore"}]"#, .warning, #"trackers["x.com"].rules[0]"#),
        rule(#""action": 5"#, .warning, #"trackers["x.com"].rules[0].action"#),
        rule(#""action": "teleport""#, .warning, #"trackers["x.com"].rules[0].action"#),
        rule(#""surrogate": 5"#, .warning, #"trackers["x.com"].rules[0].surrogate"#),
        rule(#""options": "x.com""#, .warning, #"trackers["x.com"].rules[0].options"#),
        rule(#""options": {"domains": "a.com"}"#, .warning, #"trackers["x.com"].rules[0].options.domains"#),
        rule(#""options": {"types": ["script", 1]}"#, .warning, #"trackers["x.com"].rules[0].options.types[1]"#),
        rule(#""exceptions": 5"#, .warning, #"trackers["x.com"].rules[0].exceptions"#),
        rule(#""exceptions": {"domains": [null]}"#, .warning, #"trackers["x.com"].rules[0].exceptions.domains[0]"#),
        rule(#""exceptions": {"types": "image"}"#, .warning, #"trackers["x.com"].rules[0].exceptions.types"#),
        rule(#""fingerprinting": 1.5"#, .warning, #"trackers["x.com"].rules[0].fingerprinting"#),
        rule(#""cookies": "0""#, .warning, #"trackers["x.com"].rules[0].cookies"#),
        rule(#""comment": 5"#, .warning, #"trackers["x.com"].rules[0].comment"#),
        // An entity: DuckDuckGo's decode of Entity fails, and with it the file's.
        tds(#"{"entities": {"X Inc": []}}"#, .error, #"entities["X Inc"]"#),
        tds(#"{"entities": {"X Inc": {"displayName": 5}}}"#, .error, #"entities["X Inc"].displayName"#),
        tds(#"{"entities": {"X Inc": {"domains": "x.com"}}}"#, .error, #"entities["X Inc"].domains"#),
        tds(#"{"entities": {"X Inc": {"prevalence": "1"}}}"#, .error, #"entities["X Inc"].prevalence"#),

        // The privacy configuration: only a root that is not an object fails DuckDuckGo's read.
        config("[]", "(root)", .error),
        config(#"{"version": "1"}"#, "version"),
        config(#"{"readme": 5}"#, "readme"),
        config(#"{"features": []}"#, "features"),
        config(#"{"features": {"contentBlocking": 5}}"#, "features.contentBlocking"),
        config(#"{"features": {"contentBlocking": {"exceptions": []}}}"#, "features.contentBlocking"),
        config(#"{"features": {"contentBlocking": {"state": true}}}"#, "features.contentBlocking.state"),
        feature("contentBlocking", #""state": "enabled", "exceptions": {}"#, "features.contentBlocking.exceptions"),
        feature("contentBlocking", #""state": "enabled", "exceptions": ["a.com"]"#, "features.contentBlocking.exceptions[0]"),
        feature("contentBlocking", #""state": "enabled", "exceptions": [{"domain": 5}]"#, "features.contentBlocking.exceptions[0].domain"),
        feature("contentBlocking", #""state": "enabled", "exceptions": [{"domain": "a.com", "reason": []}]"#,
                "features.contentBlocking.exceptions[0].reason"),
        feature("contentBlocking", #""state": "enabled", "settings": []"#, "features.contentBlocking.settings"),
        feature("contentBlocking", #""state": "enabled", "hash": 5"#, "features.contentBlocking.hash"),
        feature("contentBlocking", #""state": "enabled", "features": []"#, "features.contentBlocking.features"),
        feature("contentBlocking", #""state": "enabled", "features": {"sub": {"state": 1}}"#, "features.contentBlocking.features.sub.state"),
        config(#"{"unprotectedTemporary": {}}"#, "unprotectedTemporary"),
        config(#"{"unprotectedTemporary": [{"domain": ["a.com"]}]}"#, "unprotectedTemporary[0].domain"),
        feature("trackerAllowlist", #""state": "enabled", "settings": {"allowlistedTrackers": []}"#,
                "features.trackerAllowlist.settings.allowlistedTrackers"),
        feature("trackerAllowlist", #""state": "enabled", "settings": {"allowlistedTrackers": {"t.com": []}}"#,
                #"features.trackerAllowlist.settings.allowlistedTrackers["t.com"]"#),
        feature("trackerAllowlist", #""state": "enabled", "settings": {"allowlistedTrackers": {"t.com": {"rules": [5]}}}"#,
                #"features.trackerAllowlist.settings.allowlistedTrackers["t.com"].rules[0]"#),
        feature("trackerAllowlist", #""state": "enabled", "settings": {"allowlistedTrackers": {"t.com": {"rules": [{"rule": 5, "domains": ["<all>"]}]}}}"#,
                #"features.trackerAllowlist.settings.allowlistedTrackers["t.com"].rules[0].rule"#),
        feature("trackerAllowlist", #""state": "enabled", "settings": {"allowlistedTrackers": {"t.com": {"rules": [{"rule": "t.com/a", "domains": "<all>"}]}}}"#,
                #"features.trackerAllowlist.settings.allowlistedTrackers["t.com"].rules[0].domains"#),
        feature("trackerAllowlist", #""state": "enabled", "settings": {"allowlistedTrackers": {"t.com": {"rules": [{"rule": "t.com/a", "domains": ["a.com", 1]}]}}}"#,
                #"features.trackerAllowlist.settings.allowlistedTrackers["t.com"].rules[0].domains"#),
        feature("trackerAllowlist", #""state": "enabled", "settings": {"allowlistedTrackers": {"t.com": {"rules": [{"rule": "t.com/a", "domains": ["<all>"], "reason": 5}]}}}"#,
                #"features.trackerAllowlist.settings.allowlistedTrackers["t.com"].rules[0].reason"#),
        feature("requestBlocklist", #""state": "enabled", "settings": {"blockedRequests": []}"#,
                "features.requestBlocklist.settings.blockedRequests"),
        feature("requestBlocklist", #""state": "enabled", "settings": {"blockedRequests": {"t.com": {"rules": 5}}}"#,
                #"features.requestBlocklist.settings.blockedRequests["t.com"]"#),
        feature("requestBlocklist", #""state": "enabled", "settings": {"blockedRequests": {"t.com": {"rules": [5]}}}"#,
                #"features.requestBlocklist.settings.blockedRequests["t.com"].rules[0]"#),
        feature("requestBlocklist", #""state": "enabled", "settings": {"blockedRequests": {"t.com": {"rules": [{"rule": 5, "domains": ["<all>"]}]}}}"#,
                #"features.requestBlocklist.settings.blockedRequests["t.com"].rules[0].rule"#),
        feature("requestBlocklist", #""state": "enabled", "settings": {"blockedRequests": {"t.com": {"rules": [{"rule": "t.com/a", "domains": "<all>"}]}}}"#,
                #"features.requestBlocklist.settings.blockedRequests["t.com"].rules[0].domains"#),
        feature("requestBlocklist", #""state": "enabled", "settings": {"blockedRequests": {"t.com": {"rules": [{"rule": "t.com/a", "domains": ["<all>"], "reason": 5}]}}}"#,
                #"features.requestBlocklist.settings.blockedRequests["t.com"].rules[0].reason"#),
        feature("cookie", #""state": "enabled", "settings": {"trackerCookie": true}"#, "features.cookie.settings.trackerCookie"),
        feature("cookie", #""state": "enabled", "settings": {"excludedCookieDomains": "a.com"}"#,
                "features.cookie.settings.excludedCookieDomains"),
        feature("cookie", #""state": "enabled", "settings": {"excludedCookieDomains": [5]}"#,
                "features.cookie.settings.excludedCookieDomains[0]"),
        feature("fingerprintingCanvas", #""state": "enabled", "settings": {"aboutBlankEnabled": false}"#,
                "features.fingerprintingCanvas.settings.aboutBlankEnabled"),
        feature("fingerprintingCanvas", #""state": "enabled", "settings": {"aboutBlankSites": [{"domain": 1}]}"#,
                "features.fingerprintingCanvas.settings.aboutBlankSites[0].domain"),
        feature("fingerprintingCanvas", #""state": "enabled", "settings": {"scripts": "a.js"}"#,
                "features.fingerprintingCanvas.settings.scripts"),

        // The user allowlist: a JSON array of strings, our own format; anything else is an error.
        Case(input: .userAllowlist, json: #"{"a.com": true}"#, outcome: .error, path: "(root)"),
        Case(input: .userAllowlist, json: #"["a.com", 5]"#, outcome: .error, path: "[1]"),
    ]

    /// Reads `json` as the case's input: its warnings, or the error.
    static func read(_ input: Input, _ json: String) -> Result<[InputWarning], TrackerDataError> {
        let bytes = Array(json.utf8)
        return Result { () throws(TrackerDataError) -> [InputWarning] in
            switch input {
            case .tds: return try TrackerData(parsing: bytes, file: "tds.json").warnings
            case .privacyConfiguration: return try PrivacyConfiguration(parsing: bytes, file: "config.json").warnings
            case .userAllowlist:
                _ = try UserAllowlist(parsing: bytes, file: "allowlist.json")
                return []
            }
        }
    }

    @Test("the error or warning names the field's JSON path", arguments: cases)
    func wrongType(_ input: Case) {
        switch (Self.read(input.input, input.json), input.outcome) {
        case (.failure(let error), .error):
            guard case .invalidValue(let problem, _) = error else {
                Issue.record("expected a wrong-value error, got \(error)")
                return
            }
            #expect(problem.path.description == input.path, "\(error)")
        case (.success(let warnings), .warning):
            #expect(warnings.count == 1, "\(warnings)")
            #expect(warnings.first?.path?.description == input.path, "\(warnings)")
            #expect(warnings.allSatisfy { $0.file != nil && $0.message.contains("; ") }, "the warning says what was dropped: \(warnings)")
        case (.success(let warnings), .error):
            Issue.record("accepted with warnings \(warnings); expected an error at \(input.path)")
        case (.failure(let error), .warning):
            Issue.record("refused with \(error); expected a warning at \(input.path)")
        }
    }

    @Test("a wrong tracker field drops that field only; a wrong rule drops that rule only")
    func dropsOnlyTheWrongValue() throws {
        let tds = try TrackerData(parsing: Array(#"""
            {"trackers": {"x.com": {"domain": "x.com", "default": "block", "prevalence": "high", "owner": {"name": "X"},
             "rules": [{"rule": "x\\.com/a", "options": "bad"}, {"rule": "x\\.com/b"}]}}, "entities": {}, "domains": {}}
            """#.utf8))
        let tracker = try #require(tds.trackers["x.com"])
        #expect(tracker.defaultAction == .block)
        #expect(tracker.owner?.name == "X")
        #expect(tracker.prevalence == nil)
        #expect(tracker.rules.map(\.rule) == [#"x\.com/b"#])
        #expect(tds.warnings.map { $0.path?.description } == [#"trackers["x.com"].prevalence"#, #"trackers["x.com"].rules[0].options"#])
    }
}

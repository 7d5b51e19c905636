import Testing
import TrackerlessTestSupport
@testable import ContentRuleList

@Suite("Encoding rule lists")
struct RuleListEncodingTests {
    private func text(_ list: RuleList) -> String {
        String(decoding: list.encoded(), as: UTF8.self)
    }

    @Test func keysInFixedOrderAndDefaultsOmitted() {
        let list = RuleList([
            ContentRule(
                trigger: Trigger(
                    urlFilter: #"^https?://([^/]*\.)?t\.com/"#, topURLFilterIsCaseSensitive: true,
                    resourceTypes: [.script, .image], loadTypes: [.thirdParty], requestMethod: .get,
                    condition: .unlessDomain(["*a.com"])),
                action: .block),
            ContentRule(trigger: Trigger(urlFilter: ".*"), action: .cssDisplayNone(selector: #"a[href="x"]"#)),
        ])
        #expect(text(list) == #"""
            [{"trigger":{"url-filter":"^https?://([^/]*\\.)?t\\.com/","top-url-filter-is-case-sensitive":true,"resource-type":["script","image"],"load-type":["third-party"],"request-method":"get","unless-domain":["*a.com"]},"action":{"type":"block"}},{"trigger":{"url-filter":".*"},"action":{"type":"css-display-none","selector":"a[href=\"x\"]"}}]
            """#)
    }

    @Test func activeActions() {
        let list = RuleList([
            ContentRule(
                trigger: Trigger(urlFilter: "a"),
                action: .redirect(.transform(URLTransform(
                    scheme: "https", port: .remove, queryTransform: QueryTransform(
                        removeParameters: ["utm"], addOrReplaceParameters: [.init(key: "k", value: "v", replaceOnly: true)]),
                    fragment: "")))),
            ContentRule(
                trigger: Trigger(urlFilter: "a"),
                action: .modifyHeaders(ModifyHeaders(
                    priority: 3, requestHeaders: [.set(header: "a", value: "1"), .remove(header: "b")]))),
            ContentRule(trigger: Trigger(urlFilter: "a"), action: .notify("n")),
        ])
        #expect(text(list) == #"""
            [{"trigger":{"url-filter":"a"},"action":{"type":"redirect","redirect":{"transform":{"scheme":"https","port":"","query-transform":{"remove-parameters":["utm"],"add-or-replace-parameters":[{"key":"k","value":"v","replace-only":true}]},"fragment":""}}}},{"trigger":{"url-filter":"a"},"action":{"type":"modify-headers","priority":3,"request-headers":[{"operation":"set","header":"a","value":"1"},{"operation":"remove","header":"b"}]}},{"trigger":{"url-filter":"a"},"action":{"type":"notify","notification":"n"}}]
            """#)
    }

    @Test func roundTripOfEveryKeyAndAction() throws {
        let json = """
            [{"trigger":{"url-filter":"x","url-filter-is-case-sensitive":true,"frame-url-filter-is-case-sensitive":true,
              "load-context":["child-frame"],"if-frame-url":["^https://f/"]},"action":{"type":"make-https"}},
             {"trigger":{"url-filter":"x","if-top-url":["a"]},"action":{"type":"ignore-following-rules"}},
             {"trigger":{"url-filter":"x","unless-top-url":["a"]},"action":{"type":"ignore-previous-rules"}},
             {"trigger":{"url-filter":"x","if-domain":["a.com"]},"action":{"type":"block-cookies"}},
             {"trigger":{"url-filter":"x","unless-frame-url":["a"]},"action":{"type":"redirect","redirect":{"url":"https://a.com/"}}},
             {"trigger":{"url-filter":"x"},"action":{"type":"redirect","redirect":{"extension-path":"/a"}}},
             {"trigger":{"url-filter":"x"},"action":{"type":"redirect","redirect":{"regex-substitution":"\\\\1"}}},
             {"trigger":{"url-filter":"x"},"action":{"type":"redirect","redirect":{"transform":{"host":"h","port":"81","path":"/p","query":"?q","username":"u","password":"p"}}}},
             {"trigger":{"url-filter":"x"},"action":{"type":"modify-headers","priority":0,"response-headers":[{"operation":"append","header":"h","value":"v"}]}}]
            """
        let list = try RuleList(parsing: json)
        let encoded = list.encoded()
        #expect(try RuleList(parsing: encoded) == list)
        #expect(try RuleList(parsing: encoded).encoded() == encoded)
    }

    @Test func stringsAreEscapedOnlyWhereJSONRequires() {
        let list = RuleList([ContentRule(trigger: Trigger(urlFilter: "a/b\\\"\u{1}é"), action: .block)])
        #expect(text(list) == #"[{"trigger":{"url-filter":"a/b\\\"\u0001é"},"action":{"type":"block"}}]"#)
    }

    @Test(
        "apple-tds.duckduckgo-rules.json: parse, encode, parse again",
        .enabled(
            if: SharedData.shouldRun("tds/apple-tds.duckduckgo-rules.json"),
            "../shared/data/tds/apple-tds.duckduckgo-rules.json is absent (set TRACKERLESS_REQUIRE_SHARED_DATA=1 to fail instead)"))
    func sharedRuleListRoundTrip() throws {
        let bytes = try #require(SharedData.bytes("tds/apple-tds.duckduckgo-rules.json"))
        let list = try RuleList(parsing: bytes)
        #expect(list.rules.count == 10_843)
        let encoded = list.encoded()
        // The patterns are the same strings, already validated above: skip the slow regex pass.
        let reparsed = try RuleListParser.parse(encoded, validatingPatterns: false).ruleList
        #expect(reparsed == list)
        #expect(reparsed.encoded() == encoded)
        // The shared file is compact too; ours omits nothing it needs.
        #expect(encoded.count <= bytes.count)
    }

    /// The counter measures a long condition array once, by its storage, and adds its bytes to
    /// each rule that holds it: the sizes must still be those of the encoded list, for rules
    /// sharing one array, for another array of as many values, and for short arrays.
    @Test func byteCounterMatchesTheEncodingWithSharedArrays() {
        let shared = (0..<12).map { "site\($0).example" }
        let other = (0..<12).map { "\"quoted\"\($0)\\x.org" }
        var rules: [ContentRule] = []
        for index in 0..<6 {
            rules.append(ContentRule(
                trigger: Trigger(urlFilter: "t\(index)\\.com", condition: .unlessDomain(shared)), action: .block))
            rules.append(ContentRule(
                trigger: Trigger(urlFilter: "u\(index)", condition: .ifTopURL(index.isMultiple(of: 2) ? other : shared)),
                action: .blockCookies))
            rules.append(ContentRule(trigger: Trigger(urlFilter: "v", condition: .ifDomain(["a\(index).com"])), action: .block))
        }
        var counter = RuleByteCounter()
        for end in 1...rules.count {
            let prefix = Array(rules[..<end])
            let counted = RuleByteCounter.listByteCount(ruleBytes: counter.byteCount(of: prefix), ruleCount: end)
            #expect(counted == RuleList(prefix).encoded().count, "first \(end) rules")
        }
    }
}

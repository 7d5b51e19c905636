import ContentRuleList
import Testing

/// What each WebKit target accepts, refuses and ignores, and how it evaluates what it accepts:
/// one list, one target, WebKit's answer.
@Suite("WebKit targets")
struct WebKitTargetTests {
    static func rule(_ trigger: String, _ action: String = #"{"type": "block"}"#) -> String {
        #"[{"trigger": \#(trigger), "action": \#(action)}]"#
    }

    @Test("names, WebKitGTK and WPE releases, Safari releases and Apple's bundle versions map to targets")
    func names() {
        #expect(WebKitTarget(name: "safari-15") == .safari15)
        #expect(WebKitTarget(name: "WebKitGTK-2.44") == .webKitGTK2_44)
        #expect(WebKitTarget(name: "webkitgtk-2.48") == .webKitGTK2_44)
        #expect(WebKitTarget(name: "wpe-2.52.1") == .webKitGTK2_50)
        #expect(WebKitTarget(name: "webkitgtk-2.56") == .webKitGTK2_54)
        #expect(WebKitTarget(name: "webkitgtk-2.42") == nil)
        #expect(WebKitTarget(name: "webkitgtk-2") == nil)
        #expect(WebKitTarget(name: "safari-14") == nil)
        #expect(WebKitTarget(name: "chrome-120") == nil)
        #expect(WebKitTarget.all.allSatisfy { WebKitTarget(name: $0.name) == $0 })
        #expect(WebKitTarget.webKitGTK(major: 2, minor: 49) == .webKitGTK2_44)
        #expect(WebKitTarget.webKitGTK(major: 2, minor: 51) == .webKitGTK2_50)
        #expect(WebKitTarget.safari(major: 19) == .safari18)
        #expect(WebKitTarget.safari(major: 27) == .safari26)
        #expect(WebKitTarget.appleWebKit(bundleVersion: "17612.1.29.41.4") == .safari15)
        #expect(WebKitTarget.appleWebKit(bundleVersion: "8614.1.25.9.10") == .safari16)
        #expect(WebKitTarget.appleWebKit(bundleVersion: "20621.1.15.11.10") == .safari18)
        #expect(WebKitTarget.appleWebKit(bundleVersion: "21622.1.22") == .safari26)
        #expect(WebKitTarget.appleWebKit(bundleVersion: "16611.1.21") == nil)
        #expect(WebKitTarget.appleWebKit(bundleVersion: "x.1") == nil)
        #expect(WebKitTarget.oldest == .safari15)
    }

    @Test("a resource type the target does not know refuses the whole list, in WebKit's words")
    func unknownResourceType() throws {
        let json = Self.rule(#"{"url-filter": "x", "resource-type": ["image", "top-document"]}"#)
        var warnings: [RuleListWarning] = []
        for target in [WebKitTarget.safari15, .safari18, .webKitGTK2_44] {
            #expect {
                try RuleList(parsing: Array(json.utf8), for: target, warnings: &warnings)
            } throws: { error in
                let error = try #require(error as? RuleListError)
                return error.kind == .invalidStringInTriggerFlagsArray && error.ruleIndex == 0
                    && error.message == "Invalid string in the trigger flags array."
                    && (error.detail ?? "").contains("does not know it")
            }
        }
        for target in [WebKitTarget.safari26, .webKitGTK2_50, .webKitGTK2_54, .newest] {
            #expect(try RuleList(parsing: Array(json.utf8), for: target, warnings: &warnings).rules.count == 1)
        }
        #expect(warnings.isEmpty)
        let csp = Self.rule(#"{"url-filter": "x", "resource-type": ["csp-report"]}"#)
        #expect(throws: RuleListError.self) { try RuleList(parsing: Array(csp.utf8), for: .safari16, warnings: &warnings) }
        #expect(try RuleList(parsing: Array(csp.utf8), for: .safari17, warnings: &warnings).rules.count == 1)
    }

    @Test("an action type the target does not know refuses the list")
    func unknownAction() throws {
        let json = Self.rule(#"{"url-filter": "x"}"#, #"{"type": "ignore-following-rules"}"#)
        var warnings: [RuleListWarning] = []
        #expect {
            try RuleList(parsing: Array(json.utf8), for: .webKitGTK2_44, warnings: &warnings)
        } throws: { error in
            (error as? RuleListError)?.kind == .invalidActionType
        }
        #expect(try RuleList(parsing: Array(json.utf8), for: .webKitGTK2_50, warnings: &warnings).rules.count == 1)
    }

    @Test("a trigger key the target does not read is left out of the rule, with a warning naming it")
    func ignoredKeys() throws {
        let json = #"""
            [{"trigger": {"url-filter": "x", "unless-frame-url": ["^https://a\\.example/"]}, "action": {"type": "block"}},
             {"trigger": {"url-filter": "y", "request-method": "post"}, "action": {"type": "block"}},
             {"trigger": {"url-filter": "z", "if-frame-url": ["a"]}, "action": {"type": "block"}}]
            """#
        var warnings: [RuleListWarning] = []
        let old = try RuleList(parsing: Array(json.utf8), for: .webKitGTK2_44, warnings: &warnings)
        #expect(warnings.map(\.ruleIndex) == [0, 1])
        #expect(warnings.map(\.key) == ["unless-frame-url", "request-method"])
        #expect(warnings.first?.description
            == #"rule 0: WebKitGTK 2.44 ignores the trigger key "unless-frame-url": the rule applies without it"#)
        #expect(old.rules[0].trigger.condition == nil)
        #expect(old.rules[1].trigger.requestMethod == nil)
        #expect(old.rules[2].trigger.condition == .ifFrameURL(["a"]))
        // The old WebKit blocks what the rule meant to leave alone.
        let load = Request(url: "https://t.example/x", topURL: "https://a.example/", resourceType: .image)
        #expect(try ReferenceEvaluator(ruleList: old, target: .webKitGTK2_44).actions(for: load).isBlocked)
        #expect(try !ReferenceEvaluator(ruleList: RuleList(parsing: json), target: .newest).actions(for: load).isBlocked)

        warnings = []
        _ = try RuleList(parsing: Array(json.utf8), for: .safari15, warnings: &warnings)
        #expect(warnings.map(\.key) == ["unless-frame-url", "request-method", "if-frame-url"])
        warnings = []
        _ = try RuleList(parsing: Array(json.utf8), for: .newest, warnings: &warnings)
        #expect(warnings.isEmpty)
        // validate(for:) returns them; validateTriggers(for:) refuses a built list that has one.
        #expect(try RuleList(parsing: json).validate(for: .webKitGTK2_44).count == 2)
        #expect(throws: RuleListError.self) { try RuleList(parsing: json).validateTriggers(for: .webKitGTK2_44) }
    }

    @Test("Safari 15 and 16 refuse a list that mixes domain and top-URL conditions; later WebKits accept it")
    func mixedConditions() throws {
        let json = #"""
            [{"trigger": {"url-filter": "x", "if-domain": ["*a.example"]}, "action": {"type": "block"}},
             {"trigger": {"url-filter": "y"}, "action": {"type": "block"}},
             {"trigger": {"url-filter": "z", "unless-top-url": ["b"]}, "action": {"type": "block"}}]
            """#
        var warnings: [RuleListWarning] = []
        for target in [WebKitTarget.safari15, .safari16] {
            #expect {
                try RuleList(parsing: Array(json.utf8), for: target, warnings: &warnings)
            } throws: { error in
                let error = try #require(error as? RuleListError)
                return error.kind == .topURLAndDomainConditions && error.ruleIndex == 2
                    && error.message == "A list cannot have if-domain and unless-domain mixed with if-top-url and unless-top-url"
            }
        }
        for target in [WebKitTarget.safari17, .webKitGTK2_44, .newest] {
            #expect(try RuleList(parsing: Array(json.utf8), for: target, warnings: &warnings).rules.count == 3)
        }
    }

    @Test("third party: by origin in Safari 15, by registrable domain later")
    func thirdParty() throws {
        let list = try RuleList(parsing: Self.rule(#"{"url-filter": "cdn", "load-type": ["third-party"]}"#))
        let sameSite = Request(url: "https://cdn.example.com/a.js", topURL: "https://www.example.com/", resourceType: .script)
        let otherPort = Request(url: "https://www.example.com:8443/cdn.js", topURL: "https://www.example.com/", resourceType: .script)
        let sameOrigin = Request(url: "https://www.example.com/cdn.js", topURL: "https://www.example.com/", resourceType: .script)
        let origin = try ReferenceEvaluator(ruleList: list, target: .safari15)
        let site = try ReferenceEvaluator(ruleList: list, target: .webKitGTK2_44)
        #expect(origin.actions(for: sameSite).isBlocked)
        #expect(origin.actions(for: otherPort).isBlocked)
        #expect(!origin.actions(for: sameOrigin).isBlocked)
        #expect(!site.actions(for: sameSite).isBlocked)
        #expect(!site.actions(for: otherPort).isBlocked)
        #expect(!site.actions(for: sameOrigin).isBlocked)
    }

    @Test("third party in WebKitGTK 2.44: by host under a top-level domain the Public Suffix List does not list")
    func thirdPartyUnlistedSuffix() throws {
        let list = try RuleList(parsing: Self.rule(#"{"url-filter": "cdn", "load-type": ["third-party"]}"#))
        let unlisted = Request(url: "https://cdn.site.example/a.js", topURL: "https://www.site.example/", resourceType: .script)
        let listed = Request(url: "https://cdn.site.com/a.js", topURL: "https://www.site.com/", resourceType: .script)
        let within = Request(url: "https://cdn.www.site.example/a.js", topURL: "https://www.site.example/", resourceType: .script)
        let gtk244 = try ReferenceEvaluator(ruleList: list, target: .webKitGTK2_44)
        let gtk250 = try ReferenceEvaluator(ruleList: list, target: .webKitGTK2_50)
        #expect(gtk244.actions(for: unlisted).isBlocked)
        #expect(!gtk244.actions(for: listed).isBlocked)
        #expect(!gtk244.actions(for: within).isBlocked)
        #expect(!gtk250.actions(for: unlisted).isBlocked)
        #expect(!gtk250.actions(for: listed).isBlocked)
    }

    @Test("if-domain: the page's host in Safari 15 and 16, an unanchored regex over its URL later")
    func domainConditions() throws {
        let list = try RuleList(parsing: Self.rule(#"{"url-filter": "t", "if-domain": ["*news.example"]}"#))
        let onNews = Request(url: "https://t.example/", topURL: "https://www.news.example/", resourceType: .image)
        let mentionsNews = Request(url: "https://t.example/", topURL: "https://shop.example/?r=https://news.example/", resourceType: .image)
        let host = try ReferenceEvaluator(ruleList: list, target: .safari16)
        let regex = try ReferenceEvaluator(ruleList: list, target: .safari17)
        #expect(host.actions(for: onNews).isBlocked)
        #expect(!host.actions(for: mentionsNews).isBlocked)
        #expect(regex.actions(for: onNews).isBlocked)
        #expect(regex.actions(for: mentionsNews).isBlocked)
    }

    @Test("document with load-context says top-document and child-document in every target")
    func documentByContext() throws {
        let top = try RuleList(parsing: Self.rule(#"{"url-filter": "t", "resource-type": ["document"], "load-context": ["top-frame"]}"#))
        let child = try RuleList(parsing: Self.rule(#"{"url-filter": "t", "resource-type": ["document"], "load-context": ["child-frame"]}"#))
        let navigation = Request.mainDocument("https://t.example/")
        let frame = Request(url: "https://t.example/", topURL: "https://news.example/", resourceType: .childDocument)
        for target in [WebKitTarget.safari15, .webKitGTK2_44, .newest] {
            #expect(try ReferenceEvaluator(ruleList: top, target: target).actions(for: navigation).isBlocked)
            #expect(try !ReferenceEvaluator(ruleList: top, target: target).actions(for: frame).isBlocked)
            #expect(try ReferenceEvaluator(ruleList: child, target: target).actions(for: frame).isBlocked)
            #expect(try !ReferenceEvaluator(ruleList: child, target: target).actions(for: navigation).isBlocked)
        }
    }
}

import Testing
@testable import ContentRuleList

// Tests in the manner of WebKit's ContentExtensions tests: a rule list, a load, the actions.

/// A subresource load (an image unless said otherwise) on the page `top`.
private func subresource(
    _ url: String, on top: String, frame: String? = nil, _ type: ResourceType = .image, method: RequestMethod? = nil
) -> Request {
    Request(url: url, topURL: top, frameURL: frame, resourceType: type, method: method)
}

/// The actions one list applies to a load.
private func actions(_ json: String, _ request: Request) throws -> [Action] {
    try ReferenceEvaluator(ruleList: RuleList(parsing: json)).actions(for: request).actions
}

private func blocks(_ json: String, _ request: Request) throws -> Bool {
    try ReferenceEvaluator(ruleList: RuleList(parsing: json)).actions(for: request).isBlocked
}

private func block(_ trigger: String) -> String {
    #"[{"trigger":{\#(trigger)},"action":{"type":"block"}}]"#
}

@Suite("Reference evaluator: WebKit's matching semantics")
struct ReferenceEvaluatorTests {
    @Test func basic() throws {
        let list = block(#""url-filter":"webkit.org""#)
        #expect(try actions(list, .mainDocument("http://webkit.org/")) == [.block])
        #expect(try actions(list, .mainDocument("http://example.com/")) == [])
        // Matching is case-insensitive by default, and the host is canonicalized to lowercase.
        #expect(try blocks(list, .mainDocument("http://WEBKIT.ORG/")))
    }

    @Test func caseSensitiveURLFilterOnlyDistinguishesThePath() throws {
        let list = block(#""url-filter":"Ads","url-filter-is-case-sensitive":true"#)
        #expect(try blocks(list, subresource("http://a.com/Ads.js", on: "http://a.com/")))
        #expect(try !blocks(list, subresource("http://a.com/ads.js", on: "http://a.com/")))
    }

    @Test func caseSensitiveLongPatternsGoThroughThePrefilter() throws {
        let list = block(#""url-filter":"/TrackMe/","url-filter-is-case-sensitive":true"#)
        #expect(try blocks(list, subresource("http://a.com/TrackMe/x.js", on: "http://a.com/")))
        #expect(try !blocks(list, subresource("http://a.com/trackme/x.js", on: "http://a.com/")))
        let insensitive = block(#""url-filter":"/TrackMe/""#)
        #expect(try blocks(insensitive, subresource("http://a.com/TRACKME/x.js", on: "http://a.com/")))
    }

    @Test func notificationsMergeByString() throws {
        let json = """
            [{"trigger":{"url-filter":"a"},"action":{"type":"notify","notification":"one"}},
             {"trigger":{"url-filter":"b"},"action":{"type":"notify","notification":"two"}},
             {"trigger":{"url-filter":"c"},"action":{"type":"notify","notification":"one"}}]
            """
        let result = try ReferenceEvaluator(ruleList: RuleList(parsing: json))
            .actions(for: subresource("http://c.net/abc", on: "http://a.com/"))
        #expect(result.notifications == ["one", "two"])
    }

    @Test func requestFragmentIsNotMatchedButTopFragmentIs() throws {
        #expect(try !blocks(block(#""url-filter":"frag""#), subresource("http://a.com/x.gif#frag", on: "http://a.com/")))
        #expect(try !blocks(block(#""url-filter":"frag""#), .mainDocument("http://a.com/#frag")))
        let ifTop = block(#""url-filter":"x\\.gif","if-top-url":["zzz"]"#)
        #expect(try blocks(ifTop, subresource("http://a.com/x.gif", on: "http://a.com/page#zzz")))
        #expect(try !blocks(ifTop, subresource("http://a.com/x.gif", on: "http://a.com/page")))
    }

    @Test func dataAndInvalidURLsAreNotChecked() throws {
        let evaluator = try ReferenceEvaluator(ruleList: RuleList(parsing: """
            [{"trigger":{"url-filter":".*"},"action":{"type":"block"}},
             {"trigger":{"url-filter":".*"},"action":{"type":"css-display-none","selector":".ad"}}]
            """))
        for url in ["data:image/png;base64,AAAA", "http://exa mple.com/", "not a url"] {
            let result = evaluator.actions(for: subresource(url, on: "http://a.com/"))
            #expect(!result.isChecked, "\(url)")
            #expect(result.actions.isEmpty)
            #expect(result.globalStyleSheetCount == 0)
        }
        #expect(evaluator.actions(for: subresource("http://b.com/", on: "http://a.com/")).isBlocked)
    }

    @Test func loadTypeComparesRegistrableDomains() throws {
        let thirdParty = block(#""url-filter":".*","load-type":["third-party"]"#)
        let firstParty = block(#""url-filter":".*","load-type":["first-party"]"#)
        let top = "http://www.example.com/"
        #expect(try blocks(firstParty, subresource("http://cdn.example.com/x.png", on: top)))
        #expect(try blocks(firstParty, subresource("https://example.com:8443/x.png", on: top)))
        #expect(try blocks(thirdParty, subresource("http://cdn.other.org/x.png", on: top)))
        #expect(try blocks(thirdParty, subresource("http://a.example.co.uk/", on: "http://b.other.co.uk/")))
        #expect(try blocks(firstParty, subresource("http://a.example.co.uk/", on: "http://b.example.co.uk/")))
        #expect(try blocks(thirdParty, subresource("http://notexample.com/", on: top)))
        // A main-frame navigation is checked against itself: always first-party.
        #expect(try blocks(firstParty, Request(url: "http://tracker.net/", topURL: top, resourceType: .topDocument)))
        #expect(try !blocks(thirdParty, Request(url: "http://tracker.net/", topURL: top, resourceType: .topDocument)))
    }

    @Test func ifDomainMatchesTheMainDocumentHost() throws {
        let list = block(#""url-filter":"x\\.png","if-domain":["webkit.org"]"#)
        #expect(try blocks(list, subresource("http://cdn.net/x.png", on: "http://webkit.org/")))
        #expect(try blocks(list, subresource("http://cdn.net/x.png", on: "http://webkit.org:8080/a")))
        #expect(try !blocks(list, subresource("http://cdn.net/x.png", on: "http://bugs.webkit.org/")))
        #expect(try !blocks(list, subresource("http://cdn.net/x.png", on: "http://webkit.organization/")))
        // Domains refer to the main document, never to the resource.
        #expect(try !blocks(list, subresource("http://webkit.org/x.png", on: "http://example.com/")))
        #expect(try !blocks(list, subresource("http://cdn.net/x.png", on: "http://example.com/.webkit.org/in/path")))
        // Userinfo before the host defeats the rewritten regex.
        #expect(try !blocks(list, subresource("http://cdn.net/x.png", on: "http://u@webkit.org/")))
    }

    @Test func starDomainIncludesSubdomains() throws {
        let list = block(#""url-filter":"x\\.png","if-domain":["*webkit.org"]"#)
        #expect(try blocks(list, subresource("http://cdn.net/x.png", on: "http://webkit.org/")))
        #expect(try blocks(list, subresource("http://cdn.net/x.png", on: "http://bugs.webkit.org/")))
        #expect(try blocks(list, subresource("http://cdn.net/x.png", on: "http://a.b.webkit.org/")))
        #expect(try !blocks(list, subresource("http://cdn.net/x.png", on: "http://notwebkit.org/")))
        #expect(try !blocks(list, subresource("http://cdn.net/x.png", on: "http://not_webkit.org/")))
    }

    @Test func domainConditionIsNotAnchored() throws {
        // WebKit quirk: the rewritten regex is searched anywhere in the top URL.
        let list = block(#""url-filter":"x\\.png","if-domain":["webkit.org"]"#)
        #expect(try blocks(list, subresource("http://cdn.net/x.png", on: "http://www.example.com/page?u=http://webkit.org/")))
    }

    @Test func domainsAreNotRegularExpressions() throws {
        let list = block(#""url-filter":"x\\.png","if-domain":["we?bkit.org"]"#)
        #expect(try !blocks(list, subresource("http://cdn.net/x.png", on: "http://webkit.org/")))
        #expect(try !blocks(list, subresource("http://cdn.net/x.png", on: "http://wbkit.org/")))
        #expect(try blocks(list, subresource("http://cdn.net/x.png", on: "http://we?bkit.org/")) == false)
        #expect(Condition.topURLPattern(forDomain: "*a.b") == #"[a-z][a-z+.-]*:\/\/([^/]*\.)*a\.b[:/]"#)
        #expect(Condition.topURLPattern(forDomain: "a+b$") == #"[a-z][a-z+.-]*:\/\/a+b\$[:/]"#)
    }

    @Test func unlessDomain() throws {
        let list = block(#""url-filter":"x\\.png","unless-domain":["*example.com","other.org"]"#)
        #expect(try !blocks(list, subresource("http://cdn.net/x.png", on: "http://www.example.com/")))
        #expect(try !blocks(list, subresource("http://cdn.net/x.png", on: "http://other.org/")))
        #expect(try blocks(list, subresource("http://cdn.net/x.png", on: "http://www.other.org/")))
    }

    @Test func topURLConditionsAndTheirCaseFlag() throws {
        let insensitive = block(#""url-filter":"x","if-top-url":["^http://a\\.com/Page"]"#)
        #expect(try blocks(insensitive, subresource("http://c.net/x", on: "http://a.com/page")))
        let sensitive = block(#""url-filter":"x","if-top-url":["^http://a\\.com/Page"],"top-url-filter-is-case-sensitive":true"#)
        #expect(try !blocks(sensitive, subresource("http://c.net/x", on: "http://a.com/page")))
        #expect(try blocks(sensitive, subresource("http://c.net/x", on: "http://a.com/Page")))
        let unless = block(#""url-filter":"x","unless-top-url":[".*"]"#)
        #expect(try !blocks(unless, subresource("http://c.net/x", on: "http://a.com/")))
        let always = block(#""url-filter":"x","if-top-url":[".*"]"#)
        #expect(try blocks(always, subresource("http://c.net/x", on: "http://a.com/")))
    }

    @Test func frameURLConditions() throws {
        let list = block(#""url-filter":"x\\.png","if-frame-url":["^http://frame\\.example\\.net/"]"#)
        let top = "http://page.example.com/"
        #expect(try blocks(list, subresource("http://c.net/x.png", on: top, frame: "http://frame.example.net/f.html")))
        #expect(try !blocks(list, subresource("http://c.net/x.png", on: top)))
        // For loads of the main frame the frame URL is the top URL.
        #expect(try blocks(list, subresource("http://c.net/x.png", on: "http://frame.example.net/")))
        let unless = block(#""url-filter":"x\\.png","unless-frame-url":["FRAME"],"frame-url-filter-is-case-sensitive":true"#)
        #expect(try blocks(unless, subresource("http://c.net/x.png", on: top, frame: "http://frame.example.net/")))
        #expect(try !blocks(unless, subresource("http://c.net/x.png", on: top, frame: "http://a.net/FRAME")))
    }

    /// WebKitGTK 2.50.6 (EvaluatorAgreementTests pins it): a navigation matches frame conditions
    /// against the document its frame leaves, not against its own URL or its parent's.
    @Test func aNavigationSeesTheDocumentItsFrameLeaves() throws {
        let blank = block(#""url-filter":"ad","if-frame-url":["^about:blank$"]"#)
        let own = block(#""url-filter":"ad","if-frame-url":["^http://c\\.net/"]"#)
        let parent = block(#""url-filter":"ad","if-frame-url":["^http://p\\.net/"]"#)
        let left = block(#""url-filter":"ad","if-frame-url":["^http://old\\.net/"]"#)
        let unlessBlank = block(#""url-filter":"ad","unless-frame-url":["about:blank"]"#)
        let top = "http://a.com/"
        // A new iframe's first load: its initial about:blank document, whatever its parent.
        let first = subresource("http://c.net/ad", on: top, .childDocument)
        #expect(try blocks(blank, first))
        #expect(try !blocks(own, first))
        #expect(try !blocks(unlessBlank, first))
        // The same iframe navigating again: the document it shows now.
        let again = subresource("http://c.net/ad", on: top, frame: "http://old.net/f", .childDocument)
        #expect(try blocks(left, again))
        #expect(try !blocks(blank, again))
        #expect(try !blocks(own, again))
        #expect(try !blocks(parent, again))
        // A main-frame navigation in a new view: the URL itself; leaving a page: that page.
        #expect(try blocks(own, .mainDocument("http://c.net/ad")))
        #expect(try !blocks(blank, .mainDocument("http://c.net/ad")))
        let leaving = Request(url: "http://c.net/ad", topURL: "http://c.net/ad", frameURL: "http://old.net/", resourceType: .topDocument)
        #expect(try blocks(left, leaving))
        #expect(try !blocks(own, leaving))
    }

    @Test func resourceTypes() throws {
        let images = block(#""url-filter":"x","resource-type":["image"]"#)
        #expect(try blocks(images, subresource("http://c.net/x", on: "http://a.com/", .image)))
        #expect(try !blocks(images, subresource("http://c.net/x", on: "http://a.com/", .script)))
        let documents = block(#""url-filter":"x","resource-type":["document"]"#)
        #expect(try blocks(documents, .mainDocument("http://c.net/x")))
        #expect(try blocks(documents, subresource("http://c.net/x", on: "http://a.com/", .childDocument)))
        #expect(try !blocks(documents, subresource("http://c.net/x", on: "http://a.com/", .popup)))
        let top = block(#""url-filter":"x","resource-type":["top-document"]"#)
        #expect(try blocks(top, .mainDocument("http://c.net/x")))
        #expect(try !blocks(top, subresource("http://c.net/x", on: "http://a.com/", .childDocument)))
        let other = block(#""url-filter":"x","resource-type":["other"]"#)
        for type: ResourceType in [.other, .ping, .cspReport] {
            #expect(try blocks(other, subresource("http://c.net/x", on: "http://a.com/", type)), "\(type)")
        }
        #expect(try !blocks(other, subresource("http://c.net/x", on: "http://a.com/", .fetch)))
        let raw = block(#""url-filter":"x","resource-type":["raw"]"#)
        for type: ResourceType in [.fetch, .websocket, .other, .ping] {
            #expect(try blocks(raw, subresource("http://c.net/x", on: "http://a.com/", type)), "\(type)")
        }
        #expect(try !blocks(raw, subresource("http://c.net/x", on: "http://a.com/", .cspReport)))
        let several = block(#""url-filter":"x","resource-type":["font","media"],"load-type":["third-party"]"#)
        #expect(try blocks(several, subresource("http://c.net/x", on: "http://a.com/", .media)))
        #expect(try !blocks(several, subresource("http://a.com/x", on: "http://a.com/", .media)))
    }

    @Test func loadContext() throws {
        let child = block(#""url-filter":"x","load-context":["child-frame"]"#)
        let top = block(#""url-filter":"x","load-context":["top-frame"]"#)
        #expect(try blocks(top, subresource("http://c.net/x", on: "http://a.com/")))
        #expect(try !blocks(child, subresource("http://c.net/x", on: "http://a.com/")))
        #expect(try blocks(child, subresource("http://c.net/x", on: "http://a.com/", frame: "http://f.com/")))
        // A frame's navigation is issued by the frame itself.
        #expect(try blocks(child, subresource("http://c.net/x", on: "http://a.com/", .childDocument)))
        #expect(try blocks(top, .mainDocument("http://c.net/x")))
    }

    @Test func requestMethodIsTheDocumentsMethod() throws {
        for method in RequestMethod.allCases {
            let list = block(#""url-filter":"x","request-method":"\#(method.rawValue)""#)
            #expect(try blocks(list, subresource("http://c.net/x", on: "http://a.com/", method: method)))
            let other: RequestMethod = method == .get ? .post : .get
            #expect(try !blocks(list, subresource("http://c.net/x", on: "http://a.com/", method: other)))
        }
        // No method given: the document was loaded with GET.
        #expect(try blocks(block(#""url-filter":"x","request-method":"get""#), subresource("http://c.net/x", on: "http://a.com/")))
    }

    @Test func requestMethodWithAConditionQuirk() throws {
        // WebKit bug: with a request method, an if- condition never holds and an unless- one always does.
        let ifTop = block(#""url-filter":"x","request-method":"get","if-top-url":[".*"]"#)
        #expect(try !blocks(ifTop, subresource("http://c.net/x", on: "http://a.com/")))
        let unlessDomain = block(#""url-filter":"x","request-method":"get","unless-domain":["a.com"]"#)
        #expect(try blocks(unlessDomain, subresource("http://c.net/x", on: "http://a.com/")))
    }

    @Test func ignorePreviousRules() throws {
        let json = """
            [{"trigger":{"url-filter":"ads"},"action":{"type":"block"}},
             {"trigger":{"url-filter":"ads"},"action":{"type":"block-cookies"}},
             {"trigger":{"url-filter":"good","resource-type":["image"]},"action":{"type":"ignore-previous-rules"}},
             {"trigger":{"url-filter":"ads"},"action":{"type":"notify","notification":"after"}}]
            """
        let evaluator = try ReferenceEvaluator(ruleList: RuleList(parsing: json))
        let image = evaluator.actions(for: subresource("http://c.net/ads/good.png", on: "http://a.com/"))
        #expect(image.actions == [.notify("after")])
        #expect(image.lists[0].sawIgnorePreviousRules)
        // The exception is only as specific as its trigger: scripts are still blocked.
        let script = evaluator.actions(for: subresource("http://c.net/ads/good.js", on: "http://a.com/", .script))
        #expect(script.actions == [.block, .blockCookies, .notify("after")])
        #expect(!script.lists[0].sawIgnorePreviousRules)
    }

    @Test func ignoreFollowingRules() throws {
        let json = """
            [{"trigger":{"url-filter":"ads"},"action":{"type":"block-cookies"}},
             {"trigger":{"url-filter":"stop"},"action":{"type":"ignore-following-rules"}},
             {"trigger":{"url-filter":"ads"},"action":{"type":"block"}},
             {"trigger":{"url-filter":"ads"},"action":{"type":"ignore-previous-rules"}}]
            """
        #expect(try actions(json, subresource("http://c.net/ads", on: "http://a.com/")) == [])
        // Everything after the first ignore-following-rules is cut, including ignore-previous-rules.
        #expect(try actions(json, subresource("http://c.net/ads/stop", on: "http://a.com/")) == [.blockCookies])
    }

    @Test func identicalActionsAreAppliedOnce() throws {
        let json = """
            [{"trigger":{"url-filter":"a"},"action":{"type":"block"}},
             {"trigger":{"url-filter":"b"},"action":{"type":"block"}},
             {"trigger":{"url-filter":"c","resource-type":["image"]},"action":{"type":"block"}},
             {"trigger":{"url-filter":"a"},"action":{"type":"notify","notification":"n"}},
             {"trigger":{"url-filter":"b"},"action":{"type":"notify","notification":"n"}}]
            """
        #expect(try actions(json, subresource("http://c.net/abc", on: "http://a.com/")) == [.block, .block, .notify("n")])
    }

    @Test func cssSelectorsOfIdenticalTriggersAreMerged() throws {
        let json = """
            [{"trigger":{"url-filter":"a"},"action":{"type":"css-display-none","selector":".one"}},
             {"trigger":{"url-filter":"a"},"action":{"type":"block-cookies"}},
             {"trigger":{"url-filter":"a"},"action":{"type":"css-display-none","selector":".two"}},
             {"trigger":{"url-filter":"b"},"action":{"type":"css-display-none","selector":".three"}}]
            """
        // Merged css actions are placed at the end of their segment, after block-cookies.
        #expect(try actions(json, subresource("http://c.net/ab", on: "http://a.com/"))
            == [.blockCookies, .cssDisplayNone(selector: ".one,.two"), .cssDisplayNone(selector: ".three")])
    }

    @Test func globalStyleSheet() throws {
        let json = """
            [{"trigger":{"url-filter":".*"},"action":{"type":"css-display-none","selector":".ad"}},
             {"trigger":{"url-filter":".*","resource-type":["image"]},"action":{"type":"css-display-none","selector":".img"}},
             {"trigger":{"url-filter":"^http://exception\\\\.com/","resource-type":["top-document"]},"action":{"type":"ignore-previous-rules"}},
             {"trigger":{"url-filter":".*"},"action":{"type":"css-display-none","selector":".late"}}]
            """
        let evaluator = try ReferenceEvaluator(ruleList: RuleList(parsing: json))
        let page = evaluator.actions(for: .mainDocument("http://a.com/"))
        #expect(page.lists[0].globalStyleSheetSelectors == [".ad"])
        #expect(page.actions == [.cssDisplayNone(selector: ".late")])
        #expect(page.globalStyleSheetCount == 1)
        let exception = evaluator.actions(for: .mainDocument("http://exception.com/"))
        #expect(exception.lists[0].sawIgnorePreviousRules)
        #expect(exception.globalStyleSheetCount == 0)
        #expect(exception.hiddenSelectors == [".late"])
        // A later subresource load of that page brings the global sheet back (WebKit bug 167423).
        let image = evaluator.actions(for: subresource("http://exception.com/i.png", on: "http://exception.com/"))
        #expect(image.hiddenSelectors == [".img", ".late", ".ad"])
    }

    @Test func onlyFlaglessConditionlessUniversalCSSGoesToTheGlobalSheet() throws {
        let json = """
            [{"trigger":{"url-filter":".*"},"action":{"type":"css-display-none","selector":".global"}},
             {"trigger":{"url-filter":"a*","resource-type":[]},"action":{"type":"css-display-none","selector":".empty-flags"}},
             {"trigger":{"url-filter":".*","if-domain":["a.com"]},"action":{"type":"css-display-none","selector":".on-a"}},
             {"trigger":{"url-filter":".*","load-type":["third-party"]},"action":{"type":"css-display-none","selector":".third"}},
             {"trigger":{"url-filter":"x"},"action":{"type":"css-display-none","selector":".x"}}]
            """
        let evaluator = try ReferenceEvaluator(ruleList: RuleList(parsing: json))
        let onA = evaluator.actions(for: subresource("http://c.net/x", on: "http://a.com/"))
        #expect(onA.lists[0].globalStyleSheetSelectors == [".global", ".empty-flags"])
        #expect(onA.actions == [
            .cssDisplayNone(selector: ".on-a"), .cssDisplayNone(selector: ".third"), .cssDisplayNone(selector: ".x"),
        ])
        let firstParty = evaluator.actions(for: subresource("http://b.com/y", on: "http://b.com/"))
        #expect(firstParty.actions == [])
        #expect(firstParty.hiddenSelectors == [".global", ".empty-flags"])
    }

    @Test func multipleListsAreIndependent() throws {
        let blocking = try RuleList(parsing: block(#""url-filter":"ads""#))
        let exception = try RuleList(parsing: """
            [{"trigger":{"url-filter":".*"},"action":{"type":"css-display-none","selector":".x"}},
             {"trigger":{"url-filter":"ads"},"action":{"type":"ignore-previous-rules"}}]
            """)
        let evaluator = try ReferenceEvaluator(ruleLists: [blocking, exception])
        let result = evaluator.actions(for: subresource("http://c.net/ads", on: "http://a.com/"))
        // The exception only cancels rules of its own list.
        #expect(result.isBlocked)
        #expect(result.lists.map(\.sawIgnorePreviousRules) == [false, true])
        #expect(result.globalStyleSheetCount == 0)
        #expect(evaluator.actions(for: subresource("http://c.net/x", on: "http://a.com/")).globalStyleSheetCount == 1)
    }

    @Test func makeHTTPSOnlyUpgradesDefaultPorts() throws {
        let evaluator = try ReferenceEvaluator(ruleList: RuleList(parsing: """
            [{"trigger":{"url-filter":".*"},"action":{"type":"make-https"}}]
            """))
        #expect(evaluator.actions(for: subresource("http://c.net/", on: "http://a.com/")).upgradesToHTTPS)
        #expect(evaluator.actions(for: subresource("ws://c.net:80/", on: "http://a.com/")).upgradesToHTTPS)
        #expect(!evaluator.actions(for: subresource("http://c.net:8080/", on: "http://a.com/")).upgradesToHTTPS)
        #expect(!evaluator.actions(for: subresource("https://c.net/", on: "http://a.com/")).upgradesToHTTPS)
        #expect(evaluator.actions(for: subresource("https://c.net/", on: "http://a.com/")).actions == [.makeHTTPS])
    }

    @Test func identicalRedirectAfterAnIgnoreRuleIsStillCancelled() throws {
        // WebKit quirk: redirect actions are deduplicated across ignore rules, so the second
        // redirect shares the location of the first, which sits before the ignore-previous-rules.
        let json = """
            [{"trigger":{"url-filter":"a"},"action":{"type":"redirect","redirect":{"url":"https://x.com/"}}},
             {"trigger":{"url-filter":"a"},"action":{"type":"ignore-previous-rules"}},
             {"trigger":{"url-filter":"a"},"action":{"type":"redirect","redirect":{"url":"https://x.com/"}}},
             {"trigger":{"url-filter":"a"},"action":{"type":"notify","notification":"kept"}}]
            """
        #expect(try actions(json, subresource("http://c.net/a", on: "http://a.com/")) == [.notify("kept")])
    }

    @Test func regexErrorsOfListsBuiltInCode() {
        #expect(throws: RuleListError.self) {
            try ReferenceEvaluator(ruleList: RuleList([ContentRule(trigger: Trigger(urlFilter: "a|b"), action: .block)]))
        }
    }

    @Test func literalPrefilterKeepsOnlyRequiredRuns() {
        func runs(_ pattern: String) -> [String] {
            LiteralPrefilter.requiredRuns(in: pattern).map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(runs(#"^[^:]+:\/\/+([^:\/]+\.)?ctctcdn\.com[:\/]"#) == ["://", "ctctcdn.com"])
        #expect(runs("ab?cd") == ["a", "cd"])
        #expect(runs("abc+d") == ["abc", "d"])
        #expect(runs("Ads*x") == ["ad", "x"])
        #expect(runs("a{2}bcd") == [])
        #expect(runs(#"a\dbcd"#) == ["a", "bcd"])
        #expect(runs("(foo)bar.baz$") == ["bar", "baz"])
    }
}

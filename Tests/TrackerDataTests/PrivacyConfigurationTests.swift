import Testing
import TrackerDataKit
import TrackerlessCore

@Suite("PrivacyConfiguration")
struct PrivacyConfigurationTests {
    static let example = """
        {
          "version": 1700000000000,
          "readme": "example",
          "features": {
            "contentBlocking": {"state": "enabled", "exceptions": [{"domain": "Broken.example", "reason": "breakage"}],
                                "minSupportedVersion": "7.0", "hash": "h1"},
            "gpc": {"state": "internal"},
            "trackerAllowlist": {"state": "enabled", "settings": {"allowlistedTrackers": {
              "cdn.example": {"rules": [{"rule": "cdn.example/widget.js", "domains": ["<all>"], "reason": "widget"},
                                        {"rule": 7, "domains": ["<all>"]}]}
            }}}
          },
          "unprotectedTemporary": [{"domain": "temp.example", "reason": "x"}]
        }
        """

    @Test("features, states, exceptions and settings are read")
    func reading() throws {
        let config = try PrivacyConfiguration(parsing: Array(Self.example.utf8), file: "config.json")
        #expect(config.version == 1_700_000_000_000)
        #expect(config.readme == "example")
        #expect(config.features["contentBlocking"]?.exceptions == [.init(domain: "broken.example", reason: "breakage")])
        #expect(config.features["contentBlocking"]?.minSupportedVersion == .string("7.0"))
        #expect(config.features["contentBlocking"]?.hash == "h1")
        #expect(config.features["gpc"]?.state == .other("internal"))
        #expect(config.unprotectedTemporary == [.init(domain: "temp.example", reason: "x")])
        #expect(config.trackerAllowlist.entries.first?.rules == [.init(rule: "cdn.example/widget.js", domains: ["<all>"], reason: "widget")])
        #expect(config.warnings.map(\.description) == [
            #"config.json: features.trackerAllowlist.settings.allowlistedTrackers["cdn.example"].rules[1].rule: expected a non-empty string; rule dropped"#
        ])
    }

    @Test("a feature is on unless disabled, missing, excepted or temporarily unprotected")
    func enabled() throws {
        let config = try PrivacyConfiguration(parsing: Array(Self.example.utf8))
        #expect(config.isFeatureEnabled("contentBlocking", forSiteHost: "shop.example"))
        #expect(!config.isFeatureEnabled("contentBlocking", forSiteHost: "a.broken.example"))
        #expect(config.isFeatureEnabled("contentBlocking", forSiteHost: "notbroken.example"))
        #expect(!config.isFeatureEnabled("contentBlocking", forSiteHost: "temp.example"))
        #expect(!config.isFeatureEnabled("gpc", forSiteHost: "shop.example"))
        #expect(!config.isFeatureEnabled("missing", forSiteHost: "shop.example"))
    }

    @Test("the sites where tracker blocking is off, for the rule builder")
    func contentBlockingExceptions() throws {
        let config = try PrivacyConfiguration(parsing: Array(Self.example.utf8))
        #expect(config.isContentBlockingEnabled)
        #expect(config.contentBlockingExceptionDomains == ["broken.example", "temp.example"])
    }

    @Test("internationalized exception domains are compared in Punycode")
    func punycode() throws {
        let json = #"{"features": {"contentBlocking": {"state": "enabled", "exceptions": [{"domain": "Bücher.example"}]}}}"#
        let config = try PrivacyConfiguration(parsing: Array(json.utf8))
        #expect(config.contentBlocking?.exceptions.first?.domain == "xn--bcher-kva.example")
        let site = try #require(CanonicalURL("https://www.bücher.example/"))
        #expect(!config.isFeatureEnabled("contentBlocking", forTopURL: site))
    }

    @Test("wrong structure is dropped, as DuckDuckGo's clients drop it, with a warning naming the path")
    func wrongTypes() throws {
        let cases: [(String, String)] = [
            (#"{"features": {"contentBlocking": {"state": 1}}}"#,
             "config.json: features.contentBlocking.state: expected a string, found a number; the feature is ignored"),
            (#"{"features": {"contentBlocking": {}}}"#,
             #"config.json: features.contentBlocking: missing required member "state"; the feature is ignored"#),
            (#"{"unprotectedTemporary": [{"domain": "a.com"}, "b.com"]}"#,
             "config.json: unprotectedTemporary[1]: expected an object, found a string; the entry is dropped"),
            (#"{"features": {"gpc": {"state": "enabled", "exceptions": [{"reason": "r"}]}}}"#,
             #"config.json: features.gpc.exceptions[0]: missing required member "domain"; the entry is dropped"#),
        ]
        for (json, message) in cases {
            let config = try PrivacyConfiguration(parsing: Array(json.utf8), file: "config.json")
            #expect(config.warnings.map(\.description) == [message])
        }
        let kept = try PrivacyConfiguration(parsing: Array(#"{"unprotectedTemporary": [{"domain": "a.com"}, "b.com"]}"#.utf8))
        #expect(kept.unprotectedTemporary == [.init(domain: "a.com")], "the other entries stay")
        #expect(throws: TrackerDataError.self) { try PrivacyConfiguration(parsing: Array("[]".utf8)) }
    }

    @Test("user allowlist: a JSON array of domains, each covering its host with and without www. and no other subdomain")
    func userAllowlist() throws {
        let allowlist = try UserAllowlist(parsing: Array(#"["Example.com", "www.b.example", "www.www.c.example"]"#.utf8))
        #expect(allowlist.domains == ["example.com", "b.example", "www.c.example"])
        #expect(allowlist.contains(host: "example.com"))
        #expect(allowlist.contains(host: "www.example.com"))
        #expect(allowlist.domain(covering: "WWW.Example.com.") == "example.com")
        #expect(!allowlist.contains(host: "shop.example.com"))
        #expect(allowlist.contains(host: "b.example") && allowlist.contains(host: "www.b.example"))
        #expect(allowlist.contains(host: "www.c.example") && allowlist.contains(host: "www.www.c.example"))
        #expect(!allowlist.contains(host: "c.example"))
        for domain in allowlist.domains { #expect(allowlist.domain(covering: domain) == domain) }
        #expect(allowlist.hosts == ["b.example", "example.com", "www.b.example", "www.c.example", "www.example.com", "www.www.c.example"])
        #expect(throws: TrackerDataError.self) { try UserAllowlist(parsing: Array(#"["a.com", 1]"#.utf8)) }
        #expect(throws: TrackerDataError.self) { try UserAllowlist(parsing: Array(#"["a.com""#.utf8)) }
    }

    @Test("request-blocklist rule patterns")
    func requestBlocklistRules() throws {
        let rule = try #require(RequestBlocklist.Rule(rule: "example.com:8080/a/*/b", domains: ["<all>"]))
        #expect(rule.host == "example.com")
        #expect(rule.port == 8080)
        #expect(rule.pathPattern == "/a/*/b")
        #expect(rule.matchesRequest(try #require(CanonicalURL("https://x.example.com:8080/a/1/2/b/c?d"))))
        #expect(!rule.matchesRequest(try #require(CanonicalURL("https://example.com/a/1/b"))))
        #expect(!rule.matchesRequest(try #require(CanonicalURL("https://example.com:8080/A/1/b"))))
        #expect(RequestBlocklist.Rule(rule: "||example.com^", domains: ["<all>"]) == nil)
        #expect(RequestBlocklist.Rule(rule: "example.com:x/a", domains: ["<all>"]) == nil)
        #expect(RequestBlocklist.Rule(rule: "/path", domains: ["<all>"]) == nil)
    }
}

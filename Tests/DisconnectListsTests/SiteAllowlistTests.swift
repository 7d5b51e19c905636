import ContentRuleList
import DisconnectLists
import Testing

@Suite("Site allowlist")
struct SiteAllowlistTests {
    @Test("entries are normalized like Firefox's exceptions: lowercase, no scheme, www., port or path")
    func normalization() {
        let allowlist = SiteAllowlist([
            "https://WWW.Example.com/page?q=1", "example.com", " shop.test:8080/ ", "", "http://", "www.other.test",
        ])
        #expect(allowlist.sites == ["example.com", "other.test", "shop.test"])
    }

    @Test("pages of an allowlisted site and its subdomains get no lists; others get the level's")
    func blocklists() {
        let allowlist = SiteAllowlist(["example.com"])
        #expect(allowlist.blocklists(for: .strict, topURL: "https://news.example.com/a").isEmpty)
        #expect(allowlist.blocklists(for: .strict, topURL: "https://example.com/").isEmpty)
        #expect(allowlist.blocklists(for: .strict, topURL: "https://notexample.com/") == ProtectionLevel.strict.blocklists)
        #expect(allowlist.blocklists(for: .standard, topURL: "https://example.com.evil.net/") == ProtectionLevel.standard.blocklists)
    }

    @Test("Firefox's in-list form is one ignore-previous-rules rule with if-domain, in real JSON")
    func ignoreRule() throws {
        #expect(SiteAllowlist([]).ignoreRule == nil)
        let rule = try #require(SiteAllowlist(["b.test", "a.test"]).ignoreRule)
        let json = String(decoding: RuleList([rule]).encoded(), as: UTF8.self)
        #expect(json == #"[{"trigger":{"url-filter":".*","if-domain":["*a.test","*b.test"]},"action":{"type":"ignore-previous-rules"}}]"#)
    }
}

import Testing
import TrackerlessCore

@Suite("PublicSuffixList")
struct PublicSuffixListTests {
    /// The Public Suffix List's own test vectors (publicsuffix.org/list/test.txt, `checkPublicSuffix`),
    /// with IDN results in punycode since the API returns ASCII hosts.
    static let officialVectors: [(String, String?)] = [
        // Mixed case.
        ("COM", nil), ("example.COM", "example.com"), ("WwW.example.COM", "example.com"),
        // Leading dot.
        (".com", nil), (".example", nil), (".example.com", nil), (".example.example", nil),
        // Unlisted TLD.
        ("example", nil), ("example.example", "example.example"), ("b.example.example", "example.example"),
        ("a.b.example.example", "example.example"),
        // TLD with only 1 rule.
        ("biz", nil), ("domain.biz", "domain.biz"), ("b.domain.biz", "domain.biz"), ("a.b.domain.biz", "domain.biz"),
        // TLD with some 2-level rules.
        ("com", nil), ("example.com", "example.com"), ("b.example.com", "example.com"),
        ("a.b.example.com", "example.com"), ("uk.com", nil), ("example.uk.com", "example.uk.com"),
        ("b.example.uk.com", "example.uk.com"), ("a.b.example.uk.com", "example.uk.com"), ("test.ac", "test.ac"),
        // TLD with only 1 (wildcard) rule.
        ("mm", nil), ("c.mm", nil), ("b.c.mm", "b.c.mm"), ("a.b.c.mm", "b.c.mm"),
        // More complex TLD.
        ("jp", nil), ("test.jp", "test.jp"), ("www.test.jp", "test.jp"), ("ac.jp", nil),
        ("test.ac.jp", "test.ac.jp"), ("www.test.ac.jp", "test.ac.jp"), ("kyoto.jp", nil),
        ("test.kyoto.jp", "test.kyoto.jp"), ("ide.kyoto.jp", nil), ("b.ide.kyoto.jp", "b.ide.kyoto.jp"),
        ("a.b.ide.kyoto.jp", "b.ide.kyoto.jp"), ("c.kobe.jp", nil), ("b.c.kobe.jp", "b.c.kobe.jp"),
        ("a.b.c.kobe.jp", "b.c.kobe.jp"), ("city.kobe.jp", "city.kobe.jp"), ("www.city.kobe.jp", "city.kobe.jp"),
        // TLD with a wildcard rule and exceptions.
        ("ck", nil), ("test.ck", nil), ("b.test.ck", "b.test.ck"), ("a.b.test.ck", "b.test.ck"),
        ("www.ck", "www.ck"), ("www.www.ck", "www.ck"),
        // US K12.
        ("us", nil), ("test.us", "test.us"), ("www.test.us", "test.us"), ("ak.us", nil),
        ("test.ak.us", "test.ak.us"), ("www.test.ak.us", "test.ak.us"), ("k12.ak.us", nil),
        ("test.k12.ak.us", "test.k12.ak.us"), ("www.test.k12.ak.us", "test.k12.ak.us"),
        // IDN labels.
        ("食狮.com.cn", "xn--85x722f.com.cn"), ("食狮.公司.cn", "xn--85x722f.xn--55qx5d.cn"),
        ("www.食狮.公司.cn", "xn--85x722f.xn--55qx5d.cn"), ("shishi.公司.cn", "shishi.xn--55qx5d.cn"),
        ("公司.cn", nil), ("食狮.中国", "xn--85x722f.xn--fiqs8s"), ("www.食狮.中国", "xn--85x722f.xn--fiqs8s"),
        ("shishi.中国", "shishi.xn--fiqs8s"), ("中国", nil),
        // Same as above, but punycoded.
        ("xn--85x722f.com.cn", "xn--85x722f.com.cn"), ("xn--85x722f.xn--55qx5d.cn", "xn--85x722f.xn--55qx5d.cn"),
        ("www.xn--85x722f.xn--55qx5d.cn", "xn--85x722f.xn--55qx5d.cn"), ("shishi.xn--55qx5d.cn", "shishi.xn--55qx5d.cn"),
        ("xn--55qx5d.cn", nil), ("xn--85x722f.xn--fiqs8s", "xn--85x722f.xn--fiqs8s"),
        ("www.xn--85x722f.xn--fiqs8s", "xn--85x722f.xn--fiqs8s"), ("shishi.xn--fiqs8s", "shishi.xn--fiqs8s"),
        ("xn--fiqs8s", nil),
    ]

    @Test("official test vectors", arguments: officialVectors)
    func officialVector(host: String, registrableDomain: String?) {
        #expect(PublicSuffixList.bundled.registrableDomain(of: host) == registrableDomain)
    }

    @Test("registrable domains", arguments: [
        ("www.example.co.uk", "example.co.uk"),
        ("example.co.uk", "example.co.uk"),
        ("co.uk", nil),
        ("a.b.example.ck", "b.example.ck"),
        ("www.ck", "www.ck"),
        ("tracker.github.io", "tracker.github.io"),
        ("a.tracker.github.io", "tracker.github.io"),
        ("github.io", nil),
        ("cdn.example.com.", "example.com."),
        ("127.0.0.1", nil), ("10.0.0.256", nil), ("0x7f.1", nil), ("[::1]", nil), ("::1", nil),
        ("", nil), (".", nil), ("a..example.com", nil),
        ("xn--bcher-kva.de", "xn--bcher-kva.de"), ("www.bücher.de", "xn--bcher-kva.de"),
        ("s3.amazonaws.com", nil), ("bucket.s3.amazonaws.com", "bucket.s3.amazonaws.com"),
        ("1.example", "1.example"), ("example.123a", "example.123a"),
    ] as [(String, String?)])
    func registrableDomain(host: String, expected: String?) {
        #expect(PublicSuffixList.bundled.registrableDomain(of: host) == expected)
    }

    @Test("public suffixes, with and without the private section")
    func publicSuffixes() {
        let list = PublicSuffixList.bundled
        #expect(list.publicSuffix(of: "www.example.co.uk") == "co.uk")
        #expect(list.publicSuffix(of: "co.uk") == "co.uk")
        #expect(list.publicSuffix(of: "example.unknowntld") == "unknowntld")
        #expect(list.publicSuffix(of: "a.b.example.ck") == "example.ck")
        #expect(list.publicSuffix(of: "www.ck") == "ck")
        #expect(list.publicSuffix(of: "x.tracker.github.io") == "github.io")
        #expect(list.publicSuffix(of: "x.tracker.github.io", includingPrivateDomains: false) == "io")
        #expect(list.registrableDomain(of: "x.tracker.github.io", includingPrivateDomains: false) == "github.io")
        #expect(list.publicSuffix(of: "192.168.0.1") == nil)
    }

    @Test("parses the list's text format: comments, sections, wildcards, exceptions, IDN")
    func parsesTextFormat() {
        let list = PublicSuffixList(parsing: """
            // ===BEGIN ICANN DOMAINS===
            // a comment
            com
            *.wild
            !exempt.wild
            公司.cn   extra words are ignored
            // ===END ICANN DOMAINS===
            // ===BEGIN PRIVATE DOMAINS===
            hosted.com
            // ===END PRIVATE DOMAINS===
            """)
        #expect(list.registrableDomain(of: "a.b.example.com") == "example.com")
        #expect(list.registrableDomain(of: "a.user.hosted.com") == "user.hosted.com")
        #expect(list.registrableDomain(of: "a.user.hosted.com", includingPrivateDomains: false) == "hosted.com")
        #expect(list.registrableDomain(of: "x.y.wild") == "x.y.wild")
        #expect(list.registrableDomain(of: "y.wild") == nil)
        #expect(list.registrableDomain(of: "a.exempt.wild") == "exempt.wild")
        #expect(list.registrableDomain(of: "a.xn--55qx5d.cn") == "a.xn--55qx5d.cn")
        #expect(list.publicSuffix(of: "zz") == "zz")
    }
}

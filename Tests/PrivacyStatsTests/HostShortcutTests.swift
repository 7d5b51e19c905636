@testable import PrivacyStatsKit
import Testing
import TrackerDataKit
import TrackerlessCore

/// The classifier finds a request's host by its raw authority (``RequestClassifier/authorityRange(in:)``)
/// and caches hosts per authority: the host, and whether the URL parses, must be what parsing
/// the whole URL gives, whatever comes before and after the authority.
@Suite("Host shortcut: the cached host of an authority is the parsed URL's")
struct HostShortcutTests {
    static let authorities = [
        "www.example.com", "WWW.Example.COM", "example.com:80", "example.com:443", "example.com:8080",
        "example.com:", "example.com:99999", "example.com:8a", "user:pass@example.com", "user@", "@example.com",
        "a@b@example.com", "127.0.0.1", "0x7f.1", "2130706433", "1.2.3.4.5", "example.1", "[::1]", "[::1", "[1:2::3]:81",
        "xn--bcher-kva.example", "xn--.example", "xn--a.example", "a..b", ".example.com", "example.com.", "-a.example",
        "a-.example", "ab--cd.example", "exa%41mple.com", "exa%zzmple.com", "exa<mple.com", "exa^mple.com", "exa|mple.com",
        "exa mple.com", "", ":80", "a:b:c", "example.com%2F", "localhost", "tracker.test", "sub.tracker.test",
        "metrics.site.test", "TRACKER.test:443", "site.test", "x.y.z.owned.test",
    ]
    static let prefixes = ["http://", "https://", "http:", "https:/", "http:\\\\", "https:///", "http:/\\/"]
    static let suffixes = ["", "/", "/a/../b?c#d", "?q", "#f", "\\path", "/ space\tand\ttab ", "/%zz/ü"]

    @Test("host and parse failure equal CanonicalURL's, first learnt and then cached")
    func hostsMatchParsing() {
        let cache = ClassificationCache()
        let classifier = RequestClassifier(resolver: StatsFixture.resolver, topURL: "https://site.test/", cache: cache)
        for pass in 0..<2 {
            for authority in Self.authorities {
                for prefix in Self.prefixes {
                    for suffix in Self.suffixes {
                        let url = prefix + authority + suffix
                        // The host as the resolver looks it up: without a final dot.
                        let expected = CanonicalURL(url).map { CanonicalURL.removingFinalDot(fromHost: $0.host) } ?? ""
                        let classification = classifier.classify(RequestKey(url: url, type: .script))
                        #expect(classification.host == expected, "\(url), pass \(pass)")
                        if expected.isEmpty { #expect(classification.company == nil, "\(url)") }
                    }
                }
            }
        }
    }

    @Test("URLs outside the shortcut's shape are parsed in full", arguments: [
        "HTTP://www.example.com/", " http://www.example.com/", "http://www.exa\tmple.com/", "http://www.exa\nmple.com/",
        "http://bücher.example/", "http://www.example.com /", "ws://tracker.test/", "data:text/plain,x", "file:///etc",
        "http://e\u{301}xample.com/", "http://\u{e9}xample.com/",
    ])
    func fallback(url: String) {
        let classifier = RequestClassifier(resolver: StatsFixture.resolver, topURL: "https://site.test/", cache: ClassificationCache())
        #expect(classifier.classify(RequestKey(url: url, type: .image)).host
            == (CanonicalURL(url).map { CanonicalURL.removingFinalDot(fromHost: $0.host) } ?? ""))
    }

    @Test("the shortcut leaves trackers to the resolver")
    func trackersStillResolve() {
        let classifier = RequestClassifier(resolver: StatsFixture.resolver, topURL: "https://news.example/", cache: ClassificationCache())
        for url in [
            "https://tracker.test/t.js", "https://TRACKER.test:443/t.js", "https://x@sub.tracker.test/t.js",
            "https://tracker.test./t.js", "https://a:b@TRACKER.test%2e/t.js",
        ] {
            let classification = classifier.classify(RequestKey(url: url, type: .script))
            let decision = StatsFixture.resolver.decision(forRequestURL: url, topURL: "https://news.example/", type: .script)
            #expect(classification.company == "Tracker Inc", "\(url)")
            #expect(classification.blocks == decision?.isBlocked, "\(url)")
        }
        // A user named like the tracker is not the tracker.
        for url in ["https://tracker.test:pw@evil.test/t.js", "https://tracker.test@evil.test/t.js"] {
            let classification = classifier.classify(RequestKey(url: url, type: .script))
            #expect(classification.company == nil && classification.host == "evil.test", "\(url)")
        }
        // A plain host on the same classifier gets the shared plain classification.
        let plain = classifier.classify(RequestKey(url: "https://www.example.com/a.js", type: .script))
        #expect(plain.company == nil && plain.isThirdParty && plain.host == "www.example.com")
    }
}

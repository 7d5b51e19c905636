import Testing
import TrackerlessCore

@Suite("CanonicalURL")
struct CanonicalURLTests {
    @Test("serializations", arguments: [
        ("http://example.com", "http://example.com/"),
        ("HTTP://EXAMPLE.COM:80/A?B#C", "http://example.com/A?B#C"),
        ("https://example.com:443/", "https://example.com/"),
        ("https://example.com:8443/x", "https://example.com:8443/x"),
        ("http://example.com:0080/", "http://example.com/"),
        ("http://example.com:/", "http://example.com/"),
        ("ws://example.com:80/", "ws://example.com/"),
        ("wss://example.com:443/s", "wss://example.com/s"),
        ("ftp://example.com:21/f", "ftp://example.com/f"),
        ("https://example.com:80/", "https://example.com:80/"),
        ("http://example.com/a/./b/../c", "http://example.com/a/c"),
        ("http://example.com/a/%2e%2E/c", "http://example.com/c"),
        ("http://example.com/a/..", "http://example.com/"),
        ("http://example.com/a/.", "http://example.com/a/"),
        ("http://example.com/../../x", "http://example.com/x"),
        ("http://example.com\\a\\b", "http://example.com/a/b"),
        ("http:\\\\example.com\\a", "http://example.com/a"),
        ("http:example.com/x", "http://example.com/x"),
        ("http:////example.com/x", "http://example.com/x"),
        ("http://example.com/a b", "http://example.com/a%20b"),
        ("http://example.com/ü", "http://example.com/%C3%BC"),
        ("http://example.com/{\"<>`}", "http://example.com/%7B%22%3C%3E%60%7D"),
        ("http://example.com/%41%zz", "http://example.com/%41%zz"),
        ("http://example.com/?q=a b'\"<>", "http://example.com/?q=a%20b%27%22%3C%3E"),
        ("http://example.com/?q=ü?`{}", "http://example.com/?q=%C3%BC?`{}"),
        ("http://example.com/#frag ment`<\"", "http://example.com/#frag%20ment%60%3C%22"),
        ("http://example.com/p?#", "http://example.com/p?#"),
        ("http://bücher.de/", "http://xn--bcher-kva.de/"),
        ("http://XN--BCHER-KVA.de/", "http://xn--bcher-kva.de/"),
        ("http://BÜCHER.de/", "http://xn--bcher-kva.de/"),
        ("http://ex%41mple.com/", "http://example.com/"),
        ("http://example.com./", "http://example.com./"),
        ("http://[::1]:8080/", "http://[::1]:8080/"),
        ("http://[2001:DB8:0:0:0:0:0:1]/", "http://[2001:db8::1]/"),
        ("http://[2001:db8:0:0:1:0:0:1]/", "http://[2001:db8::1:0:0:1]/"),
        ("http://[::ffff:192.168.0.1]/", "http://[::ffff:c0a8:1]/"),
        ("http://[1:2:3:4:5:6:7:8]/", "http://[1:2:3:4:5:6:7:8]/"),
        ("http://[0:0:0:0:0:0:0:0]/", "http://[::]/"),
        ("http://[1::]/", "http://[1::]/"),
        ("http://0x7f.1/", "http://127.0.0.1/"),
        ("http://2130706433/", "http://127.0.0.1/"),
        ("http://0177.0.0.1/", "http://127.0.0.1/"),
        ("http://192.168.1.1./", "http://192.168.1.1/"),
        ("http://user:pass@example.com/", "http://user:pass@example.com/"),
        ("http://user@example.com/", "http://user@example.com/"),
        ("http://@example.com/", "http://example.com/"),
        ("http://a@b@example.com/", "http://a%40b@example.com/"),
        ("  http://example.com/\n ", "http://example.com/"),
        ("http://ex\tample.com/pa\nth", "http://example.com/path"),
        ("file:///etc/hosts", "file:///etc/hosts"),
        ("file://localhost/etc", "file:///etc"),
        ("file://Server/share", "file://server/share"),
        ("file:/x", "file:///x"),
        ("data:text/html,<p>hi there</p>", "data:text/html,<p>hi there</p>"),
        ("about:blank", "about:blank"),
        ("javascript:alert(1)", "javascript:alert(1)"),
        ("blob:https://example.com/uuid", "blob:https://example.com/uuid"),
        ("mailto:Someone@Example.com?subject=hi there", "mailto:Someone@Example.com?subject=hi%20there"),
        ("foo://Host/Path", "foo://Host/Path"),
        ("foo://host", "foo://host"),
        ("foo:///x", "foo:///x"),
        ("foo:/a/../b", "foo:/b"),
        ("web+demo:/.//not-a-host/", "web+demo:/.//not-a-host/"),
        ("data:é", "data:%C3%A9"),
        // The examples in the documentation.
        ("HTTPS://CDN.Bücher.example.co.uk:443/a/../lib.js", "https://cdn.xn--bcher-kva.example.co.uk/lib.js"),
        ("http://[2001:DB8::0:1]/", "http://[2001:db8::1]/"),
        ("http://bücher.de/ü?q=a b", "http://xn--bcher-kva.de/%C3%BC?q=a%20b"),
        ("https://example.com:443/a/./b/../c", "https://example.com/a/c"),
    ])
    func serialization(input: String, expected: String) {
        #expect(CanonicalURL(input)?.string == expected)
    }

    @Test("invalid URLs", arguments: [
        "", "example.com/path", "://x", "1http://x/", "http://", "http:///", "http://exa mple.com/",
        "http://example.com:65536/", "http://example.com:8a/", "http://[::1/", "http://[::1]x/",
        "http://[1:2:3:4:5:6:7:8:9]/", "http://[::1::]/", "http://[1:2::3:4:5:6:7:8]/", "http://256.0.0.1/",
        "http://1.2.3.4.5/", "http://09.0.0.1/", "http://0x100000000/", "http://example.com%2Fx/",
        "http://exa%25mple.com/", "http://a<b/", "http://a^b/", "http://a|b/", "http://user@/",
        "http://ex%ffample.com/", "foo://a b/", "http://xn--/", "http://xn--abc-/", "http://a.xn--ls8h-!/",
    ])
    func invalid(input: String) {
        #expect(CanonicalURL(input) == nil)
    }

    @Test("the final dot: kept in the URL as WebKit keeps it, removed for lookups by name")
    func finalDot() throws {
        let dotted = try #require(CanonicalURL("https://a:b@WWW.Tracker.com%2E:8443/a.js?q#f"))
        #expect(dotted.host == "www.tracker.com.")
        #expect(dotted.string == "https://a:b@www.tracker.com.:8443/a.js?q#f")
        let trimmed = dotted.removingFinalDotFromHost()
        #expect(trimmed.host == "www.tracker.com")
        #expect(trimmed.string == "https://a:b@www.tracker.com:8443/a.js?q#f")
        #expect(trimmed.stringWithoutFragment == "https://a:b@www.tracker.com:8443/a.js?q")
        #expect(trimmed == CanonicalURL("https://a:b@www.tracker.com:8443/a.js?q#f"))
        let plain = try #require(CanonicalURL("https://tracker.com/"))
        #expect(plain.removingFinalDotFromHost() == plain)
        #expect(CanonicalURL.removingFinalDot(fromHost: "tracker.com..") == "tracker.com.")
        #expect(CanonicalURL.removingFinalDot(fromHost: ".") == ".")
        #expect(CanonicalURL.removingFinalDot(fromHost: "") == "")
        // Userinfo is never the host, whatever it looks like.
        #expect(CanonicalURL("https://tracker.com:pw@evil.com/")?.host == "evil.com")
        #expect(CanonicalURL("https://tracker.com@evil.com/")?.host == "evil.com")
        #expect(CanonicalURL("https://evil.com/?u=a@tracker.com/")?.host == "evil.com")
    }

    @Test("components")
    func components() throws {
        let url = try #require(CanonicalURL("HTTPS://u:p@Sub.Example.COM:8443/a b/c?x=1&y=ü#frag"))
        #expect(url.scheme == "https")
        #expect(url.host == "sub.example.com")
        #expect(url.port == 8443)
        #expect(url.user == "u:p")
        #expect(url.path == "/a%20b/c")
        #expect(url.query == "x=1&y=%C3%BC")
        #expect(url.fragment == "frag")
        #expect(url.string == "https://u:p@sub.example.com:8443/a%20b/c?x=1&y=%C3%BC#frag")
        #expect(url.stringWithoutFragment == "https://u:p@sub.example.com:8443/a%20b/c?x=1&y=%C3%BC")
        #expect(url.isSpecial)

        let plain = try #require(CanonicalURL("http://example.com"))
        #expect(plain.port == nil)
        #expect(plain.user == nil)
        #expect(plain.path == "/")
        #expect(plain.query == nil)
        #expect(plain.fragment == nil)

        let data = try #require(CanonicalURL("data:image/png;base64,AAA#x"))
        #expect(data.scheme == "data")
        #expect(data.host == "")
        #expect(data.path == "image/png;base64,AAA")
        #expect(data.fragment == "x")
        #expect(!data.isSpecial)

        let ipv6 = try #require(CanonicalURL("http://[::1]:80/"))
        #expect(ipv6.host == "[::1]")
        #expect(ipv6.port == nil)

        let documented = try #require(CanonicalURL("HTTPS://CDN.Bücher.example.co.uk:443/a/../lib.js"))
        #expect(PublicSuffixList.bundled.registrableDomain(of: documented.host) == "example.co.uk")

        let emptyQuery = try #require(CanonicalURL("http://example.com/?"))
        #expect(emptyQuery.query == "")
        #expect(emptyQuery.string == "http://example.com/?")
    }
}

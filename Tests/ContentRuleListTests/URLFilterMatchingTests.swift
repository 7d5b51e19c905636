import Testing
@testable import ContentRuleList

/// One example: pattern, case sensitivity, URL, whether WebKit matches.
struct MatchCase: Sendable, CustomTestStringConvertible {
    var pattern: String
    var isCaseSensitive: Bool
    var url: String
    var expected: Bool

    init(_ pattern: String, _ url: String, _ expected: Bool, caseSensitive: Bool = false) {
        self.pattern = pattern
        self.url = url
        self.expected = expected
        self.isCaseSensitive = caseSensitive
    }

    var testDescription: String {
        "\"\(pattern)\"\(isCaseSensitive ? " (case-sensitive)" : "") \(expected ? "matches" : "does not match") \(url.prefix(60))"
    }
}

@Suite("URLFilter matching: WebKit's semantics")
struct URLFilterMatchingTests {
    static let cases: [MatchCase] = [
        // Basic search semantics (ContentExtensions.cpp: Basic, SingleCharacter).
        MatchCase("webkit.org", "http://webkit.org/", true),
        MatchCase("webkit.org", "http://example.com/", false),
        MatchCase("w", "http://webkit.org/", true),
        MatchCase("^w", "http://webkit.org/", false),
        MatchCase("^h", "http://webkit.org/", true),
        // Anchors (StartOfLineAssertion, EndOfLineAssertion, PrefixInfixSuffixExactMatch).
        MatchCase("^http://foo.com/", "http://foo.com/", true),
        MatchCase("^http://foo.com/", "attp://foo.com/", false),
        MatchCase("^h[a-z://]+", "http://webkit.org/", true),
        MatchCase("^h[a-z://]+", "bttp://webkit.org/", false),
        MatchCase("foo$", "http://webkit.org/foo", true),
        MatchCase("foo$", "http://webkit.org/foobar", false),
        MatchCase("^http://webkit.org/foo$", "http://webkit.org/foo", true),
        MatchCase("^http://webkit.org/foo$", "http://webkit.org/foo/", false),
        MatchCase("^http://webkit.org/$", "http://webkit.org/", true),
        // $ is the virtual end of the URL: . and negated sets never match it.
        MatchCase("foo.$", "http://webkit.org/foo", false),
        MatchCase("foo.$", "http://webkit.org/fooz", true),
        MatchCase("foo[^a]$", "http://webkit.org/foo", false),
        MatchCase("foo[^a]$", "http://webkit.org/foob", true),
        MatchCase("foo[^a]$", "http://webkit.org/fooa", false),
        MatchCase(".+", "http://webkit.org/", true),
        MatchCase("^.+$", "http://webkit.org/", true),
        MatchCase("foo.", "http://webkit.org/foo", false),
        // \0 is the same set as $, and [^\0] any character but not the end
        // [verified WebKitGTK 2.50.6, image loads through the harness].
        MatchCase(#"foo\0"#, "http://webkit.org/foo", true),
        MatchCase(#"foo\0"#, "http://webkit.org/foob", false),
        MatchCase(#"a\.gif\0"#, "https://ads.example/a.gif", true),
        MatchCase(#"a\.gif\0"#, "https://ads.example/a.gif?x=1", false),
        MatchCase(#"b\.gif[^\0]"#, "https://ads.example/b.gif", false),
        MatchCase(#"b\.gif[^\0]"#, "https://ads.example/b.gif?x=1", true),
        MatchCase(#"x[\0a]"#, "http://x.org/x", true),
        MatchCase(#"x[\0a]"#, "http://x.org/xA", true),
        MatchCase(#"^http://x.org/x[\0a]"#, "http://x.org/xb", false),
        // Universal quirks: $ and ^$ match every URL, as do all "matches everything" patterns.
        MatchCase("$", "http://webkit.org/", true),
        MatchCase("^$", "http://webkit.org/", true),
        MatchCase("^$", "", true),
        MatchCase("a?", "http://x.org/", true),
        MatchCase("(foo)?", "http://x.org/", true),
        // Trailing normalizations do not change search results.
        MatchCase("foo.*$", "http://webkit.org/foobar", true),
        MatchCase("foob?a?r?", "http://webkit.org/foo", true),
        // Ranges and negation (RangeBasic, RangeExclusionGeneratingUniversalTransition).
        MatchCase("[A-H][a-z]", "http://webkit.org/Aa", true, caseSensitive: true),
        MatchCase("^http://webkit.org/[A-H][a-z]", "http://webkit.org/aa", false, caseSensitive: true),
        MatchCase("^http://webkit.org/[A-H][a-z]", "http://webkit.org/aa", true),
        MatchCase("[0-9]", "http://webkit.org/", false),
        MatchCase("[0-9]", "http://webkit.org/1", true),
        MatchCase("[^a]+afoobar", "http://webkit.org/afoobar", true),
        MatchCase("^[^a]+afoobar", "aafoobar", false),
        MatchCase("^[^a]+afoobar", "Aafoobar", false),
        MatchCase("^[^a]+afoobar", "bafoobar", true),
        MatchCase("^[^a]+afoobar", "Aafoobar", true, caseSensitive: true),
        // Case folding is ASCII-only; case-sensitive patterns compare bytes.
        MatchCase("^BCC", "bcc://www.webkit.org/", true),
        MatchCase("WebKit", "http://webkit.org/", true),
        MatchCase("WebKit", "http://webkit.org/", false, caseSensitive: true),
        MatchCase("/Path", "http://webkit.org/Path", true, caseSensitive: true),
        MatchCase("/Path", "http://webkit.org/path", false, caseSensitive: true),
        MatchCase("[_]", "http://webkit.org/\u{7F}", false),
        // Dot is any ASCII character 1…127, line breaks included (unlike JavaScript).
        MatchCase("^a.b", "a\nb", true),
        MatchCase("^a.b", "a\rb", true),
        // Non-ASCII bytes match nothing, not even the implicit .* prefix.
        MatchCase("foo", "http://é/foo", false),
        MatchCase("^http://", "http://é/foo", true),
        // Groups (PatternStartingWithGroup, PatternNestedGroups, EmptyGroups, QuantifiedEmptyGroups).
        MatchCase("(http)://webkit.org", "http://webkit.org/", true),
        MatchCase("^(http)://webkit.org", "https://webkit.org/", false),
        MatchCase("^http://(www\\.)?webkit\\.org/", "http://www.webkit.org/", true),
        MatchCase("^http://(www\\.)?webkit\\.org/", "http://webkit.org/", true),
        MatchCase("^http://(www\\.)?webkit\\.org/", "http://wwwwebkit.org/", false),
        MatchCase("^((foo)(bar))+baz", "foobarfoobarbaz", true),
        MatchCase("^((foo)(bar))+baz", "foobarfoobaz", false),
        MatchCase("^(ab(cd)*)+ef$", "abcdcdabef", true),
        MatchCase("^(ab(cd)*)+ef$", "abcef", false),
        MatchCase("^a()b", "ab", true),
        MatchCase("^a()*b", "ab", true),
        MatchCase("^a(()*)+b", "ab", true),
        MatchCase("^a(()*)+b", "acb", false),
        MatchCase("^(a*)*b", "aaab", true),
        MatchCase("^(a*)*b", "aaac", false),
        MatchCase("^(a|)", "a", false),  // invalid patterns never match; see parser tests
        // Domain-condition shape produced for if-domain (webkit.md §3.2).
        MatchCase(#"[a-z][a-z+.-]*:\/\/([^/]*\.)*webkit\.org[:/]"#, "http://bugs.webkit.org/x", true),
        MatchCase(#"[a-z][a-z+.-]*:\/\/([^/]*\.)*webkit\.org[:/]"#, "http://notwebkit.org/", false),
        MatchCase(#"[a-z][a-z+.-]*:\/\/webkit\.org[:/]"#, "http://webkit.org:8080/", true),
        MatchCase(#"[a-z][a-z+.-]*:\/\/webkit\.org[:/]"#, "http://webkit.organization/", false),
        // Typical tracker rule.
        MatchCase(#"^https?://([a-z0-9-]+\.)*tracker\.com(:[0-9]+)?/ads/"#, "https://cdn.x.tracker.com:8443/ads/1.js", true),
        MatchCase(#"^https?://([a-z0-9-]+\.)*tracker\.com(:[0-9]+)?/ads/"#, "https://tracker.co/ads/1.js", false),
        // Legacy escapes.
        MatchCase(#"\101"#, "http://x.org/a", true),
        MatchCase(#"\x2f\x2F"#, "http://x.org/", true),
        MatchCase(#"\k<A>"#, "http://x.org/k<a>", true),
        MatchCase(#"a{a,b}"#, "http://x.org/a{a,b}", true),
        MatchCase(#"\8"#, "http://x.org/8", true),
        MatchCase("a]", "http://x.org/a]", true),
        // The literal prefilter (Horspool) on repetitive text, both cases.
        MatchCase("abcabd", "http://x.org/abcabcabd", true),
        MatchCase("abcabd", "http://x.org/abcabcabe", false),
        MatchCase("AAB", "http://x.org/aaaab", true),
        MatchCase("aB", "http://x.org/ab-Ab-aB", true, caseSensitive: true),
        MatchCase("aB", "http://x.org/ab-Ab-AB", false, caseSensitive: true),
        MatchCase("xyz", "xyz", true),
        MatchCase("xyz", "xy", false),
    ]

    @Test("Examples", arguments: cases)
    func example(_ row: MatchCase) {
        guard let filter = try? URLFilter(parsing: row.pattern, isCaseSensitive: row.isCaseSensitive) else {
            #expect(!row.expected, "pattern should parse")
            return
        }
        #expect(filter.matches(row.url) == row.expected)
        var url = row.url
        let viaBytes = url.withUTF8 { filter.matches(utf8: $0) }
        #expect(viaBytes == row.expected)
        let thompson = try? URLFilter(parsing: row.pattern, isCaseSensitive: row.isCaseSensitive,
                                      allowsPositionAutomaton: false)
        #expect(thompson?.matches(row.url) == row.expected, "Thompson automaton disagrees")
    }

    @Test("The required literal is the longest run of single characters, lowercased")
    func requiredLiteral() throws {
        let tracker = try URLFilter(parsing: #"^https?://([^/]*\.)?Tracker\.com/"#, isCaseSensitive: false)
        #expect(tracker.requiredLiteral == Array("tracker.com/".utf8))
        #expect(try URLFilter(parsing: "/Path", isCaseSensitive: true).requiredLiteral == Array("/path".utf8))
        #expect(try URLFilter(parsing: "a", isCaseSensitive: false).requiredLiteral == nil)
        #expect(try URLFilter(parsing: "a.b", isCaseSensitive: false).requiredLiteral == nil)
        #expect(try URLFilter(parsing: ".*", isCaseSensitive: false).requiredLiteral == nil)
    }

    @Test("No catastrophic backtracking")
    func pathologicalPatterns() throws {
        let url = "http://x.org/" + String(repeating: "a", count: 20_000) + "!"
        for pattern in ["(a*)*b", "(a+)+b", "^(a|a)*b".replacingOccurrences(of: "|a", with: ""),
                        "(.*a){12}".replacingOccurrences(of: "{12}", with: "+") + "b",
                        String(repeating: "a?", count: 40) + String(repeating: "a", count: 40) + "b"] {
            let filter = try URLFilter(parsing: pattern, isCaseSensitive: false)
            #expect(!filter.matches(url), "\(pattern)")
        }
    }
}

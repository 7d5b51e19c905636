import Testing
@testable import ContentRuleList

/// What WebKit's `URLFilterParser::addPattern` answers for a pattern.
enum ExpectedParse: Sendable, CustomStringConvertible {
    case ok
    case matchesEverything
    case error(URLFilterError.Status)

    var description: String {
        switch self {
        case .ok: "Ok"
        case .matchesEverything: "MatchesEverything"
        case .error(let status): "\(status)"
        }
    }
}

/// One row: a pattern (case-insensitive, WebKit's default) and WebKit's status.
struct ParseCase: Sendable, CustomTestStringConvertible {
    var pattern: String
    var expected: ExpectedParse
    init(_ pattern: String, _ expected: ExpectedParse) {
        self.pattern = pattern
        self.expected = expected
    }
    var testDescription: String { "\"\(pattern)\" → \(expected)" }
}

private func parseStatus(_ pattern: String) -> ExpectedParse {
    do {
        let filter = try URLFilter(parsing: pattern, isCaseSensitive: false)
        return filter.matchesEverything ? .matchesEverything : .ok
    } catch {
        return .error(error.status)
    }
}

private func statusesEqual(_ a: ExpectedParse, _ b: ExpectedParse) -> Bool {
    switch (a, b) {
    case (.ok, .ok), (.matchesEverything, .matchesEverything): true
    case (.error(let x), .error(let y)): x == y
    default: false
    }
}

@Suite("URLFilter parsing: WebKit's statuses and normalizations")
struct URLFilterParserTests {
    // Rows from WebKit's ParsingFailures / PatternMatchingTheEmptyString tests, plus one or more
    // rows for every status of the table in webkit.md §2.
    static let statusCases: [ParseCase] = [
        // Accepted constructs.
        ParseCase("a*b?.*.?[a-z]?[a-z]+", .ok),
        ParseCase("a*b?.*.?[a-z]?[a-z]", .ok),
        ParseCase(".*?a", .ok),
        ParseCase(".*a", .ok),
        ParseCase("(regex)", .ok),
        ParseCase("(?:regex)", .ok),
        ParseCase("(?<name>regex)", .ok),
        ParseCase("[^.]+", .ok),
        ParseCase("a]", .ok),
        ParseCase("}", .ok),
        ParseCase("{", .ok),
        ParseCase("{[a]", .ok),
        ParseCase("{0", .ok),
        ParseCase("{0,", .ok),
        ParseCase("{0,1", .ok),
        ParseCase("a{0,1", .ok),
        ParseCase("a{a,b}", .ok),
        ParseCase(#"\x\r\n"#, .ok),
        ParseCase(#"\.\/\?\-\%"#, .ok),
        ParseCase(#"(a)\1"#, .ok),            // octal escape: numbered backreferences are disabled
        ParseCase(#"\8\9"#, .ok),
        ParseCase(#"\k<A>"#, .ok),            // literal "k<A>" while there is no named group
        ParseCase(#"\ca\c"#, .ok),
        ParseCase(#"\u0041\x41\101"#, .ok),
        ParseCase("a{0,1}b", .ok),
        ParseCase("a{0,}b", .ok),
        ParseCase("a{1,}b", .ok),
        ParseCase("a{0,1}?b", .ok),
        ParseCase("a*?b+?c??", .ok),
        ParseCase("^^a", .ok),
        ParseCase("()a", .ok),
        ParseCase("a()", .ok),
        ParseCase("[]a", .ok),
        ParseCase("[^]a", .ok),
        ParseCase("[a-]", .ok),
        ParseCase("[-a]", .ok),
        ParseCase(#"[\b\B\-]"#, .ok),
        ParseCase("((a)b(c))+d", .ok),
        ParseCase(#"^https?://([^/]*\.)?example\.com[:/]"#, .ok),
        ParseCase(#"a\0"#, .ok),

        // Matches everything: no term has to consume a character.
        ParseCase("a*b?.*.?[a-z]?[a-z]*", .matchesEverything),
        ParseCase(".*", .matchesEverything),
        ParseCase("a*", .matchesEverything),
        ParseCase(".?", .matchesEverything),
        ParseCase("a?", .matchesEverything),
        ParseCase("[a-z]*", .matchesEverything),
        ParseCase("[a-z]?", .matchesEverything),
        ParseCase("(foobar)*", .matchesEverything),
        ParseCase("(foobar)?", .matchesEverything),
        ParseCase("(.*)", .matchesEverything),
        ParseCase("(a*)", .matchesEverything),
        ParseCase("(.?)", .matchesEverything),
        ParseCase("(a?)", .matchesEverything),
        ParseCase("([a-z]*)", .matchesEverything),
        ParseCase("([a-z]?)", .matchesEverything),
        ParseCase("(.)*", .matchesEverything),
        ParseCase("(.+)*", .matchesEverything),
        ParseCase("(.?)*", .matchesEverything),
        ParseCase("(.*)*", .matchesEverything),
        ParseCase("(.+)?", .matchesEverything),
        ParseCase("(.?)+", .matchesEverything),
        ParseCase("((foo)?((.)*)(bar)*)", .matchesEverything),
        ParseCase("()", .matchesEverything),
        ParseCase("^a?", .matchesEverything),
        ParseCase("^", .matchesEverything),
        ParseCase("$", .matchesEverything),
        ParseCase("^$", .matchesEverything),
        ParseCase(".*$", .matchesEverything),
        ParseCase("a?$", .matchesEverything),

        // NonASCII.
        ParseCase("ÿ", .error(.nonASCII)),
        ParseCase("café", .error(.nonASCII)),
        ParseCase(#"\xff"#, .error(.nonASCII)),
        ParseCase(#"\u00e9"#, .error(.nonASCII)),
        ParseCase(#"[\xff]"#, .error(.nonASCII)),
        ParseCase(#"[a-\xff]"#, .error(.nonASCII)),
        ParseCase(#"\377"#, .error(.nonASCII)),
        // UnsupportedCharacterClass.
        ParseCase(#"\d\D\w\s\v\h\i\c"#, .error(.unsupportedCharacterClass)),
        ParseCase(#"a\W"#, .error(.unsupportedCharacterClass)),
        ParseCase(#"\S+"#, .error(.unsupportedCharacterClass)),
        // AtomCharacter.
        ParseCase(#"[\d]"#, .error(.atomCharacter)),
        ParseCase(#"[a\w]"#, .error(.atomCharacter)),
        ParseCase(#"[\s-a]"#, .error(.atomCharacter)),
        // BackReference.
        ParseCase(#"(?<A>a)\k<A>"#, .error(.backReference)),
        // MisplacedStartOfLine.
        ParseCase("a^", .error(.misplacedStartOfLine)),
        ParseCase("(^)", .error(.misplacedStartOfLine)),
        ParseCase("(^a)", .error(.misplacedStartOfLine)),
        // WordBoundary.
        ParseCase(#"\b"#, .error(.wordBoundary)),
        ParseCase(#"a\B"#, .error(.wordBoundary)),
        // Group.
        ParseCase("(?!)", .error(.group)),
        ParseCase("(?=)", .error(.group)),
        ParseCase("(?!a)", .error(.group)),
        ParseCase("(?=a)", .error(.group)),
        ParseCase("(?=a)*b", .error(.group)),
        ParseCase("(?<=a)b", .error(.group)),
        ParseCase("(?<!a)b", .error(.group)),
        ParseCase("(?i:a)", .error(.group)),
        // Disjunction.
        ParseCase("this|that", .error(.disjunction)),
        ParseCase("a|", .error(.disjunction)),
        ParseCase("(a|b)c", .error(.disjunction)),
        ParseCase(#"a|\d"#, .error(.disjunction)),
        ParseCase(#"\d|a"#, .error(.unsupportedCharacterClass)),
        // MisplacedEndOfLine.
        ParseCase("$$", .error(.misplacedEndOfLine)),
        ParseCase("a$b", .error(.misplacedEndOfLine)),
        ParseCase("($)", .error(.misplacedEndOfLine)),
        ParseCase("(a$)", .error(.misplacedEndOfLine)),
        ParseCase(#"\0a"#, .error(.misplacedEndOfLine)),
        // WebKit's "is end of line" test ignores inversion and quantifier [verified WebKitGTK 2.50.6].
        ParseCase(#"[^\0]a"#, .error(.misplacedEndOfLine)),
        ParseCase(#"a[^\0]?b"#, .error(.misplacedEndOfLine)),
        ParseCase(#"a\0?b"#, .error(.misplacedEndOfLine)),
        ParseCase(#"[^\0]"#, .matchesEverything),
        ParseCase(#"x[\0a]"#, .ok),
        // EmptyPattern.
        ParseCase("", .error(.emptyPattern)),
        // YarrError: JavaScript syntax errors.
        ParseCase("(regex", .error(.yarrError)),
        ParseCase("((regex)", .error(.yarrError)),
        ParseCase("(?:regex", .error(.yarrError)),
        ParseCase("regex)", .error(.yarrError)),
        ParseCase("a++", .error(.yarrError)),
        ParseCase("[a]++", .error(.yarrError)),
        ParseCase("+", .error(.yarrError)),
        ParseCase("*a", .error(.yarrError)),
        ParseCase("^*", .error(.yarrError)),
        ParseCase("a$?", .error(.yarrError)),
        ParseCase("{1}", .error(.yarrError)),
        ParseCase("[", .error(.yarrError)),
        ParseCase("[a}", .error(.yarrError)),
        ParseCase("[z-a]", .error(.yarrError)),
        ParseCase(#"a\"#, .error(.yarrError)),
        ParseCase("a{2,1}", .error(.yarrError)),
        ParseCase("a{99999999999999999999}", .error(.yarrError)),
        ParseCase("(?", .error(.yarrError)),
        ParseCase("(?x)", .error(.yarrError)),
        ParseCase("(?<1>a)", .error(.yarrError)),
        ParseCase("(?<a>x)(?<a>y)", .error(.yarrError)),
        ParseCase(#"\k<A>(?<A>a)"#, .error(.yarrError)),
        ParseCase(#"(?<A>a)\k<B>"#, .error(.yarrError)),
        ParseCase("(?<=a)*b", .error(.yarrError)),
        ParseCase("(?ii:a)", .error(.yarrError)),
        ParseCase("a|(", .error(.yarrError)),              // a syntax error wins over Disjunction
        ParseCase(#"\d("#, .error(.yarrError)),
        ParseCase(String(repeating: "a", count: 1024 * 1024 + 1), .error(.yarrError)),
        // InvalidQuantifier.
        ParseCase("a{0,2}b", .error(.invalidQuantifier)),
        ParseCase("a{1}", .error(.invalidQuantifier)),
        ParseCase("a{0}", .error(.invalidQuantifier)),
        ParseCase("a{2,}", .error(.invalidQuantifier)),
        ParseCase("a{1,1}", .error(.invalidQuantifier)),
        ParseCase(#"\u{41}"#, .error(.invalidQuantifier)),  // legacy: "u" repeated 41 times
    ]

    @Test("Status of each pattern", arguments: statusCases)
    func status(_ row: ParseCase) {
        let actual = parseStatus(row.pattern)
        #expect(statusesEqual(actual, row.expected), "\"\(row.pattern.prefix(80))\": got \(actual), WebKit says \(row.expected)")
    }

    @Test("A 100,000-character pattern is accepted (WebKit's DeepNFA test)")
    func deepPattern() throws {
        let filter = try URLFilter(parsing: "^" + String(repeating: "A", count: 100_000), isCaseSensitive: false)
        #expect(filter.terms.count == 100_000)
        #expect(filter.matches(String(repeating: "a", count: 100_000)))
        #expect(!filter.matches(String(repeating: "a", count: 99_999)))
        #expect(!filter.matches("http://example.com/"))
    }

    @Test("Groups nest up to 200 levels; deeper is refused instead of exhausting the stack")
    func nestingLimit() throws {
        let deep = String(repeating: "(", count: 200) + "a" + String(repeating: ")", count: 200) + "+b"
        let filter = try URLFilter(parsing: deep, isCaseSensitive: false)
        #expect(filter.matches("http://x.org/aab"))
        let tooDeep = String(repeating: "(", count: 201) + "a" + String(repeating: ")", count: 201)
        // WebKitGTK 2.50.6 compiles 10,000 levels, so the error is ours, not WebKit's YARR error.
        #expect(throws: URLFilterError(status: .nestedTooDeeply, offset: 200, pattern: tooDeep)) {
            try URLFilter(parsing: tooDeep, isCaseSensitive: false)
        }
        #expect(throws: RuleListError(
            .regexNestedTooDeeply, ruleIndex: 0,
            detail: #"url-filter "\#(tooDeep.prefix(200))…" at offset 200: "#
                + URLFilterError(status: .nestedTooDeeply, offset: 200, pattern: tooDeep).statusText)) {
            try RuleList(parsing: #"[{"trigger":{"url-filter":"\#(tooDeep)"},"action":{"type":"block"}}]"#)
        }
        // Deep but flat patterns are fine: only nesting is limited.
        let long = "^" + String(repeating: "(a)", count: 20_000)
        #expect(try URLFilter(parsing: long, isCaseSensitive: false).matches(String(repeating: "a", count: 20_000)))
    }

    struct OffsetCase: Sendable, CustomTestStringConvertible {
        var pattern: String
        var status: URLFilterError.Status
        var offset: Int
        var problem: URLFilterError.SyntaxProblem? = nil
        var testDescription: String { "\"\(pattern)\" → \(status) at \(offset)" }
    }

    static let offsetCases: [OffsetCase] = [
        OffsetCase(pattern: "a|b", status: .disjunction, offset: 1),
        OffsetCase(pattern: "café", status: .nonASCII, offset: 3),
        OffsetCase(pattern: "a$b", status: .misplacedEndOfLine, offset: 2),
        OffsetCase(pattern: "ab{1}", status: .invalidQuantifier, offset: 2),
        OffsetCase(pattern: #"ab\d"#, status: .unsupportedCharacterClass, offset: 2),
        OffsetCase(pattern: #"x[a\d]"#, status: .atomCharacter, offset: 3),
        OffsetCase(pattern: "ab^", status: .misplacedStartOfLine, offset: 2),
        OffsetCase(pattern: "a(?=b)", status: .group, offset: 1),
        OffsetCase(pattern: "[abc", status: .yarrError, offset: 0, problem: .unterminatedCharacterClass),
        OffsetCase(pattern: "[", status: .yarrError, offset: 0, problem: .unterminatedCharacterClass),
        OffsetCase(pattern: "abc)", status: .yarrError, offset: 3, problem: .unmatchedClosingParenthesis),
        OffsetCase(pattern: "(abc", status: .yarrError, offset: 4, problem: .missingClosingParenthesis),
        OffsetCase(pattern: "a**", status: .yarrError, offset: 2, problem: .nothingToRepeat),
        OffsetCase(pattern: "+", status: .yarrError, offset: 0, problem: .nothingToRepeat),
        OffsetCase(pattern: "(?i)", status: .yarrError, offset: 0, problem: .invalidGroup),
        OffsetCase(pattern: "a(?x)", status: .yarrError, offset: 3, problem: .invalidGroup),
        OffsetCase(pattern: "a{2,1}", status: .yarrError, offset: 1, problem: .quantifierOutOfOrder),
        OffsetCase(pattern: "x[z-a]", status: .yarrError, offset: 4, problem: .rangeOutOfOrder),
        OffsetCase(pattern: #"ab\"#, status: .yarrError, offset: 2, problem: .escapeAtEnd),
    ]

    @Test("Errors say where the problem is", arguments: offsetCases)
    func offsets(_ row: OffsetCase) {
        #expect(throws: URLFilterError(status: row.status, offset: row.offset, pattern: row.pattern, problem: row.problem)) {
            try URLFilter(parsing: row.pattern, isCaseSensitive: false)
        }
    }

    @Test("Error description uses WebKit's words")
    func errorDescription() {
        let error = URLFilterError(status: .disjunction, offset: 1, pattern: "a|b")
        #expect(error.description == #"Invalid or unsupported regular expression. ("a|b" at offset 1: Disjunctions are not supported yet.)"#)
        // WebKit logs only "Internal error in YARR." for a syntax error: the problem is added.
        let syntax = URLFilterError(status: .yarrError, offset: 0, pattern: "[", problem: .unterminatedCharacterClass)
        #expect(syntax.description == #"Invalid or unsupported regular expression. ("[" at offset 0: Internal error in YARR. (missing ] to close the character class))"#)
        // A 10 MB pattern is cut to its first 200 characters.
        let huge = URLFilterError(status: .yarrError, offset: 0, pattern: String(repeating: "a", count: 10_000_000), problem: .tooLong)
        #expect(huge.description.utf8.count < 400)
        #expect(URLFilterError(status: .invalidQuantifier, offset: 0, pattern: "").statusText == "Arbitrary atom repetitions are not supported.")
    }

    struct EquivalenceCase: Sendable, CustomTestStringConvertible {
        var pattern: String
        var equivalent: String
        var testDescription: String { "\"\(pattern)\" ≡ \"\(equivalent)\"" }
    }

    // Normalizations 1–4 of webkit.md §2: both patterns give the same term sequence.
    static let equivalences: [EquivalenceCase] = [
        EquivalenceCase(pattern: "foo.*$", equivalent: "foo"),
        EquivalenceCase(pattern: "foo(.*)$", equivalent: "foo"),
        EquivalenceCase(pattern: "foob?a?r?", equivalent: "foo"),
        EquivalenceCase(pattern: "cats*", equivalent: "cat"),
        EquivalenceCase(pattern: "foo(bar)?", equivalent: "foo"),
        EquivalenceCase(pattern: "foo.*", equivalent: "foo"),
        EquivalenceCase(pattern: ".*.*foo", equivalent: "foo"),
        EquivalenceCase(pattern: "(.*)(.)*(.+)*(.?)*(.+)?(.?)+foo", equivalent: "foo"),
        EquivalenceCase(pattern: "^.*foo", equivalent: "foo"),
        EquivalenceCase(pattern: "foo(.+)*bar", equivalent: "foo.*bar"),
        EquivalenceCase(pattern: "foo.*.*.*bar", equivalent: "foo.*bar"),
        EquivalenceCase(pattern: "a*?b+?", equivalent: "a*b+"),
        EquivalenceCase(pattern: "a{0,1}b{0,}c{1,}", equivalent: "a?b*c+"),
        EquivalenceCase(pattern: "FOO", equivalent: "foo"),
        EquivalenceCase(pattern: "(?:a)(?<n>b)", equivalent: "(a)(b)"),
        EquivalenceCase(pattern: #"\x41\u0042\103"#, equivalent: "abc"),
    ]

    @Test("Normalizations give identical terms", arguments: equivalences)
    func equivalentTerms(_ row: EquivalenceCase) throws {
        let a = try URLFilter(parsing: row.pattern, isCaseSensitive: false)
        let b = try URLFilter(parsing: row.equivalent, isCaseSensitive: false)
        #expect(a.terms == b.terms)
    }

    @Test("Unanchored patterns get an implicit .* prefix; ^ anchors at the start")
    func implicitPrefix() throws {
        let search = try URLFilter(parsing: "a", isCaseSensitive: false)
        #expect(!search.isAnchoredAtStart)
        #expect(search.terms.count == 2)
        #expect(search.terms.first == Term(atom: .characterSet(.anyCharacter), quantifier: .zeroOrMore))
        let anchored = try URLFilter(parsing: "^a", isCaseSensitive: false)
        #expect(anchored.isAnchoredAtStart)
        #expect(anchored.terms.count == 1)
    }

    @Test("A trailing $ is kept as the end-of-URL set {0}; .*$ is dropped")
    func endOfLine() throws {
        let filter = try URLFilter(parsing: "foo$", isCaseSensitive: false)
        #expect(filter.terms.last?.isEndOfLineAssertion == true)
        #expect(filter.terms.last == Term(atom: .characterSet(.endOfLine)))
        #expect(try URLFilter(parsing: "foo.*$", isCaseSensitive: false).terms.last?.isEndOfLineAssertion == false)
    }

    @Test("Case-insensitive sets hold both cases of ASCII letters only")
    func caseFolding() throws {
        let insensitive = try URLFilter(parsing: "^[a-c_]", isCaseSensitive: false)
        let sensitive = try URLFilter(parsing: "^[a-c_]", isCaseSensitive: true)
        guard case .characterSet(let folded) = insensitive.terms.first?.atom,
              case .characterSet(let exact) = sensitive.terms.first?.atom else {
            Issue.record("expected a character set")
            return
        }
        #expect(folded.contains(UInt8(ascii: "B")) && folded.contains(UInt8(ascii: "b")))
        #expect(!exact.contains(UInt8(ascii: "B")) && exact.contains(UInt8(ascii: "b")))
        #expect(folded.contains(UInt8(ascii: "_")) && !folded.contains(UInt8(ascii: "\u{7F}")))
        #expect(folded.listedCount == 7)
        #expect(try URLFilter(parsing: "A", isCaseSensitive: true).terms != URLFilter(parsing: "a", isCaseSensitive: true).terms)
    }

    @Test("Equality and hashing follow the pattern and its case flag")
    func equality() throws {
        let a = try URLFilter(parsing: "abc", isCaseSensitive: false)
        #expect(a == (try URLFilter(parsing: "abc", isCaseSensitive: false)))
        #expect(a != (try URLFilter(parsing: "abc", isCaseSensitive: true)))
        #expect(Set([a, try URLFilter(parsing: "abc", isCaseSensitive: false)]).count == 1)
    }
}

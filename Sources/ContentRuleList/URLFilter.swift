/// A url-filter (or if-top-url/if-frame-url pattern) in WebKit's regex subset, parsed and normalized.
///
/// Parsing accepts and rejects exactly what WebKit's content-extension compiler does (JavaScript
/// legacy regex syntax, minus disjunctions, built-in classes other than `.`, assertions other than
/// a leading `^` and a trailing `$`, backreferences and counted repetitions), and applies its
/// normalizations. Matching answers like JavaScript's `RegExp.test()` on the URL (case-insensitive
/// unless ``isCaseSensitive``), with WebKit's differences: only ASCII 1…127 is matchable, `.`
/// matches every one of those (line breaks too), and a pattern that
/// ``matchesEverything`` — including `$` and `^$` — matches every URL.
///
/// ```swift
/// let filter = try URLFilter(parsing: #"^https?://([^/]*\.)?tracker\.com/"#, isCaseSensitive: false)
/// filter.matches("https://ads.tracker.com/pixel.gif")  // true
/// ```
///
/// Matching runs an automaton built once at initialization, in time linear in the URL length
/// (times the pattern size at worst) and without allocating for patterns of up to 63 characters
/// sets; no pattern can make it backtrack.
public struct URLFilter: Sendable, Hashable {
    /// The pattern as written in the rule list.
    public let pattern: String
    /// Whether letters match only in the case written (`url-filter-is-case-sensitive`).
    public let isCaseSensitive: Bool
    /// WebKit's "Matches everything." status: no term has to consume a character, so the rule
    /// becomes a universal action that applies to every URL (`.*`, `a?`, `$`, `^$`, …).
    public let matchesEverything: Bool
    /// Whether the pattern began with `^`; otherwise WebKit searches the whole URL.
    public let isAnchoredAtStart: Bool
    /// The normalized term sequence, including the implicit leading `.*` of unanchored patterns.
    public let terms: [Term]

    let automaton: Automaton

    /// Parses `pattern` with WebKit's rules.
    ///
    /// - Throws: ``URLFilterError`` with WebKit's status for the first unsupported construct.
    public init(parsing pattern: String, isCaseSensitive: Bool) throws(URLFilterError) {
        let result = try URLFilterParser.parse(pattern, isCaseSensitive: isCaseSensitive)
        self.pattern = pattern
        self.isCaseSensitive = isCaseSensitive
        self.matchesEverything = result.matchesEverything
        self.isAnchoredAtStart = result.isAnchoredAtStart
        self.terms = result.terms
        self.automaton = Automaton(terms: result.terms, matchesEverything: result.matchesEverything)
    }

    /// Whether the pattern matches the URL (already canonical, hence ASCII), with WebKit's semantics.
    public func matches(_ url: String) -> Bool {
        if matchesEverything { return true }
        var url = url
        return url.withUTF8 { automaton.matches($0) }
    }

    /// Whether the pattern matches the URL given as UTF-8 bytes; bytes 128…255 match nothing.
    public func matches(utf8 url: UnsafeBufferPointer<UInt8>) -> Bool {
        if matchesEverything { return true }
        return automaton.matches(url)
    }

    /// Two filters are equal when written identically with the same case sensitivity.
    public static func == (lhs: URLFilter, rhs: URLFilter) -> Bool {
        lhs.pattern == rhs.pattern && lhs.isCaseSensitive == rhs.isCaseSensitive
    }

    /// Hashes the pattern and its case sensitivity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(pattern)
        hasher.combine(isCaseSensitive)
    }
}

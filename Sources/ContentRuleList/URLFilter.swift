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
/// Matching runs an automaton built once at initialization: a search for the pattern's required
/// literal first, then a bit-parallel automaton (patterns with up to 63 character sets, no
/// allocation) or a Thompson automaton (longer patterns; scratch space on the stack). Time is
/// linear in the URL length times the pattern size at worst; no pattern can make it backtrack.
public struct URLFilter: Sendable, Hashable {
    /// The pattern as written in the rule list.
    public var pattern: String { storage.pattern }
    /// Whether letters match only in the case written (`url-filter-is-case-sensitive`).
    public let isCaseSensitive: Bool
    /// WebKit's "Matches everything." status: no term has to consume a character, so the rule
    /// becomes a universal action that applies to every URL (`.*`, `a?`, `$`, `^$`, …).
    public let matchesEverything: Bool
    /// Whether the pattern began with `^`; otherwise WebKit searches the whole URL.
    public let isAnchoredAtStart: Bool
    /// The normalized term sequence, including the implicit leading `.*` of unanchored patterns.
    public var terms: [Term] { storage.terms }

    /// A run of characters (ASCII letters lowercased) that the lowercased form of every matching
    /// URL contains, or nil when the pattern has no such run of two or more characters.
    ///
    /// Meant for indexing many filters: only filters whose literal occurs in the lowercased URL
    /// (or that have none) can match it. ``matches(_:)`` already checks it first.
    public var requiredLiteral: [UInt8]? { storage.automaton.requiredLiteral }

    let storage: Storage

    /// Which automaton matches (see ``Automaton/kind``), for tests.
    var automatonKind: String { storage.automaton.kind }

    /// Parses `pattern` with WebKit's rules.
    ///
    /// - Throws: ``URLFilterError`` with WebKit's status for the first unsupported construct.
    public init(parsing pattern: String, isCaseSensitive: Bool) throws(URLFilterError) {
        try self.init(parsing: pattern, isCaseSensitive: isCaseSensitive, allowsPositionAutomaton: true)
    }

    /// Parses `pattern`; tests turn off the position automaton to exercise the Thompson one.
    package init(parsing pattern: String, isCaseSensitive: Bool, allowsPositionAutomaton: Bool) throws(URLFilterError) {
        let result = try URLFilterParser.parse(pattern, isCaseSensitive: isCaseSensitive)
        self.isCaseSensitive = isCaseSensitive
        self.matchesEverything = result.matchesEverything
        self.isAnchoredAtStart = result.isAnchoredAtStart
        let automaton = Automaton(terms: result.terms, matchesEverything: result.matchesEverything,
                                  allowsPositionAutomaton: allowsPositionAutomaton)
        self.storage = Storage(pattern: pattern, terms: result.terms, automaton: automaton)
    }

    /// Whether the pattern matches the URL (already canonical, hence ASCII), with WebKit's semantics.
    public func matches(_ url: String) -> Bool {
        if matchesEverything { return true }
        var url = url
        return url.withUTF8 { storage.automaton.matches($0) }
    }

    /// Whether the pattern matches the URL given as UTF-8 bytes; bytes 128…255 match nothing.
    public func matches(utf8 url: UnsafeBufferPointer<UInt8>) -> Bool {
        if matchesEverything { return true }
        return storage.automaton.matches(url)
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

/// Why WebKit rejects a `url-filter` (or an `if-top-url`/`if-frame-url`-style pattern).
///
/// WebKit reports every one of these as `Invalid or unsupported regular expression.`; the
/// ``status`` says which rule of its regex subset the pattern broke, in WebKit's own words
/// (``statusText``), and ``offset`` says where.
public struct URLFilterError: Error, Sendable, Hashable, CustomStringConvertible {
    /// WebKit's `URLFilterParser::ParseStatus` values that reject a pattern.
    public enum Status: Sendable, Hashable {
        /// A non-ASCII character in the pattern, or an escape that produces one (`\xff`).
        case nonASCII
        /// A built-in class other than `.` outside brackets: `\d`, `\w`, `\s` and their negations.
        case unsupportedCharacterClass
        /// A built-in class inside brackets, such as `[\d]`.
        case atomCharacter
        /// A named backreference to an earlier group: `(?<a>x)\k<a>`.
        case backReference
        /// A named reference to a later group (WebKit's parser never allows them).
        case forwardReference
        /// `^` anywhere but as the very first term outside groups.
        case misplacedStartOfLine
        /// `\b` or `\B`.
        case wordBoundary
        /// Lookahead, lookbehind and modifier groups: `(?=…)`, `(?!…)`, `(?<=…)`, `(?i:…)`.
        case group
        /// Any `|`.
        case disjunction
        /// `$` anywhere but as the very last term outside groups.
        case misplacedEndOfLine
        /// The empty pattern.
        case emptyPattern
        /// Not a valid JavaScript regular expression (legacy syntax), or longer than 1 MiB.
        case yarrError
        /// A `{n,m}` repetition other than `{0,1}`, `{0,}` and `{1,}`.
        case invalidQuantifier
    }

    /// Which rule of the subset the pattern broke.
    public var status: Status
    /// Offset in ``pattern`` (in characters) of the construct WebKit rejects.
    public var offset: Int
    /// The rejected pattern, as written.
    public var pattern: String

    /// Creates an error for `pattern` with `status` at `offset`.
    public init(status: Status, offset: Int, pattern: String) {
        self.status = status
        self.offset = offset
        self.pattern = pattern
    }

    /// WebKit's internal text for ``status``, e.g. `Disjunctions are not supported yet.`
    public var statusText: String {
        switch status {
        case .nonASCII: "Only ASCII characters are supported in pattern."
        case .unsupportedCharacterClass: "Character class is not supported."
        case .atomCharacter: "Builtins character class atoms are not supported yet."
        case .backReference: "Patterns cannot contain backreferences."
        case .forwardReference: "Patterns cannot contain forward references."
        case .misplacedStartOfLine: "Start of line assertion can only appear as the first term in a filter."
        case .wordBoundary: "Word boundaries assertions are not supported yet."
        case .group: "Groups are not supported yet."
        case .disjunction: "Disjunctions are not supported yet."
        case .misplacedEndOfLine: "The end of line assertion must be the last term in an expression."
        case .emptyPattern: "Empty pattern."
        case .yarrError: "Internal error in YARR."
        case .invalidQuantifier: "Arbitrary atom repetitions are not supported."
        }
    }

    /// WebKit's rule-list error followed by the detail, e.g.
    /// `Invalid or unsupported regular expression. Disjunctions are not supported yet. (at offset 1 of "a|b")`.
    public var description: String {
        "Invalid or unsupported regular expression. \(statusText) (at offset \(offset) of \"\(pattern)\")"
    }
}

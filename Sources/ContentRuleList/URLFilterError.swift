/// Why WebKit rejects a `url-filter` (or an `if-top-url`/`if-frame-url`-style pattern).
///
/// WebKit reports every one of these but ``Status/nestedTooDeeply`` as `Invalid or unsupported
/// regular expression.`; the ``status`` says which rule of its regex subset the pattern broke, in
/// the words WebKit logs (``statusText``), ``problem`` what YARR's syntax check found, and
/// ``offset`` says where.
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
        /// Groups nested deeper than 200 levels: Trackerless's own limit, not WebKit's (WebKit
        /// accepts them).
        case nestedTooDeeply
    }

    /// What is wrong with a pattern that is not valid JavaScript regular-expression syntax
    /// (``Status/yarrError``), which WebKit logs only as `Internal error in YARR.`
    public enum SyntaxProblem: Sendable, Hashable {
        /// `[` without its `]`.
        case unterminatedCharacterClass
        /// A range whose end comes before its start, such as `[z-a]`.
        case rangeOutOfOrder
        /// A quantifier with nothing before it to repeat: `+`, `a**`, `^*`.
        case nothingToRepeat
        /// `{n,m}` with n greater than m, or a number too large.
        case quantifierOutOfOrder
        /// `(` without its `)`.
        case missingClosingParenthesis
        /// `)` without its `(`.
        case unmatchedClosingParenthesis
        /// `(?` followed by something that makes no group, such as the inline flags `(?i)`.
        case invalidGroup
        /// A group name that is not an identifier, or `\k<` without a valid name.
        case invalidGroupName
        /// Two groups with the same name in one alternative.
        case duplicateGroupName
        /// `\k` read as a literal while the pattern also names a group.
        case namedReference
        /// A backslash as the last character.
        case escapeAtEnd
        /// Longer than YARR's 1 MiB.
        case tooLong
        /// Deeper than 200 levels of groups (``Status/nestedTooDeeply``).
        case nestedTooDeeply

        /// The problem in a few words, e.g. `missing ] to close the character class`.
        public var text: String {
            switch self {
            case .unterminatedCharacterClass: "missing ] to close the character class"
            case .rangeOutOfOrder: "range out of order in the character class"
            case .nothingToRepeat: "nothing to repeat before the quantifier"
            case .quantifierOutOfOrder: "numbers out of order or too large in the {} quantifier"
            case .missingClosingParenthesis: "missing ) to close a group"
            case .unmatchedClosingParenthesis: ") without a group to close"
            case .invalidGroup: "invalid group after (? (inline flags such as (?i) are not regex syntax)"
            case .invalidGroupName: "invalid group name"
            case .duplicateGroupName: "duplicate group name"
            case .namedReference: "\\k is a literal only when no group is named"
            case .escapeAtEnd: "\\ at the end of the pattern"
            case .tooLong: "pattern longer than 1,048,576 characters"
            case .nestedTooDeeply: "groups nested deeper than 200 levels"
            }
        }
    }

    /// Which rule of the subset the pattern broke.
    public var status: Status
    /// Offset in ``pattern`` (in characters) of the construct WebKit rejects.
    public var offset: Int
    /// The rejected pattern, as written.
    public var pattern: String
    /// For a syntax error, what YARR's check found; nil for the subset's own rejections.
    public var problem: SyntaxProblem?

    /// Creates an error for `pattern` with `status` at `offset`.
    public init(status: Status, offset: Int, pattern: String, problem: SyntaxProblem? = nil) {
        self.status = status
        self.offset = offset
        self.pattern = pattern
        self.problem = status == .nestedTooDeeply ? .nestedTooDeeply : problem
    }

    /// Whether WebKit rejects the pattern too; false for limits of Trackerless's own.
    public var isWebKitError: Bool { status != .nestedTooDeeply }

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
        case .nestedTooDeeply: "Groups nested deeper than 200 levels are not supported by Trackerless (WebKit accepts them)."
        }
    }

    /// Where and why, after the words WebKit logs: `at offset 0: Internal error in YARR. (missing ]
    /// to close the character class)`.
    public var reason: String {
        var text = "at offset \(offset): \(statusText)"
        if let problem, status == .yarrError { text += " (\(problem.text))" }
        return text
    }

    /// WebKit's rule-list error followed by the pattern (its first 200 characters) and the
    /// reason, e.g. `Invalid or unsupported regular expression. ("a|b" at offset 1: Disjunctions
    /// are not supported yet.)`.
    public var description: String {
        let message = isWebKitError ? RuleListError.Kind.invalidRegex.message : RuleListError.Kind.regexNestedTooDeeply.message
        return "\(message) (\(RuleListParser.quoted(pattern)) \(reason))"
    }
}

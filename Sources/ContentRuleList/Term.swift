/// One term of a parsed url-filter: a character set or a group of terms, with a quantifier.
///
/// This is WebKit's `ContentExtensions::Term`. The alphabet is ASCII 1…127 plus the value 0,
/// which stands for the virtual end of the URL: `$` is the set `{0}`, so a pattern ending in `$`
/// must consume that virtual character after the last byte. `.` and negated sets never contain 0,
/// so they never match the end of the URL.
public struct Term: Sendable, Hashable {
    /// How many times the atom repeats. Lazy forms (`*?`) become the greedy ones: a yes/no match
    /// does not depend on greediness.
    public enum Quantifier: UInt8, Sendable, Hashable {
        /// Exactly once.
        case one
        /// `?`, `{0,1}`.
        case zeroOrOne
        /// `*`, `{0,}`.
        case zeroOrMore
        /// `+`, `{1,}`.
        case oneOrMore
    }

    /// What one repetition of a term matches.
    public enum Atom: Sendable, Hashable {
        /// One character from the set.
        case characterSet(CharacterSet)
        /// The terms in sequence (any kind of group: capturing, `(?:…)`, named).
        case group([Term])
    }

    /// A set of characters 0…127 (0 being the virtual end of the URL), possibly inverted.
    ///
    /// As in WebKit, a negated set `[^…]` keeps its listed characters and an inversion flag;
    /// it matches the characters 1…127 that are not listed, never the end of the URL.
    public struct CharacterSet: Sendable, Hashable {
        /// Characters 0…63, bit `c` for character `c`.
        public var low: UInt64
        /// Characters 64…127, bit `c - 64` for character `c`.
        public var high: UInt64
        /// Whether the set matches the characters 1…127 that are *not* listed.
        public var isInverted: Bool

        /// The empty set, or with `isInverted` the set of every character 1…127.
        public init(isInverted: Bool = false) {
            self.low = 0
            self.high = 0
            self.isInverted = isInverted
        }

        /// The set of `.`: every character 1…127, not the end of the URL.
        public static let anyCharacter: CharacterSet = {
            var set = CharacterSet()
            set.low = ~UInt64(1)
            set.high = ~UInt64(0)
            return set
        }()

        /// The set of `$`: only the virtual end of the URL.
        public static let endOfLine: CharacterSet = {
            var set = CharacterSet()
            set.low = 1
            return set
        }()

        /// Lists `character` (0…127), or with `isCaseSensitive == false` both cases of an ASCII letter.
        public mutating func insert(_ character: UInt8, isCaseSensitive: Bool) {
            guard character < 128 else { return }
            if isCaseSensitive || !Self.isASCIILetter(character) {
                setBit(character)
            } else {
                setBit(character | 0x20)
                setBit(character & ~0x20)
            }
        }

        /// Whether the listed characters include `character`, ignoring the inversion.
        public func lists(_ character: UInt8) -> Bool {
            if character < 64 { return low & (1 << UInt64(character)) != 0 }
            if character < 128 { return high & (1 << UInt64(character - 64)) != 0 }
            return false
        }

        /// Whether the set matches `character` (0 meaning the end of the URL; 128…255 never match).
        public func contains(_ character: UInt8) -> Bool {
            guard character < 128 else { return false }
            if isInverted { return character != 0 && !lists(character) }
            return lists(character)
        }

        /// The number of listed characters, ignoring the inversion.
        var listedCount: Int { low.nonzeroBitCount + high.nonzeroBitCount }

        private mutating func setBit(_ character: UInt8) {
            if character < 64 { low |= 1 << UInt64(character) } else { high |= 1 << UInt64(character - 64) }
        }

        private static func isASCIILetter(_ c: UInt8) -> Bool {
            (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
        }
    }

    /// What one repetition matches.
    public var atom: Atom
    /// How many repetitions.
    public var quantifier: Quantifier

    /// Creates a term.
    public init(atom: Atom, quantifier: Quantifier = .one) {
        self.atom = atom
        self.quantifier = quantifier
    }

    /// The canonical `.*`.
    static let dotStar = Term(atom: .characterSet(.anyCharacter), quantifier: .zeroOrMore)

    /// Whether the term is WebKit's `$`: a set whose only listed character is the end of the URL.
    ///
    /// Like WebKit this ignores inversion and quantifier, so `\0` and `[^\0]` count as `$` too.
    public var isEndOfLineAssertion: Bool {
        guard case .characterSet(let set) = atom else { return false }
        return set.listedCount == 1 && set.lists(0)
    }

    /// Whether every match of the term consumes at least one real character (WebKit's rule:
    /// `?`/`*` terms, `$` and groups without such a term do not).
    public var matchesAtLeastOneCharacter: Bool {
        if quantifier == .zeroOrOne || quantifier == .zeroOrMore { return false }
        if isEndOfLineAssertion { return false }
        switch atom {
        case .characterSet: return true
        case .group(let terms): return terms.contains { $0.matchesAtLeastOneCharacter }
        }
    }

    /// WebKit's conservative test for terms equivalent to `.*`: `.*`, `(.*)` with any quantifier,
    /// `(.)*`, `(.+)*`, `(.?)*`, `(.+)?` and `(.?)+`.
    var isKnownToMatchAnyString: Bool {
        switch atom {
        case .characterSet:
            return isUniversalTransition && quantifier == .zeroOrMore
        case .group(let terms):
            guard terms.count == 1, let only = terms.first else { return false }
            if only.isKnownToMatchAnyString { return true }
            guard only.isUniversalTransition else { return false }
            switch (quantifier, only.quantifier) {
            case (.zeroOrMore, _), (.zeroOrOne, .oneOrMore), (.oneOrMore, .zeroOrOne): return true
            default: return false
            }
        }
    }

    /// Whether one repetition matches exactly one arbitrary character 1…127 (`.`, `[^]`, `(.)`).
    var isUniversalTransition: Bool {
        switch atom {
        case .characterSet(let set):
            if set.isInverted { return set.listedCount == 0 }
            return set.listedCount == 127 && !set.lists(0)
        case .group(let terms):
            return terms.count == 1 && terms.first?.isUniversalTransition == true
        }
    }
}

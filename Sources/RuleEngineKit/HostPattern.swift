import ContentRuleList

// Most patterns of real lists name a host: `^[^:]+://+([^/]+[.@])?tracker\.com\.?(:[0-9]+)?/`,
// `^[^:]+://+([^:/]+\.)?tracker\.com[:/]` and their variants with a path. Read from the
// pattern's terms, such a pattern says "a part of the URL's authority is `tracker.com` or ends
// with `.tracker.com`", which a hash table answers with a few lookups per URL instead of running
// one automaton per rule.

/// The host a url-filter (or condition pattern) requires, read from its parsed terms.
///
/// The authority of a URL is what follows the scheme's `:` and the slashes after it, up to the
/// next `/`. A host pattern's host ends where a `:` or `/` follows (or the URL ends), so it lies in
/// one "segment" of the authority: the text between its start or a `:` and the next `:` or `/`.
/// For a canonical URL without userinfo the first segment is the host. Where the host may start
/// in its segment depends on the pattern's ``Prefix`` (see ``HostProbe``); looking the
/// segments' suffixes up in a table finds every rule that can match.
struct HostPattern: Sendable, Hashable {
    /// What the pattern allows between the scheme's slashes and the host.
    enum Prefix: UInt32, Sendable, Hashable {
        /// Nothing: the host starts the authority.
        case none = 0
        /// `([^:/]+\.)?`: subdomain labels; the host is the end of the first segment, after a dot
        /// and at least one other character, or the whole segment.
        case subdomains = 1
        /// `([^/]+[.@])?`: subdomain labels or userinfo; the host starts the authority, or follows
        /// a `.` or `@` that is not its first character, in any segment.
        case subdomainsOrUserinfo = 2
        /// `([^/]*@)?`: userinfo; the host starts the authority or follows any `@`.
        case userinfo = 3
    }

    /// What the pattern requires after the host, when the engine can check it without an
    /// automaton.
    enum Remainder: Sendable, Hashable {
        /// `[:/]`: the host is followed by `:` or `/` (any URL with a path).
        case separator
        /// `(:[0-9]+)?` when `allowsPort`, then the literal (starting with `/`), then the end of
        /// the URL when `isAnchoredAtEnd`.
        case path(literal: [UInt8], allowsPort: Bool, isAnchoredAtEnd: Bool)
    }

    /// The host, lowercased.
    var host: [UInt8]
    /// What may come before the host.
    var prefix: Prefix
    /// Whether the host may be followed by one `.` (`\.?`, the final dot of a fully qualified
    /// name) before the remainder.
    var allowsFinalDot: Bool
    /// What follows the host, when a matcher simpler than the pattern's automaton decides it
    /// exactly; nil when the automaton must confirm each candidate.
    var remainder: Remainder?
    /// Whether the host's letters match only in lowercase: a case-sensitive pattern's, written in
    /// lowercase (the builder's spelling, `CaseSensitiveSpelling`). The table's lookups ignore
    /// case; ``HostProbe`` then skips the value where the URL has a capital in the host's place
    /// (the opaque host of another scheme, a user name).
    var isHostCaseSensitive: Bool

    init(
        host: [UInt8], prefix: Prefix, allowsFinalDot: Bool = false, remainder: Remainder?, isHostCaseSensitive: Bool = false
    ) {
        self.host = host
        self.prefix = prefix
        self.allowsFinalDot = allowsFinalDot
        self.remainder = remainder
        self.isHostCaseSensitive = isHostCaseSensitive
    }

    /// The value a table files the rule (or condition) `index` under: the index, then whether the
    /// host matches only in lowercase, whether a final dot may follow, and the prefix, in the bits
    /// ``HostProbe`` reads.
    func tableValue(_ index: UInt32) -> UInt32 {
        index << 4 | (isHostCaseSensitive ? 8 : 0) | (allowsFinalDot ? 4 : 0) | prefix.rawValue
    }

    /// Reads the host requirement of `filter`, or nil when it has none.
    init?(_ filter: URLFilter) {
        guard filter.isAnchoredAtStart, !filter.matchesEverything else { return nil }
        let terms = filter.terms
        var index = 0
        // The scheme: one or more terms that cannot match `:` (nor the end of the URL), then `:`.
        var isExact = true
        while index < terms.count, !Self.isSingle(terms[index], UInt8(ascii: ":")) {
            guard case .characterSet(let set) = terms[index].atom, !set.contains(UInt8(ascii: ":")),
                !set.contains(0)
            else { return nil }
            index += 1
        }
        // At least one scheme character: the authority is only read after a non-empty scheme.
        guard index > 0, index < terms.count,
            terms[..<index].contains(where: { $0.quantifier == .one || $0.quantifier == .oneOrMore })
        else { return nil }
        if !(index == 1 && Self.isAnythingBut(terms[0], [UInt8(ascii: ":")], quantifier: .oneOrMore)) {
            isExact = false
        }
        index += 1  // ":"
        // `//` then any further slashes: `/` then `/+`, or `/` `/`.
        guard index + 1 < terms.count, Self.isSingle(terms[index], UInt8(ascii: "/")) else { return nil }
        let secondSlash = terms[index + 1]
        guard case .characterSet(let slashSet) = secondSlash.atom, Self.isOnly(slashSet, UInt8(ascii: "/")),
            secondSlash.quantifier == .one || secondSlash.quantifier == .oneOrMore
        else { return nil }
        if secondSlash.quantifier != .oneOrMore { isExact = false }
        index += 2
        // An optional group of subdomains or userinfo.
        var prefix = Prefix.none
        if index < terms.count, case .group(let inner) = terms[index].atom,
            terms[index].quantifier == .zeroOrOne || terms[index].quantifier == .zeroOrMore
        {
            guard let (groupPrefix, isExactGroup) = Self.prefix(of: inner) else { return nil }
            prefix = groupPrefix
            if !isExactGroup { isExact = false }
            index += 1
        }
        // `[^:/]*` before the host: the host only has to end a segment, so the part of the host
        // after its first dot is a suffix of the segment after a dot. File the rule under that
        // part; the automaton confirms candidates.
        var endsWithHost = false
        if prefix == .none || prefix == .userinfo, index < terms.count, terms[index].quantifier == .zeroOrMore,
            case .characterSet(let set) = terms[index].atom, !set.contains(UInt8(ascii: ":")),
            !set.contains(UInt8(ascii: "/")), !set.contains(0)
        {
            endsWithHost = true
            isExact = false
            index += 1
        }
        // The host: single characters other than `:` and `/`.
        var host: [UInt8] = []
        // Letters that match one case (a case-sensitive pattern's) and letters in both cases.
        var hostHasOneCaseLetters = false, hostHasEitherCaseLetters = false
        while index < terms.count, let character = Self.character(of: terms[index]),
            character != UInt8(ascii: ":"), character != UInt8(ascii: "/")
        {
            host.append(character)
            if character >= 0x61 && character <= 0x7A {
                if Self.isEitherCaseLetter(terms[index]) { hostHasEitherCaseLetters = true } else { hostHasOneCaseLetters = true }
            }
            index += 1
        }
        if endsWithHost {
            guard let dot = host.firstIndex(of: UInt8(ascii: ".")), dot + 1 < host.count else { return nil }
            host = Array(host[(dot + 1)...])
            // After a dot, past the first character of the authority (`[^:/]*` and the dot).
            prefix = prefix == .none ? .subdomains : .subdomainsOrUserinfo
        }
        guard !host.isEmpty else { return nil }
        // `\.?`: the final dot of a fully qualified host.
        var allowsFinalDot = false
        if index < terms.count, terms[index].quantifier == .zeroOrOne, case .characterSet(let set) = terms[index].atom,
            Self.isOnly(set, UInt8(ascii: "."))
        {
            allowsFinalDot = true
            index += 1
        }
        // The host must end its segment: whatever follows starts with `:` or `/` (or the URL's end).
        let rest = terms[index...]
        guard let first = Self.firstCharacters(of: rest), first.isSubset(of: [0, UInt8(ascii: ":"), UInt8(ascii: "/")])
        else { return nil }
        self.host = host
        self.prefix = prefix
        self.allowsFinalDot = allowsFinalDot
        // One bit says the host's case: a host with letters of both kinds is the automaton's, on
        // every candidate the lookup, which ignores case, finds.
        isHostCaseSensitive = hostHasOneCaseLetters && !hostHasEitherCaseLetters
        if hostHasOneCaseLetters && hostHasEitherCaseLetters { isExact = false }
        self.remainder = isExact ? Self.remainder(Array(rest)) : nil
    }

    /// The prefix a group of subdomains or userinfo allows, and whether the group is exactly the
    /// one the prefix names; nil for any other group. A group that allows less is filed under
    /// the prefix that allows more, and its automaton confirms candidates.
    private static func prefix(of inner: [Term]) -> (Prefix, isExact: Bool)? {
        guard inner.count == 2, case .characterSet(let set) = inner[0].atom, !set.contains(UInt8(ascii: "/")),
            !set.contains(0), case .characterSet(let last) = inner[1].atom, inner[1].quantifier == .one
        else { return nil }
        let dot = UInt8(ascii: "."), at = UInt8(ascii: "@")
        let atLeastOne = inner[0].quantifier == .one || inner[0].quantifier == .oneOrMore
        if isOnly(last, dot) {
            // `[^:/]+\.`: the characters before the dot stay in the first segment.
            guard atLeastOne, !set.contains(UInt8(ascii: ":")) else { return nil }
            return (.subdomains, isAnythingBut(inner[0], [UInt8(ascii: ":"), UInt8(ascii: "/")], quantifier: .oneOrMore))
        }
        if isOnly(last, at) {
            return (.userinfo, isAnythingBut(inner[0], [UInt8(ascii: "/")], quantifier: .zeroOrMore))
        }
        let words = last.matchedWords
        guard atLeastOne, words.high == 1 << UInt64(at - 64), words.low == 1 << UInt64(dot) else { return nil }
        return (.subdomainsOrUserinfo, isAnythingBut(inner[0], [UInt8(ascii: "/")], quantifier: .oneOrMore))
    }

    /// The remainder, when it is `[:/]` or an optional port and a literal path.
    private static func remainder(_ terms: [Term]) -> Remainder? {
        if terms.count == 1, case .characterSet(let set) = terms[0].atom, terms[0].quantifier == .one {
            let words = set.matchedWords
            let separators: UInt64 = 1 << UInt64(UInt8(ascii: ":")) | 1 << UInt64(UInt8(ascii: "/"))
            return words.low == separators && words.high == 0 ? .separator : nil
        }
        var index = 0
        var allowsPort = false
        if index < terms.count, case .group(let inner) = terms[index].atom, terms[index].quantifier == .zeroOrOne {
            guard inner.count == 2, isSingle(inner[0], UInt8(ascii: ":")), inner[1].quantifier == .oneOrMore,
                case .characterSet(let digits) = inner[1].atom, isDigits(digits)
            else { return nil }
            allowsPort = true
            index += 1
        }
        var literal: [UInt8] = []
        var isAnchoredAtEnd = false
        while index < terms.count {
            if terms[index].isEndOfLineAssertion && index == terms.count - 1 && terms[index].quantifier == .one {
                isAnchoredAtEnd = true
                break
            }
            // Letters of one case (a case-sensitive pattern's) would need an exact comparison:
            // leave those to the automaton. A letter in both cases (`[xX]`) is compared ignoring case.
            guard let character = character(of: terms[index]),
                !(character >= 0x61 && character <= 0x7A && !isEitherCaseLetter(terms[index]))
            else { return nil }
            literal.append(character)
            index += 1
        }
        guard literal.first == UInt8(ascii: "/") else { return nil }
        return .path(literal: literal, allowsPort: allowsPort, isAnchoredAtEnd: isAnchoredAtEnd)
    }

    /// The lowercased character a term matches exactly once, or nil: a single character, or a
    /// letter in both cases (a case-insensitive pattern's letter, or `[xX]` in a case-sensitive one).
    static func character(of term: Term) -> UInt8? {
        guard term.quantifier == .one, case .characterSet(let set) = term.atom else { return nil }
        let words = set.matchedWords
        let count = words.low.nonzeroBitCount + words.high.nonzeroBitCount
        guard words.low & 1 == 0 else { return nil }
        if count == 1 {
            let character = words.low != 0 ? UInt8(words.low.trailingZeroBitCount) : UInt8(64 + words.high.trailingZeroBitCount)
            let isUpper = character >= 0x41 && character <= 0x5A
            // A lone uppercase letter only matches when the pattern is case-sensitive.
            return isUpper ? nil : character
        }
        return eitherCaseLetter(words)
    }

    /// Whether the term is one letter in both its cases, once.
    static func isEitherCaseLetter(_ term: Term) -> Bool {
        guard term.quantifier == .one, case .characterSet(let set) = term.atom else { return false }
        return eitherCaseLetter(set.matchedWords) != nil
    }

    /// The lowercase letter of a set that is one letter in both its cases, else nil.
    private static func eitherCaseLetter(_ words: (low: UInt64, high: UInt64)) -> UInt8? {
        guard words.low == 0, words.high.nonzeroBitCount == 2 else { return nil }
        let upper = UInt8(64 + words.high.trailingZeroBitCount)
        let lower = UInt8(127 - words.high.leadingZeroBitCount)
        guard upper >= 0x41, upper <= 0x5A, lower == upper | 0x20 else { return nil }
        return lower
    }

    /// The characters (0 for the end of the URL) that can come first in a match of `terms`, or
    /// nil when `terms` can match the empty string.
    static func firstCharacters(of terms: ArraySlice<Term>) -> Set<UInt8>? {
        var result: Set<UInt8> = []
        for term in terms {
            let first: Set<UInt8>?
            switch term.atom {
            case .characterSet(let set):
                first = Set((0..<128).map(UInt8.init).filter { set.contains($0) })
            case .group(let inner):
                first = firstCharacters(of: inner[...])
            }
            guard let first else {
                // A nullable group: its first characters may be skipped, so also take what follows.
                if case .group(let inner) = term.atom { result.formUnion(firstCharacters(ofNullable: inner[...])) }
                continue
            }
            result.formUnion(first)
            if term.quantifier == .one || term.quantifier == .oneOrMore { return result }
        }
        return nil
    }

    /// The first characters of the non-empty matches of a nullable sequence.
    private static func firstCharacters(ofNullable terms: ArraySlice<Term>) -> Set<UInt8> {
        var result: Set<UInt8> = []
        for term in terms {
            switch term.atom {
            case .characterSet(let set):
                result.formUnion((0..<128).map(UInt8.init).filter { set.contains($0) })
            case .group(let inner):
                if let first = firstCharacters(of: inner[...]) {
                    result.formUnion(first)
                } else {
                    result.formUnion(firstCharacters(ofNullable: inner[...]))
                }
            }
        }
        return result
    }

    private static func isSingle(_ term: Term, _ character: UInt8) -> Bool {
        guard term.quantifier == .one, case .characterSet(let set) = term.atom else { return false }
        return isOnly(set, character)
    }

    private static func isOnly(_ set: Term.CharacterSet, _ character: UInt8) -> Bool {
        let words = set.matchedWords
        return character < 64
            ? words.low == 1 << UInt64(character) && words.high == 0
            : words.low == 0 && words.high == 1 << UInt64(character - 64)
    }

    /// Whether the term is `[^…]` of exactly `excluded`, with the quantifier.
    private static func isAnythingBut(_ term: Term, _ excluded: [UInt8], quantifier: Term.Quantifier) -> Bool {
        guard term.quantifier == quantifier, case .characterSet(let set) = term.atom else { return false }
        var expected = Term.CharacterSet(isInverted: true)
        for character in excluded { expected.insert(character, isCaseSensitive: true) }
        let words = set.matchedWords, wanted = expected.matchedWords
        return words.low == wanted.low && words.high == wanted.high
    }

    private static func isDigits(_ set: Term.CharacterSet) -> Bool {
        let words = set.matchedWords
        return words.high == 0 && words.low == 0x03FF << 48
    }

    /// Reads the common shapes without parsing the pattern: `^[^:]+://+`, optionally
    /// `([^/]+[.@])?`, `([^:/]+\.)?` or `([^/]*@)?`, a host of lowercase letters, digits, `-`,
    /// `_` and `\.`, optionally `\.?`, then `[:/]` or an optional `(:[0-9]+)?` and a path of
    /// letters, digits, `-`, `_`, `/` and `\.`, optionally `$`; in a case-sensitive pattern, a path
    /// whose letters are each in both cases, `[xX]`. Gives what ``init(_:)`` gives for the parsed
    /// pattern; nil for any other text.
    init?(text pattern: String, isCaseSensitive: Bool) {
        var pattern = pattern
        guard let read = pattern.withUTF8({ Self.read($0, isCaseSensitive: isCaseSensitive) }) else { return nil }
        self = read
    }

    private static let schemePrefix = Array("^[^:]+://+".utf8)
    private static let prefixGroups: [(text: [UInt8], prefix: Prefix)] = [
        (Array(#"([^/]+[.@])?"#.utf8), .subdomainsOrUserinfo), (Array(#"([^:/]+\.)?"#.utf8), .subdomains),
        (Array(#"([^/]*@)?"#.utf8), .userinfo),
    ]
    private static let finalDot = Array(#"\.?"#.utf8)
    private static let separator = Array("[:/]".utf8)
    private static let portGroup = Array("(:[0-9]+)?".utf8)

    private static func read(_ text: UnsafeBufferPointer<UInt8>, isCaseSensitive: Bool) -> HostPattern? {
        var index = 0
        func consume(_ expected: [UInt8]) -> Bool {
            guard text.count - index >= expected.count else { return false }
            for offset in 0..<expected.count where text[index + offset] != expected[offset] { return false }
            index += expected.count
            return true
        }
        guard consume(schemePrefix) else { return nil }
        let prefix = prefixGroups.first { consume($0.text) }?.prefix ?? .none
        let host = literal(text, &index, allowsSlash: false, isCaseSensitive: isCaseSensitive)
        guard !host.isEmpty else { return nil }
        // The host's letters are lowercase: in a case-sensitive pattern, only in lowercase.
        let isHostCaseSensitive = isCaseSensitive && host.contains { $0 &- 0x61 < 26 }
        let allowsFinalDot = consume(finalDot)
        if consume(separator) {
            guard index == text.count else { return nil }
            return HostPattern(
                host: host, prefix: prefix, allowsFinalDot: allowsFinalDot, remainder: .separator,
                isHostCaseSensitive: isHostCaseSensitive)
        }
        let allowsPort = consume(portGroup)
        guard index < text.count, text[index] == UInt8(ascii: "/") else { return nil }
        let path = literal(text, &index, allowsSlash: true, isCaseSensitive: isCaseSensitive)
        let isAnchoredAtEnd = index == text.count - 1 && text[index] == UInt8(ascii: "$")
        guard index == text.count || isAnchoredAtEnd else { return nil }
        return HostPattern(
            host: host, prefix: prefix, allowsFinalDot: allowsFinalDot,
            remainder: .path(literal: path, allowsPort: allowsPort, isAnchoredAtEnd: isAnchoredAtEnd),
            isHostCaseSensitive: isHostCaseSensitive)
    }

    /// Reads a run of plain characters and `\.`, lowercased, up to anything else (an optional
    /// `\.?` is not part of it). In a case-sensitive pattern's path a letter is read only in both
    /// its cases, `[xX]`; a lone letter ends the run.
    private static func literal(
        _ text: UnsafeBufferPointer<UInt8>, _ index: inout Int, allowsSlash: Bool, isCaseSensitive: Bool
    ) -> [UInt8] {
        var literal: [UInt8] = []
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: "\\") {
                guard index + 1 < text.count, text[index + 1] == UInt8(ascii: "."),
                    index + 2 == text.count || text[index + 2] != UInt8(ascii: "?")
                else { break }
                literal.append(UInt8(ascii: "."))
                index += 2
                continue
            }
            if allowsSlash && isCaseSensitive {
                if byte == UInt8(ascii: "["), index + 3 < text.count, text[index + 3] == UInt8(ascii: "]"),
                    text[index + 1] | 0x20 == text[index + 2] | 0x20, text[index + 1] != text[index + 2],
                    (text[index + 1] | 0x20) &- 0x61 < 26
                {
                    literal.append(text[index + 1] | 0x20)
                    index += 4
                    continue
                }
                if (byte | 0x20) &- 0x61 < 26 { break }
            }
            if byte &- 0x61 < 26 || byte &- 0x30 < 10 || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
                || (allowsSlash && byte == UInt8(ascii: "/"))
            {
                literal.append(byte)
            } else if allowsSlash && byte &- 0x41 < 26 {
                // Path letters of a case-insensitive pattern match either case.
                literal.append(byte | 0x20)
            } else {
                break
            }
            index += 1
        }
        return literal
    }
}

/// Turns a url-filter pattern into WebKit's normalized ``Term`` sequence, or WebKit's rejection.
///
/// Two stages in one pass, as in WebKit: a syntax reader that accepts exactly what
/// JavaScriptCore's YARR parser accepts in legacy (non-unicode) mode with numbered and forward
/// named references disabled, and a ``TermBuilder`` that receives its tokens like WebKit's
/// `URLFilterParser` delegate does and applies the subset's restrictions and normalizations.
/// A syntax error wins over any subset rejection (WebKit runs the whole YARR parse first);
/// otherwise the first rejection, in pattern order, is reported.
struct URLFilterParser {
    /// A successfully parsed pattern.
    struct Result {
        var terms: [Term]
        var isAnchoredAtStart: Bool
        var matchesEverything: Bool
    }

    /// YARR's `MAX_PATTERN_SIZE`.
    static let maximumPatternLength = 1024 * 1024

    /// Deepest group nesting we accept. WebKit has no such limit (WebKitGTK 2.50.6 compiles
    /// 10,000 levels, in 6 s), but terms nest like the groups and are built, compared and freed
    /// recursively, so an absurd depth would exhaust the stack; deeper patterns get their own
    /// error, not WebKit's. Real filters nest a few levels.
    static let maximumGroupDepth = 200

    /// Parses `pattern` with WebKit's rules.
    static func parse(_ pattern: String, isCaseSensitive: Bool) throws(URLFilterError) -> Result {
        if let index = pattern.unicodeScalars.firstIndex(where: { !$0.isASCII }) {
            let offset = pattern.distance(from: pattern.startIndex, to: index)
            throw URLFilterError(status: .nonASCII, offset: offset, pattern: pattern)
        }
        if pattern.isEmpty {
            throw URLFilterError(status: .emptyPattern, offset: 0, pattern: pattern)
        }
        let bytes = Array(pattern.utf8)
        if bytes.count > maximumPatternLength {
            throw URLFilterError(status: .yarrError, offset: maximumPatternLength, pattern: pattern, problem: .tooLong)
        }
        var parser = URLFilterParser(bytes: bytes, isCaseSensitive: isCaseSensitive)
        parser.readTokens()
        if parser.syntaxErrorOffset == nil, parser.sawIdentityEscapeK, !parser.groupNames.isEmpty {
            // `\k` read as a literal `k` is only legacy syntax while the pattern has no named group.
            parser.fail(.namedReference, at: 0)
        }
        if let offset = parser.syntaxErrorOffset {
            if parser.syntaxProblem == .nestedTooDeeply {
                throw URLFilterError(status: .nestedTooDeeply, offset: offset, pattern: pattern)
            }
            throw URLFilterError(status: .yarrError, offset: offset, pattern: pattern, problem: parser.syntaxProblem)
        }
        switch parser.builder.finish(patternLength: bytes.count) {
        case .success(let result): return result
        case .failure(let rejection):
            throw URLFilterError(status: rejection.status, offset: rejection.offset, pattern: pattern)
        }
    }

    private let bytes: [UInt8]
    private var index = 0
    private var builder: TermBuilder
    private var syntaxErrorOffset: Int?
    private var syntaxProblem: URLFilterError.SyntaxProblem?
    private var parentheses: [ParenthesesKind] = []
    private var groupNames = GroupNames()
    private var sawIdentityEscapeK = false

    private init(bytes: [UInt8], isCaseSensitive: Bool) {
        self.bytes = bytes
        self.builder = TermBuilder(isCaseSensitive: isCaseSensitive)
    }

    private enum ParenthesesKind { case subpattern, assertion, lookbehind }

    /// What the previous token was, for deciding whether a quantifier has something to repeat.
    private enum TokenKind { case notAtom, atom, lookbehind }

    /// The result of reading an escape sequence.
    private enum Escape {
        case character(UInt32)
        case builtInClass
        case wordBoundary
        case backReference
        case failed
    }

    // MARK: - Reading helpers

    private var atEnd: Bool { index >= bytes.count }
    private var peek: UInt8 { index < bytes.count ? bytes[index] : 0 }
    private var peekIsDigit: Bool { !atEnd && Self.isDigit(peek) }

    private mutating func consume() -> UInt8 {
        let byte = peek
        index += 1
        return byte
    }

    private mutating func tryConsume(_ byte: UInt8) -> Bool {
        guard !atEnd, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func fail(_ problem: URLFilterError.SyntaxProblem, at offset: Int) {
        if syntaxErrorOffset == nil {
            syntaxErrorOffset = offset
            syntaxProblem = problem
        }
    }

    private static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
    private static func isOctalDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x37 }
    private static func isASCIILetter(_ c: UInt32) -> Bool { (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) }
    private static func hexValue(_ c: UInt8) -> UInt32? {
        switch c {
        case 0x30...0x39: UInt32(c - 0x30)
        case 0x41...0x46: UInt32(c - 0x41 + 10)
        case 0x61...0x66: UInt32(c - 0x61 + 10)
        default: nil
        }
    }

    /// Decimal digits, saturating at `UInt64.max` (YARR's "infinite").
    private mutating func consumeNumber() -> UInt64 {
        var value: UInt64 = 0
        var overflowed = false
        while peekIsDigit {
            let digit = UInt64(consume() - 0x30)
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(digit)
            overflowed = overflowed || o1 || o2
            value = sum
        }
        return overflowed ? UInt64.max : value
    }

    /// Annex B legacy octal: at most `count` digits, stopping before the value would exceed 0o377.
    private mutating func consumeOctal(count: Int) -> UInt32 {
        var value: UInt32 = 0
        var remaining = count
        while remaining > 0, value < 32, !atEnd, Self.isOctalDigit(peek) {
            value = value * 8 + UInt32(consume() - 0x30)
            remaining -= 1
        }
        return value
    }

    /// Exactly `count` hex digits, or nothing consumed.
    private mutating func tryConsumeHex(count: Int) -> UInt32? {
        let saved = index
        var value: UInt32 = 0
        for _ in 0..<count {
            guard !atEnd, let digit = Self.hexValue(peek) else {
                index = saved
                return nil
            }
            index += 1
            value = value << 4 | digit
        }
        return value
    }

    // MARK: - Tokens

    private mutating func readTokens() {
        var last = TokenKind.notAtom
        while !atEnd && syntaxErrorOffset == nil {
            let start = index
            switch peek {
            case UInt8(ascii: "|"):
                index += 1
                builder.disjunction(at: start)
                groupNames.nextAlternative()
                last = .notAtom
            case UInt8(ascii: "("):
                readParenthesesBegin()
                last = .notAtom
            case UInt8(ascii: ")"):
                last = readParenthesesEnd()
            case UInt8(ascii: "^"):
                index += 1
                builder.startOfLine(at: start)
                last = .notAtom
            case UInt8(ascii: "$"):
                index += 1
                builder.endOfLine(at: start)
                last = .notAtom
            case UInt8(ascii: "."):
                index += 1
                builder.builtInClass(isDot: true, at: start)
                last = .atom
            case UInt8(ascii: "["):
                readCharacterClass()
                last = .atom
            case UInt8(ascii: "\\"):
                switch readEscape(inCharacterClass: false) {
                case .character(let c):
                    builder.character(c, at: start)
                    last = .atom
                case .builtInClass:
                    builder.builtInClass(isDot: false, at: start)
                    last = .atom
                case .wordBoundary:
                    builder.wordBoundary(at: start)
                    last = .notAtom
                case .backReference:
                    builder.backReference(at: start)
                    last = .atom
                case .failed:
                    last = .notAtom
                }
            case UInt8(ascii: "*"):
                index += 1
                quantify(last, minimum: 0, maximum: UInt64(UInt32.max), at: start)
                last = .notAtom
            case UInt8(ascii: "+"):
                index += 1
                quantify(last, minimum: 1, maximum: UInt64(UInt32.max), at: start)
                last = .notAtom
            case UInt8(ascii: "?"):
                index += 1
                quantify(last, minimum: 0, maximum: 1, at: start)
                last = .notAtom
            case UInt8(ascii: "{") where readBraceQuantifier(last, at: start):
                last = .notAtom
            default:
                // Includes `]`, `}` and a `{` that does not start a complete quantifier: legacy
                // syntax reads them as literals.
                builder.character(UInt32(consume()), at: start)
                last = .atom
            }
        }
        if syntaxErrorOffset == nil && !parentheses.isEmpty {
            fail(.missingClosingParenthesis, at: bytes.count)
        }
    }

    private mutating func quantify(_ last: TokenKind, minimum: UInt64, maximum: UInt64, at start: Int) {
        switch last {
        case .atom:
            _ = tryConsume(UInt8(ascii: "?"))  // lazy: same yes/no answer
            builder.quantify(minimum: minimum, maximum: maximum, at: start)
        case .notAtom, .lookbehind:
            fail(.nothingToRepeat, at: start)
        }
    }

    /// Reads `{n}`, `{n,}` or `{n,m}`; returns false (consuming nothing) when the brace is a literal.
    private mutating func readBraceQuantifier(_ last: TokenKind, at start: Int) -> Bool {
        index += 1
        if peekIsDigit {
            let minimum = consumeNumber()
            var maximum = minimum
            if tryConsume(UInt8(ascii: ",")) {
                maximum = peekIsDigit ? consumeNumber() : UInt64.max
            }
            if tryConsume(UInt8(ascii: "}")) {
                if minimum == UInt64.max || minimum > maximum {
                    fail(.quantifierOutOfOrder, at: start)
                } else {
                    let limit = UInt64(UInt32.max)
                    quantify(last, minimum: min(minimum, limit), maximum: min(maximum, limit), at: start)
                }
                return true
            }
        }
        index = start
        return false
    }

    // MARK: - Escapes

    private mutating func readEscape(inCharacterClass: Bool) -> Escape {
        let backslash = index
        index += 1
        guard !atEnd else {
            fail(.escapeAtEnd, at: backslash)
            return .failed
        }
        let c = peek
        switch c {
        case UInt8(ascii: "b"):
            index += 1
            return inCharacterClass ? .character(8) : .wordBoundary
        case UInt8(ascii: "B"):
            index += 1
            return inCharacterClass ? .character(UInt32(c)) : .wordBoundary
        case UInt8(ascii: "d"), UInt8(ascii: "s"), UInt8(ascii: "w"),
             UInt8(ascii: "D"), UInt8(ascii: "S"), UInt8(ascii: "W"):
            index += 1
            return .builtInClass
        case UInt8(ascii: "0"):
            index += 1
            if !peekIsDigit { return .character(0) }
            return .character(consumeOctal(count: 2))
        case UInt8(ascii: "1")...UInt8(ascii: "9"):
            // Numbered backreferences are disabled in WebKit's parse, so these are legacy octal
            // escapes (`\1`…`\7`) or identity escapes (`\8`, `\9`).
            if c < UInt8(ascii: "8") { return .character(consumeOctal(count: 3)) }
            index += 1
            return .character(UInt32(c))
        case UInt8(ascii: "f"): index += 1; return .character(0x0C)
        case UInt8(ascii: "n"): index += 1; return .character(0x0A)
        case UInt8(ascii: "r"): index += 1; return .character(0x0D)
        case UInt8(ascii: "t"): index += 1; return .character(0x09)
        case UInt8(ascii: "v"): index += 1; return .character(0x0B)
        case UInt8(ascii: "c"):
            let atC = index
            index += 1
            if !atEnd {
                let control = UInt32(consume())
                if Self.isASCIILetter(control) { return .character(control & 0x1F) }
                if inCharacterClass && (Self.isDigit(UInt8(control)) || control == UInt32(UInt8(ascii: "_"))) {
                    return .character(control & 0x1F)
                }
            }
            // `\c` without a control letter is a literal backslash; the `c` is read next.
            index = atC
            return .character(UInt32(UInt8(ascii: "\\")))
        case UInt8(ascii: "x"):
            index += 1
            return .character(tryConsumeHex(count: 2) ?? UInt32(c))
        case UInt8(ascii: "u"):
            index += 1
            if atEnd { return .character(UInt32(c)) }
            return .character(tryConsumeHex(count: 4) ?? UInt32(c))
        case UInt8(ascii: "k"):
            index += 1
            let afterK = index
            if !inCharacterClass && tryConsume(UInt8(ascii: "<")) {
                let name = readGroupName()
                if syntaxErrorOffset != nil { return .failed }
                if let name, groupNames.contains(name) { return .backReference }
            }
            index = afterK
            sawIdentityEscapeK = true
            return .character(UInt32(c))
        default:
            index += 1
            return .character(UInt32(c))
        }
    }

    // MARK: - Groups

    private mutating func readParenthesesBegin() {
        let start = index
        guard parentheses.count < Self.maximumGroupDepth else { return fail(.nestedTooDeeply, at: start) }
        index += 1
        var kind = ParenthesesKind.subpattern
        if tryConsume(UInt8(ascii: "?")) {
            guard !atEnd else { return fail(.invalidGroup, at: index) }
            switch peek {
            case UInt8(ascii: ":"):
                index += 1
                builder.groupBegin(at: start)
            case UInt8(ascii: "="), UInt8(ascii: "!"):
                index += 1
                builder.unsupportedGroup(at: start)
                kind = .assertion
            case UInt8(ascii: "<"):
                index += 1
                let name = readGroupName()
                if syntaxErrorOffset != nil { return }
                if let name {
                    if sawIdentityEscapeK { return fail(.namedReference, at: start) }
                    guard groupNames.add(name) else { return fail(.duplicateGroupName, at: start) }
                    builder.groupBegin(at: start)
                } else if tryConsume(UInt8(ascii: "=")) || tryConsume(UInt8(ascii: "!")) {
                    builder.unsupportedGroup(at: start)
                    kind = .lookbehind
                } else {
                    return fail(.invalidGroupName, at: start)
                }
            case UInt8(ascii: "-"), UInt8(ascii: "i"), UInt8(ascii: "m"), UInt8(ascii: "s"):
                readModifiers(at: start)
                if syntaxErrorOffset != nil { return }
                builder.unsupportedGroup(at: start)
            default:
                return fail(.invalidGroup, at: index)
            }
        } else {
            builder.groupBegin(at: start)
        }
        parentheses.append(kind)
        groupNames.pushParenthesis()
    }

    /// Reads `(?ims-ims:` modifier flags up to the colon, checking them as YARR does.
    private mutating func readModifiers(at start: Int) {
        var set: Set<UInt8> = []
        var unset: Set<UInt8> = []
        var negated = false
        var valid = true
        while !atEnd {
            let c = consume()
            if c == UInt8(ascii: ":") { break }
            switch c {
            case UInt8(ascii: "-"):
                if negated { valid = false }
                negated = true
            case UInt8(ascii: "i"), UInt8(ascii: "m"), UInt8(ascii: "s"):
                if negated {
                    if !unset.insert(c).inserted { valid = false }
                } else if !set.insert(c).inserted {
                    valid = false
                }
            default:
                valid = false
            }
        }
        if !valid || !set.isDisjoint(with: unset) || (set.isEmpty && unset.isEmpty) {
            fail(.invalidGroup, at: start)
        }
    }

    private mutating func readParenthesesEnd() -> TokenKind {
        let start = index
        index += 1
        guard let kind = parentheses.popLast() else {
            fail(.unmatchedClosingParenthesis, at: start)
            return .notAtom
        }
        builder.groupEnd(at: start)
        groupNames.popParenthesis()
        // Legacy syntax lets lookaheads be quantified, not lookbehinds.
        return kind == .lookbehind ? .lookbehind : .atom
    }

    /// Reads `name>` after `<`; nil (consuming nothing) if it is not a group name.
    private mutating func readGroupName() -> String? {
        guard !atEnd else { return nil }
        let saved = index
        var name = String.UnicodeScalarView()
        if let first = readIdentifierCharacter(), Self.isIdentifierStart(first) {
            name.append(first)
            while !atEnd {
                guard let next = readIdentifierCharacter() else { break }
                if next == ">" { return String(name) }
                if !Self.isIdentifierPart(next) { break }
                name.append(next)
            }
        }
        index = saved
        return nil
    }

    /// One character of a group name: a literal, `\uXXXX` or `\u{X…}`; other escapes are errors.
    private mutating func readIdentifierCharacter() -> Unicode.Scalar? {
        guard tryConsume(UInt8(ascii: "\\")) else { return Unicode.Scalar(consume()) }
        let escape = index - 1
        guard tryConsume(UInt8(ascii: "u")), !atEnd else {
            fail(.invalidGroupName, at: escape)
            return nil
        }
        var value: UInt32 = 0
        if tryConsume(UInt8(ascii: "{")) {
            repeat {
                guard !atEnd, let digit = Self.hexValue(peek) else {
                    fail(.invalidGroupName, at: escape)
                    return nil
                }
                index += 1
                value = value << 4 | digit
                if value > 0x10FFFF {
                    fail(.invalidGroupName, at: escape)
                    return nil
                }
            } while !atEnd && peek != UInt8(ascii: "}")
            guard tryConsume(UInt8(ascii: "}")) else {
                fail(.invalidGroupName, at: escape)
                return nil
            }
        } else {
            guard let unit = tryConsumeHex(count: 4) else {
                fail(.invalidGroupName, at: escape)
                return nil
            }
            value = unit
            if (0xD800...0xDBFF).contains(unit), bytes.count - index >= 6, peek == UInt8(ascii: "\\") {
                let saved = index
                index += 1
                if tryConsume(UInt8(ascii: "u")), let trail = tryConsumeHex(count: 4), (0xDC00...0xDFFF).contains(trail) {
                    value = 0x10000 + ((unit - 0xD800) << 10) + (trail - 0xDC00)
                } else {
                    index = saved
                }
            }
        }
        // A lone surrogate is not an identifier character; U+FFFD stands in for it.
        return Unicode.Scalar(value) ?? "\u{FFFD}"
    }

    private static func isIdentifierStart(_ c: Unicode.Scalar) -> Bool {
        if c.isASCII { return isASCIILetter(c.value) || c == "_" || c == "$" }
        return isLetter(c)
    }

    private static func isIdentifierPart(_ c: Unicode.Scalar) -> Bool {
        if c.isASCII { return isASCIILetter(c.value) || (c >= "0" && c <= "9") || c == "_" || c == "$" }
        switch c.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .decimalNumber, .connectorPunctuation: return true
        default: return isLetter(c) || c.value == 0x200C || c.value == 0x200D
        }
    }

    private static func isLetter(_ c: Unicode.Scalar) -> Bool {
        switch c.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: true
        default: false
        }
    }

    // MARK: - Character classes

    /// YARR's character-class reader: detects ranges, and treats a hyphen next to a built-in
    /// class as a literal (legacy syntax).
    private enum ClassState {
        case empty
        case cached(UInt32)
        case cachedHyphen(UInt32)
        case afterBuiltIn
        case afterBuiltInHyphen
    }

    private mutating func readCharacterClass() {
        let start = index
        index += 1
        builder.characterClassBegin(isInverted: tryConsume(UInt8(ascii: "^")), at: start)
        var state = ClassState.empty
        while !atEnd {
            let atomStart = index
            switch peek {
            case UInt8(ascii: "]"):
                index += 1
                switch state {
                case .cached(let c):
                    builder.characterClassAtom(c, at: atomStart)
                case .cachedHyphen(let c):
                    builder.characterClassAtom(c, at: atomStart)
                    builder.characterClassAtom(UInt32(UInt8(ascii: "-")), at: atomStart)
                case .empty, .afterBuiltIn, .afterBuiltInHyphen:
                    break
                }
                return
            case UInt8(ascii: "\\"):
                switch readEscape(inCharacterClass: true) {
                case .character(let c):
                    classCharacter(c, hyphenIsRange: false, state: &state, at: atomStart)
                case .builtInClass:
                    classBuiltIn(state: &state, at: atomStart)
                case .wordBoundary, .backReference, .failed:
                    break
                }
            default:
                classCharacter(UInt32(consume()), hyphenIsRange: true, state: &state, at: atomStart)
            }
            if syntaxErrorOffset != nil { return }
        }
        fail(.unterminatedCharacterClass, at: start)
    }

    private mutating func classCharacter(_ c: UInt32, hyphenIsRange: Bool, state: inout ClassState, at offset: Int) {
        let hyphen = UInt32(UInt8(ascii: "-"))
        switch state {
        case .afterBuiltIn where hyphenIsRange && c == hyphen:
            builder.characterClassAtom(hyphen, at: offset)
            state = .afterBuiltInHyphen
        case .empty, .afterBuiltIn:
            state = .cached(c)
        case .cached(let previous):
            if hyphenIsRange && c == hyphen {
                state = .cachedHyphen(previous)
            } else {
                builder.characterClassAtom(previous, at: offset)
                state = .cached(c)
            }
        case .cachedHyphen(let low):
            if c < low { return fail(.rangeOutOfOrder, at: offset) }
            builder.characterClassRange(low, c, at: offset)
            state = .empty
        case .afterBuiltInHyphen:
            builder.characterClassAtom(c, at: offset)
            state = .empty
        }
    }

    private mutating func classBuiltIn(state: inout ClassState, at offset: Int) {
        switch state {
        case .cached(let c):
            builder.characterClassAtom(c, at: offset)
            builder.characterClassBuiltIn(at: offset)
            state = .afterBuiltIn
        case .empty, .afterBuiltIn:
            builder.characterClassBuiltIn(at: offset)
            state = .afterBuiltIn
        case .cachedHyphen(let c):
            builder.characterClassAtom(c, at: offset)
            builder.characterClassAtom(UInt32(UInt8(ascii: "-")), at: offset)
            builder.characterClassBuiltIn(at: offset)
            state = .empty
        case .afterBuiltInHyphen:
            builder.characterClassBuiltIn(at: offset)
            state = .empty
        }
    }
}

// MARK: - Named groups

extension URLFilterParser {
    /// The names of capture groups seen so far, scoped like YARR's: a name may repeat only in a
    /// different alternative.
    private struct GroupNames {
        private var all: Set<String> = []
        private var nested: [Set<String>] = [[]]
        private var active: [Set<String>] = [[]]

        var isEmpty: Bool { all.isEmpty }

        func contains(_ name: String) -> Bool { all.contains(name) }

        /// Records `name`; false if it duplicates a name visible from here.
        mutating func add(_ name: String) -> Bool {
            all.insert(name)
            return active[active.count - 1].insert(name).inserted
        }

        mutating func nextAlternative() {
            let last = active.count - 1
            nested[nested.count - 1].formUnion(active[last])
            active[last] = []
            if active.count > 1 { active[last].formUnion(active[last - 1]) }
        }

        mutating func pushParenthesis() {
            let top = active[active.count - 1]
            nested.append([])
            active.append(top)
        }

        mutating func popParenthesis() {
            guard active.count > 1, nested.count > 1 else { return }
            var closed = nested.removeLast()
            closed.formUnion(active.removeLast())
            active[active.count - 1].formUnion(closed)
        }
    }
}

// MARK: - Term builder

extension URLFilterParser {
    /// A rejection by the subset (not a syntax error).
    struct Rejection: Error {
        var status: URLFilterError.Status
        var offset: Int
    }

    /// Receives the syntax reader's tokens and builds terms like WebKit's `PatternParser`: one
    /// "floating" term that a following quantifier may still modify, sunk into the open group or
    /// the pattern when the next token arrives.
    struct TermBuilder {
        let isCaseSensitive: Bool
        private var openGroups: [[Term]] = []
        private var openGroupOffsets: [Int] = []
        private var sunkTerms: [Term] = []
        private var floatingTerm: Term?
        private var floatingOffset = 0
        private var hasStartOfLine = false
        private var hasSunkEndOfLine = false
        private var rejection: Rejection?

        init(isCaseSensitive: Bool) {
            self.isCaseSensitive = isCaseSensitive
        }

        private var isRejected: Bool { rejection != nil }

        private mutating func reject(_ status: URLFilterError.Status, at offset: Int) {
            if rejection == nil { rejection = Rejection(status: status, offset: offset) }
        }

        private mutating func float(_ term: Term, at offset: Int) {
            floatingTerm = term
            floatingOffset = offset
        }

        private mutating func sinkFloatingTerm() {
            guard let term = floatingTerm else { return }
            floatingTerm = nil
            if hasSunkEndOfLine {
                return reject(.misplacedEndOfLine, at: floatingOffset)
            }
            if term.isEndOfLineAssertion { hasSunkEndOfLine = true }
            if openGroups.isEmpty {
                sunkTerms.append(term)
            } else {
                openGroups[openGroups.count - 1].append(term)
            }
        }

        mutating func character(_ c: UInt32, at offset: Int) {
            guard !isRejected else { return }
            guard c < 128 else { return reject(.nonASCII, at: offset) }
            sinkFloatingTerm()
            var set = Term.CharacterSet()
            set.insert(UInt8(c), isCaseSensitive: isCaseSensitive)
            float(Term(atom: .characterSet(set)), at: offset)
        }

        mutating func builtInClass(isDot: Bool, at offset: Int) {
            guard !isRejected else { return }
            sinkFloatingTerm()
            if isDot {
                float(Term(atom: .characterSet(.anyCharacter)), at: offset)
            } else {
                reject(.unsupportedCharacterClass, at: offset)
            }
        }

        mutating func quantify(minimum: UInt64, maximum: UInt64, at offset: Int) {
            guard !isRejected, var term = floatingTerm else { return }
            let infinite = UInt64(UInt32.max)
            switch (minimum, maximum) {
            case (0, 1): term.quantifier = .zeroOrOne
            case (0, infinite): term.quantifier = .zeroOrMore
            case (1, infinite): term.quantifier = .oneOrMore
            default: return reject(.invalidQuantifier, at: offset)
            }
            floatingTerm = term
        }

        mutating func backReference(at offset: Int) { reject(.backReference, at: offset) }

        mutating func wordBoundary(at offset: Int) { reject(.wordBoundary, at: offset) }

        mutating func disjunction(at offset: Int) { reject(.disjunction, at: offset) }

        mutating func unsupportedGroup(at offset: Int) { reject(.group, at: offset) }

        mutating func startOfLine(at offset: Int) {
            guard !isRejected else { return }
            if floatingTerm != nil || !sunkTerms.isEmpty || !openGroups.isEmpty {
                return reject(.misplacedStartOfLine, at: offset)
            }
            hasStartOfLine = true
        }

        mutating func endOfLine(at offset: Int) {
            guard !isRejected else { return }
            sinkFloatingTerm()
            float(Term(atom: .characterSet(.endOfLine)), at: offset)
        }

        mutating func characterClassBegin(isInverted: Bool, at offset: Int) {
            guard !isRejected else { return }
            sinkFloatingTerm()
            float(Term(atom: .characterSet(Term.CharacterSet(isInverted: isInverted))), at: offset)
        }

        mutating func characterClassAtom(_ c: UInt32, at offset: Int) {
            guard !isRejected else { return }
            guard c < 128 else { return reject(.nonASCII, at: offset) }
            addToFloatingSet(UInt8(c)...UInt8(c))
        }

        mutating func characterClassRange(_ low: UInt32, _ high: UInt32, at offset: Int) {
            guard !isRejected else { return }
            // WebKit asserts here instead; an escape such as `\xff` is the only way to get there.
            guard high < 128 else { return reject(.nonASCII, at: offset) }
            addToFloatingSet(UInt8(low)...UInt8(high))
        }

        mutating func characterClassBuiltIn(at offset: Int) { reject(.atomCharacter, at: offset) }

        private mutating func addToFloatingSet(_ characters: ClosedRange<UInt8>) {
            guard var term = floatingTerm, case .characterSet(var set) = term.atom else { return }
            for c in characters { set.insert(c, isCaseSensitive: isCaseSensitive) }
            term.atom = .characterSet(set)
            floatingTerm = term
        }

        mutating func groupBegin(at offset: Int) {
            guard !isRejected else { return }
            sinkFloatingTerm()
            openGroups.append([])
            openGroupOffsets.append(offset)
        }

        mutating func groupEnd(at offset: Int) {
            guard !isRejected else { return }
            sinkFloatingTerm()
            guard let terms = openGroups.popLast() else { return }
            float(Term(atom: .group(terms)), at: openGroupOffsets.popLast() ?? offset)
        }

        /// Sinks the last term, applies WebKit's normalizations and detects "matches everything".
        mutating func finish(patternLength: Int) -> Swift.Result<Result, Rejection> {
            if let rejection { return .failure(rejection) }
            sinkFloatingTerm()
            if let rejection { return .failure(rejection) }
            let terms = Self.simplified(sunkTerms, isAnchoredAtStart: hasStartOfLine)
            return .success(Result(
                terms: terms,
                isAnchoredAtStart: hasStartOfLine,
                matchesEverything: !terms.contains { $0.matchesAtLeastOneCharacter }
            ))
        }

        /// WebKit's `simplifySunkTerms`: one canonical `.*` per run of match-anything terms, the
        /// implicit leading `.*` of unanchored patterns, no trailing `.*$`, and no trailing terms
        /// that can match empty unless the pattern ends with `$`.
        static func simplified(_ input: [Term], isAnchoredAtStart: Bool) -> [Term] {
            guard !input.isEmpty else { return [] }
            var terms: [Term] = []
            terms.reserveCapacity(input.count + 1)
            var isAfterDotStar = false
            for term in input {
                let matchesAnyString = term.isKnownToMatchAnyString
                if isAfterDotStar && matchesAnyString { continue }
                isAfterDotStar = matchesAnyString
                terms.append(matchesAnyString ? Term.dotStar : term)
            }
            if !isAnchoredAtStart, terms.first?.isKnownToMatchAnyString != true {
                terms.insert(Term.dotStar, at: 0)
            }
            if terms.count > 2, terms[terms.count - 1].isEndOfLineAssertion,
               terms[terms.count - 2].isKnownToMatchAnyString {
                terms.removeLast(2)
            }
            if terms.last?.isEndOfLineAssertion == true { return terms }
            while let last = terms.last, !last.matchesAtLeastOneCharacter {
                terms.removeLast()
            }
            return terms
        }
    }
}

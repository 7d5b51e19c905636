/// Validates css-display-none selectors like WebKit's CSS parser (quirks mode).
///
/// WebKit silently drops a `css-display-none` rule whose selector it cannot parse, so a
/// compatible engine must reject the same selectors. This is a CSS Syntax Level 3 tokenizer and a
/// Selectors Level 4 grammar with WebKit's choices, checked against WebKitGTK 2.50.6:
/// - the pseudo-classes and pseudo-elements WebKit knows (unknown ones, including unknown `-webkit-`
///   pseudo-classes, are invalid; unknown `::-webkit-…` pseudo-elements are valid);
/// - `:is()`, `:where()`, `:matches()`, `:-webkit-any()` take forgiving lists (`:is(!!!)` is valid);
///   `:not()`, `:has()` and `:nth-child(… of S)` do not, and `:has()` cannot nest;
/// - attribute selectors accept the `i` flag but not `s`; namespace prefixes other than `*|` and
///   `|` are invalid (a content blocker declares none);
/// - a pseudo-element ends its complex selector; only a few pseudo-classes may follow it;
/// - the nesting selector `&` is accepted; unclosed blocks at the end are closed, as in CSS.
///
/// ```swift
/// CSSSelectorValidator.isValid("a[href*=hsv]")  // true
/// CSSSelectorValidator.isValid("!!!")           // false
/// ```
public enum CSSSelectorValidator {
    /// Whether WebKit accepts `selector` as a selector list.
    public static func isValid(_ selector: String) -> Bool {
        isValid(selector, for: .newest)
    }

    /// Whether the WebKit of `target` accepts `selector`: as ``isValid(_:)``, less the
    /// pseudo-classes that WebKit does not know yet
    /// (``WebKitTarget/unknownSelectorPseudoClasses``).
    public static func isValid(_ selector: String, for target: WebKitTarget) -> Bool {
        var tokenizer = Tokenizer(selector)
        let tokens = tokenizer.tokens()
        if !target.unknownSelectorPseudoClasses.isEmpty {
            for (index, token) in tokens.enumerated() where token == .colon && index + 1 < tokens.count {
                switch tokens[index + 1] {
                case .ident(let name), .function(let name):
                    if target.unknownSelectorPseudoClasses.contains(name.lowercased()) { return false }
                default:
                    continue
                }
            }
        }
        var reader = ComponentReader(tokens: tokens)
        let components = reader.components()
        guard !reader.isTooDeep else { return false }
        return SelectorGrammar.isSelectorList(components[...], context: .topLevel)
    }
}

// MARK: - Tokens (CSS Syntax Level 3, §4)

extension CSSSelectorValidator {
    enum Token: Equatable {
        case ident(String)
        case function(String)
        case atKeyword
        case hash(String, isIdentifier: Bool)
        case string
        case badString
        case delim(Unicode.Scalar)
        /// A number, with its source text and whether it is an integer.
        case number(String, isInteger: Bool)
        case percentage
        case dimension(number: String, isInteger: Bool, unit: String)
        case whitespace
        case cdo, cdc, colon, semicolon, comma
        case open(Unicode.Scalar)   // ( [ {
        case close(Unicode.Scalar)  // ) ] }
    }

    struct Tokenizer {
        private let scalars: [Unicode.Scalar]
        private var index = 0

        init(_ text: String) {
            // Preprocessing: CR, CRLF and FF become LF; NUL becomes U+FFFD.
            var result: [Unicode.Scalar] = []
            var previousWasCR = false
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\r": result.append("\n")
                case "\n" where previousWasCR: break
                case "\u{0C}": result.append("\n")
                case "\0": result.append("\u{FFFD}")
                default: result.append(scalar)
                }
                previousWasCR = scalar == "\r"
            }
            scalars = result
        }

        private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
            index + offset < scalars.count ? scalars[index + offset] : nil
        }

        static func isWhitespace(_ c: Unicode.Scalar?) -> Bool { c == "\n" || c == "\t" || c == " " }
        static func isDigit(_ c: Unicode.Scalar?) -> Bool { c.map { $0 >= "0" && $0 <= "9" } ?? false }
        static func isHexDigit(_ c: Unicode.Scalar?) -> Bool {
            guard let c else { return false }
            return isDigit(c) || (c >= "a" && c <= "f") || (c >= "A" && c <= "F")
        }
        static func isIdentStart(_ c: Unicode.Scalar?) -> Bool {
            guard let c else { return false }
            return (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c == "_" || c.value >= 0x80
        }
        static func isIdentCharacter(_ c: Unicode.Scalar?) -> Bool {
            isIdentStart(c) || isDigit(c) || c == "-"
        }
        static func isValidEscape(_ first: Unicode.Scalar?, _ second: Unicode.Scalar?) -> Bool {
            first == "\\" && second != "\n"
        }
        static func startsIdentifier(_ a: Unicode.Scalar?, _ b: Unicode.Scalar?, _ c: Unicode.Scalar?) -> Bool {
            if a == "-" { return isIdentStart(b) || b == "-" || isValidEscape(b, c) }
            if a == "\\" { return isValidEscape(a, b) }
            return isIdentStart(a)
        }
        static func startsNumber(_ a: Unicode.Scalar?, _ b: Unicode.Scalar?, _ c: Unicode.Scalar?) -> Bool {
            if a == "+" || a == "-" { return isDigit(b) || (b == "." && isDigit(c)) }
            if a == "." { return isDigit(b) }
            return isDigit(a)
        }

        mutating func tokens() -> [Token] {
            var result: [Token] = []
            while let token = next() { result.append(token) }
            return result
        }

        private mutating func skipComments() {
            while peek() == "/" && peek(1) == "*" {
                index += 2
                while index < scalars.count && !(peek() == "*" && peek(1) == "/") { index += 1 }
                index = min(index + 2, scalars.count)
            }
        }

        private mutating func next() -> Token? {
            skipComments()
            guard let c = peek() else { return nil }
            if Self.isWhitespace(c) {
                while Self.isWhitespace(peek()) { index += 1 }
                return .whitespace
            }
            switch c {
            case "\"", "'":
                index += 1
                return string(until: c)
            case "#":
                if Self.isIdentCharacter(peek(1)) || Self.isValidEscape(peek(1), peek(2)) {
                    index += 1
                    let isIdentifier = Self.startsIdentifier(peek(), peek(1), peek(2))
                    return .hash(identSequence(), isIdentifier: isIdentifier)
                }
            case "(", "[", "{":
                index += 1
                return .open(c)
            case ")", "]", "}":
                index += 1
                return .close(c)
            case ",":
                index += 1
                return .comma
            case ":":
                index += 1
                return .colon
            case ";":
                index += 1
                return .semicolon
            case "+", ".":
                if Self.startsNumber(c, peek(1), peek(2)) { return numeric() }
            case "-":
                if Self.startsNumber(c, peek(1), peek(2)) { return numeric() }
                if peek(1) == "-" && peek(2) == ">" {
                    index += 3
                    return .cdc
                }
                if Self.startsIdentifier(c, peek(1), peek(2)) { return identLike() }
            case "<":
                if peek(1) == "!" && peek(2) == "-" && peek(3) == "-" {
                    index += 4
                    return .cdo
                }
            case "@":
                if Self.startsIdentifier(peek(1), peek(2), peek(3)) {
                    index += 1
                    _ = identSequence()
                    return .atKeyword
                }
            case "\\":
                if Self.isValidEscape(c, peek(1)) { return identLike() }
            default:
                if Self.isDigit(c) { return numeric() }
                if Self.isIdentStart(c) { return identLike() }
            }
            index += 1
            return .delim(c)
        }

        private mutating func string(until quote: Unicode.Scalar) -> Token {
            while let c = peek() {
                if c == quote {
                    index += 1
                    return .string
                }
                if c == "\n" { return .badString }
                if c == "\\" {
                    if peek(1) == nil {
                        index += 1
                    } else if peek(1) == "\n" {
                        index += 2
                    } else {
                        index += 1
                        _ = escape()
                    }
                    continue
                }
                index += 1
            }
            return .string
        }

        /// After a backslash: the escaped code point (hex escapes as CSS defines them).
        private mutating func escape() -> Unicode.Scalar {
            guard let c = peek() else { return "\u{FFFD}" }
            guard Self.isHexDigit(c) else {
                index += 1
                return c
            }
            var value: UInt32 = 0
            var digits = 0
            while digits < 6, let h = peek(), Self.isHexDigit(h) {
                value = value * 16 + Self.hexValue(h)
                index += 1
                digits += 1
            }
            if Self.isWhitespace(peek()) { index += 1 }
            guard value != 0, let scalar = Unicode.Scalar(value) else { return "\u{FFFD}" }
            return scalar
        }

        private static func hexValue(_ c: Unicode.Scalar) -> UInt32 {
            switch c {
            case "0"..."9": c.value - 0x30
            case "a"..."f": c.value - 0x61 + 10
            case "A"..."F": c.value - 0x41 + 10
            default: 0
            }
        }

        private mutating func identSequence() -> String {
            var result = String.UnicodeScalarView()
            while let c = peek() {
                if Self.isIdentCharacter(c) {
                    result.append(c)
                    index += 1
                } else if Self.isValidEscape(c, peek(1)) {
                    index += 1
                    result.append(escape())
                } else {
                    break
                }
            }
            return String(result)
        }

        private mutating func identLike() -> Token {
            let name = identSequence()
            if peek() == "(" {
                index += 1
                return .function(name)
            }
            return .ident(name)
        }

        private mutating func numeric() -> Token {
            var text = String.UnicodeScalarView()
            var isInteger = true
            if let sign = peek(), sign == "+" || sign == "-" {
                text.append(sign)
                index += 1
            }
            while let d = peek(), Self.isDigit(d) { text.append(d); index += 1 }
            if peek() == ".", Self.isDigit(peek(1)) {
                isInteger = false
                text.append("."); index += 1
                while let d = peek(), Self.isDigit(d) { text.append(d); index += 1 }
            }
            if let e = peek(), e == "e" || e == "E" {
                let signed = (peek(1) == "+" || peek(1) == "-") && Self.isDigit(peek(2))
                if signed || Self.isDigit(peek(1)) {
                    isInteger = false
                    text.append(e); index += 1
                    if signed, let s = peek() { text.append(s); index += 1 }
                    while let d = peek(), Self.isDigit(d) { text.append(d); index += 1 }
                }
            }
            let number = String(text)
            if Self.startsIdentifier(peek(), peek(1), peek(2)) {
                return .dimension(number: number, isInteger: isInteger, unit: identSequence())
            }
            if peek() == "%" {
                index += 1
                return .percentage
            }
            return .number(number, isInteger: isInteger)
        }
    }
}

// MARK: - Component values (CSS Syntax Level 3, §5)

extension CSSSelectorValidator {
    /// A token, a function with its arguments, or a `[…]`/`(…)`/`{…}` block. Blocks still open at
    /// the end of the input are closed there, as CSS does.
    indirect enum Component {
        case token(Token)
        case function(String, [Component])
        case block(Unicode.Scalar, [Component])

        var isWhitespace: Bool {
            if case .token(.whitespace) = self { return true }
            return false
        }

        func isDelim(_ c: Unicode.Scalar) -> Bool {
            if case .token(.delim(c)) = self { return true }
            return false
        }

        var ident: String? {
            if case .token(.ident(let name)) = self { return name }
            return nil
        }
    }

    struct ComponentReader {
        /// Blocks nested deeper than this make the selector invalid: the grammar is checked
        /// recursively, and no real selector comes close.
        static let maximumDepth = 100

        let tokens: [Token]
        private var index = 0
        private var depth = 0
        private(set) var isTooDeep = false

        init(tokens: [Token]) { self.tokens = tokens }

        mutating func components() -> [Component] {
            components(closingWith: nil)
        }

        private mutating func components(closingWith close: Unicode.Scalar?) -> [Component] {
            depth += 1
            defer { depth -= 1 }
            if depth > Self.maximumDepth { isTooDeep = true }
            var result: [Component] = []
            while index < tokens.count {
                let token = tokens[index]
                index += 1
                switch token {
                case .close(let c) where c == close:
                    return result
                case .open where isTooDeep, .function where isTooDeep:
                    break  // keep reading flat: the result is discarded anyway
                case .open(let c):
                    let closing: Unicode.Scalar = c == "(" ? ")" : c == "[" ? "]" : "}"
                    result.append(.block(c, components(closingWith: closing)))
                case .function(let name):
                    result.append(.function(name, components(closingWith: ")")))
                default:
                    result.append(.token(token))
                }
            }
            return result
        }
    }
}

// MARK: - Selectors (Selectors Level 4 as WebKit parses it)

extension CSSSelectorValidator {
    enum SelectorGrammar {
        typealias Items = ArraySlice<Component>

        struct Context {
            /// Pseudo-elements are only allowed outside functional pseudo-classes.
            var allowsPseudoElements: Bool
            /// `:has()` cannot contain `:has()`.
            var isInsideHas: Bool
            /// Inside `:not()`/`:has()` following a pseudo-element, only type selectors and the
            /// pseudo-classes allowed after that pseudo-element may appear.
            var afterPseudoElement: PseudoElementKind?

            static let topLevel = Context(allowsPseudoElements: true, isInsideHas: false)
            var nested: Context {
                Context(allowsPseudoElements: false, isInsideHas: isInsideHas, afterPseudoElement: afterPseudoElement)
            }
        }

        /// What may follow a pseudo-element in the same compound selector.
        enum PseudoElementKind {
            case final
            case selection
            case elementBacked
            case part
            case scrollbar
        }

        static let pseudoClasses: Set<String> = [
            "active", "any-link", "autofill", "buffering", "checked", "default", "defined", "disabled",
            "empty", "enabled", "first-child", "first-of-type", "focus", "focus-visible", "focus-within",
            "fullscreen", "future", "host", "hover", "in-range", "indeterminate", "invalid", "last-child",
            "last-of-type", "link", "modal", "muted", "only-child", "only-of-type", "optional",
            "out-of-range", "past", "paused", "placeholder-shown", "playing", "read-only", "read-write",
            "required", "root", "scope", "seeking", "stalled", "target", "user-invalid", "user-valid",
            "valid", "visited", "volume-locked",
            "-webkit-any-link", "-webkit-autofill", "-webkit-drag", "-webkit-full-screen",
            // Scrollbar states, also valid on their own.
            "horizontal", "vertical", "decrement", "increment", "start", "end", "double-button",
            "single-button", "no-button", "corner-present", "window-inactive",
        ]

        static let scrollbarPseudoClasses: Set<String> = [
            "horizontal", "vertical", "decrement", "increment", "start", "end", "double-button",
            "single-button", "no-button", "corner-present", "window-inactive", "hover", "active",
            "enabled", "disabled",
        ]

        static let userActionPseudoClasses: Set<String> = ["hover", "focus", "active", "focus-visible", "focus-within"]

        /// Pseudo-elements also written with one colon (CSS 2).
        static let legacyPseudoElements: Set<String> = ["before", "after", "first-line", "first-letter"]

        static let pseudoElements: [String: PseudoElementKind] = [
            "after": .final, "before": .final, "first-letter": .final, "first-line": .final,
            "marker": .final, "backdrop": .final, "cue": .final, "grammar-error": .final,
            "spelling-error": .final, "selection": .selection, "placeholder": .elementBacked,
            "file-selector-button": .elementBacked, "details-content": .elementBacked,
        ]

        static let scrollbarPseudoElements: Set<String> = [
            "-webkit-scrollbar", "-webkit-scrollbar-button", "-webkit-scrollbar-thumb",
            "-webkit-scrollbar-track", "-webkit-scrollbar-track-piece", "-webkit-scrollbar-corner",
            "-webkit-resizer",
        ]

        // MARK: Lists

        static func split(_ items: Items) -> [Items] {
            var parts: [Items] = []
            var start = items.startIndex
            for index in items.indices {
                if case .token(.comma) = items[index] {
                    parts.append(items[start..<index])
                    start = index + 1
                }
            }
            parts.append(items[start..<items.endIndex])
            return parts
        }

        static func trimmed(_ items: Items) -> Items {
            var slice = items
            while let first = slice.first, first.isWhitespace { slice = slice.dropFirst() }
            while let last = slice.last, last.isWhitespace { slice = slice.dropLast() }
            return slice
        }

        static func isSelectorList(_ items: Items, context: Context) -> Bool {
            split(items).allSatisfy { isComplexSelector(trimmed($0), context: context, isRelative: false) }
        }

        static func isRelativeSelectorList(_ items: Items, context: Context) -> Bool {
            split(items).allSatisfy { isComplexSelector(trimmed($0), context: context, isRelative: true) }
        }

        static func isCompoundSelectorList(_ items: Items, context: Context) -> Bool {
            split(items).allSatisfy { isSingleCompound(trimmed($0), context: context) }
        }

        static func isSingleCompound(_ items: Items, context: Context) -> Bool {
            var index = items.startIndex
            guard let compound = compoundSelector(items, &index, context: context) else { return false }
            return index == items.endIndex && !compound.hasPseudoElement
        }

        static func combinator(_ component: Component) -> Bool {
            component.isDelim(">") || component.isDelim("+") || component.isDelim("~")
        }

        static func isComplexSelector(_ items: Items, context: Context, isRelative: Bool) -> Bool {
            var index = items.startIndex
            guard index < items.endIndex else { return false }
            if isRelative, combinator(items[index]) {
                index += 1
                while index < items.endIndex, items[index].isWhitespace { index += 1 }
            }
            while true {
                guard let compound = compoundSelector(items, &index, context: context) else { return false }
                if index == items.endIndex { return true }
                if compound.hasPseudoElement { return false }
                var sawWhitespace = false
                while index < items.endIndex, items[index].isWhitespace {
                    index += 1
                    sawWhitespace = true
                }
                if index < items.endIndex, combinator(items[index]) {
                    index += 1
                    while index < items.endIndex, items[index].isWhitespace { index += 1 }
                } else if !sawWhitespace {
                    return false
                }
                guard index < items.endIndex else { return false }
            }
        }

        // MARK: Compound selectors

        struct Compound {
            var hasPseudoElement = false
        }

        static func compoundSelector(_ items: Items, _ index: inout Int, context: Context) -> Compound? {
            func item(_ offset: Int) -> Component? {
                index + offset < items.endIndex ? items[index + offset] : nil
            }
            func isNameOrStar(_ c: Component?) -> Bool {
                guard let c else { return false }
                return c.ident != nil || c.isDelim("*")
            }
            var count = 0
            // Type or universal selector, with an optional namespace prefix.
            if isNameOrStar(item(0)), item(1)?.isDelim("|") == true, isNameOrStar(item(2)) {
                if item(0)?.ident != nil { return nil }  // no namespace is declared
                index += 3
                count += 1
            } else if item(0)?.isDelim("|") == true, isNameOrStar(item(1)) {
                index += 2
                count += 1
            } else if isNameOrStar(item(0)) {
                index += 1
                count += 1
            }

            var pseudoElement: PseudoElementKind?
            var pseudoElementsAfterPart = 0
            while index < items.endIndex {
                let component = items[index]
                switch component {
                case .token(.hash(_, let isIdentifier)):
                    guard isIdentifier, pseudoElement == nil, context.afterPseudoElement == nil else { return nil }
                    index += 1
                case .token(.delim(".")):
                    guard pseudoElement == nil, context.afterPseudoElement == nil, item(1)?.ident != nil else { return nil }
                    index += 2
                case .token(.delim("&")):
                    guard pseudoElement == nil, context.afterPseudoElement == nil else { return nil }
                    index += 1
                case .block("[", let inner):
                    guard pseudoElement == nil, context.afterPseudoElement == nil,
                          isAttributeSelector(inner[...]) else { return nil }
                    index += 1
                case .token(.colon):
                    if case .token(.colon) = item(1) {
                        guard context.allowsPseudoElements, let next = item(2),
                              let kind = pseudoElementKind(next, context: context) else { return nil }
                        if let previous = pseudoElement {
                            // Only ::part() can be followed by another pseudo-element.
                            guard previous == .part, kind != .part, !isSlotted(next),
                                  pseudoElementsAfterPart == 0 else { return nil }
                            pseudoElementsAfterPart += 1
                        }
                        pseudoElement = kind
                        index += 3
                    } else {
                        guard let next = item(1) else { return nil }
                        if let name = next.ident?.lowercased(), legacyPseudoElements.contains(name) {
                            guard context.allowsPseudoElements else { return nil }
                            if let previous = pseudoElement {
                                guard previous == .part, pseudoElementsAfterPart == 0 else { return nil }
                                pseudoElementsAfterPart += 1
                            }
                            pseudoElement = .final
                        } else {
                            var pseudoClassContext = context
                            if let pseudoElement { pseudoClassContext.afterPseudoElement = pseudoElement }
                            guard isPseudoClass(next, context: pseudoClassContext) else { return nil }
                        }
                        index += 2
                    }
                default:
                    return count > 0 ? Compound(hasPseudoElement: pseudoElement != nil) : nil
                }
                count += 1
            }
            return count > 0 ? Compound(hasPseudoElement: pseudoElement != nil) : nil
        }

        // MARK: Attribute selectors

        static func isAttributeSelector(_ inner: Items) -> Bool {
            var index = inner.startIndex
            func item(_ offset: Int = 0) -> Component? {
                index + offset < inner.endIndex ? inner[index + offset] : nil
            }
            func skipWhitespace() {
                while item()?.isWhitespace == true { index += 1 }
            }
            skipWhitespace()
            if item()?.isDelim("*") == true, item(1)?.isDelim("|") == true, item(2)?.ident != nil {
                index += 3
            } else if item()?.isDelim("|") == true, item(1)?.ident != nil {
                index += 2
            } else if item()?.ident != nil {
                if item(1)?.isDelim("|") == true, item(2)?.ident != nil { return false }
                index += 1
            } else {
                return false
            }
            skipWhitespace()
            guard let matcher = item() else { return true }
            if matcher.isDelim("=") {
                index += 1
            } else if ["~", "|", "^", "$", "*"].contains(where: { matcher.isDelim($0) }), item(1)?.isDelim("=") == true {
                index += 2
            } else {
                return false
            }
            skipWhitespace()
            switch item() {
            case .token(.ident)?, .token(.string)?: index += 1
            default: return false
            }
            skipWhitespace()
            if let flag = item()?.ident {
                guard flag.lowercased() == "i" else { return false }
                index += 1
                skipWhitespace()
            }
            return index == inner.endIndex
        }

        // MARK: Pseudo-classes

        static let logicalPseudoClasses: Set<String> = ["is", "where", "matches", "-webkit-any", "not", "has"]

        static let structuralPseudoClasses: Set<String> = [
            "first-child", "last-child", "only-child", "first-of-type", "last-of-type", "only-of-type",
            "empty", "root", "nth-child", "nth-last-child", "nth-of-type", "nth-last-of-type",
        ]

        /// Whether the pseudo-class `name` may follow a pseudo-element of `kind`.
        static func isAllowed(_ name: String, after kind: PseudoElementKind) -> Bool {
            switch kind {
            case .final: false
            case .selection: name == "window-inactive"
            case .elementBacked: userActionPseudoClasses.contains(name)
            case .part: !structuralPseudoClasses.contains(name)
            case .scrollbar: scrollbarPseudoClasses.contains(name)
            }
        }

        static func isPseudoClass(_ component: Component, context: Context) -> Bool {
            switch component {
            case .token(.ident(let rawName)):
                let name = rawName.lowercased()
                guard pseudoClasses.contains(name) else { return false }
                guard let kind = context.afterPseudoElement else { return true }
                return isAllowed(name, after: kind)
            case .function(let rawName, let arguments):
                let name = rawName.lowercased()
                // After a pseudo-element, logical combinations are checked by their contents.
                if let kind = context.afterPseudoElement, !logicalPseudoClasses.contains(name),
                   !isAllowed(name, after: kind) {
                    return false
                }
                return isFunctionalPseudoClass(name, arguments[...], context: context)
            default:
                return false
            }
        }

        static func isFunctionalPseudoClass(_ name: String, _ arguments: Items, context: Context) -> Bool {
            switch name {
            case "is", "where", "matches", "-webkit-any":
                return true  // forgiving selector lists: invalid entries are dropped
            case "not":
                return isSelectorList(arguments, context: context.nested)
            case "has":
                guard !context.isInsideHas else { return false }
                var inner = context.nested
                inner.isInsideHas = true
                return isRelativeSelectorList(arguments, context: inner)
            case "nth-child", "nth-last-child":
                return isNth(arguments, allowsOf: true, context: context)
            case "nth-of-type", "nth-last-of-type":
                return isNth(arguments, allowsOf: false, context: context)
            case "lang":
                return split(arguments).allSatisfy { part in
                    let value = trimmed(part)
                    guard value.count == 1, let only = value.first else { return false }
                    switch only {
                    case .token(.ident), .token(.string): return true
                    default: return false
                    }
                }
            case "dir", "state":
                let value = trimmed(arguments)
                return value.count == 1 && value.first?.ident != nil
            case "host":
                return isSingleCompound(trimmed(arguments), context: context.nested)
            default:
                return false
            }
        }

        /// `An+B`, optionally followed by `of <selector list>`.
        static func isNth(_ arguments: Items, allowsOf: Bool, context: Context) -> Bool {
            var formula = arguments
            if let of = arguments.firstIndex(where: { $0.ident?.lowercased() == "of" }) {
                guard allowsOf else { return false }
                formula = arguments[arguments.startIndex..<of]
                let selectors = arguments[(of + 1)..<arguments.endIndex]
                guard isSelectorList(selectors, context: context.nested) else { return false }
                guard let last = formula.last, last.isWhitespace else { return false }
            }
            var text = ""
            for component in trimmed(formula) {
                switch component {
                case .token(.whitespace): text += " "
                case .token(.ident(let name)): text += name
                case .token(.number(let number, true)): text += number
                case .token(.dimension(let number, true, let unit)): text += number + unit
                case .token(.delim(let c)) where c == "+" || c == "-": text.unicodeScalars.append(c)
                default: return false
                }
            }
            return isAnPlusB(text.lowercased())
        }

        /// `odd`, `even`, `B`, `An`, `An+B` with the whitespace CSS allows (around the sign of B only).
        static func isAnPlusB(_ text: String) -> Bool {
            if text == "odd" || text == "even" { return true }
            let characters = Array(text.unicodeScalars)
            var index = 0
            func peek() -> Unicode.Scalar? { index < characters.count ? characters[index] : nil }
            func digits() -> Int {
                let start = index
                while let c = peek(), c >= "0" && c <= "9" { index += 1 }
                return index - start
            }
            if peek() == "+" || peek() == "-" { index += 1 }
            let leadingDigits = digits()
            guard peek() == "n" else { return leadingDigits > 0 && index == characters.count }
            index += 1
            if index == characters.count { return true }
            if peek() == " " { index += 1 }
            guard peek() == "+" || peek() == "-" else { return false }
            index += 1
            if peek() == " " { index += 1 }
            return digits() > 0 && index == characters.count
        }

        // MARK: Pseudo-elements

        static func isSlotted(_ component: Component) -> Bool {
            if case .function(let name, _) = component { return name.lowercased() == "slotted" }
            return false
        }

        static func pseudoElementKind(_ component: Component, context: Context) -> PseudoElementKind? {
            switch component {
            case .token(.ident(let rawName)):
                let name = rawName.lowercased()
                if let kind = pseudoElements[name] { return kind }
                if scrollbarPseudoElements.contains(name) { return .scrollbar }
                if name.hasPrefix("-webkit-") { return .elementBacked }
                return nil
            case .function(let rawName, let arguments):
                let value = trimmed(arguments[...])
                switch rawName.lowercased() {
                case "cue":
                    return isCompoundSelectorList(arguments[...], context: context.nested) ? .final : nil
                case "slotted":
                    return isSingleCompound(value, context: context.nested) ? .final : nil
                case "part":
                    guard !value.isEmpty, value.allSatisfy({ $0.ident != nil || $0.isWhitespace }) else { return nil }
                    return .part
                case "highlight":
                    return value.count == 1 && value.first?.ident != nil ? .final : nil
                default:
                    return nil
                }
            default:
                return nil
            }
        }
    }
}

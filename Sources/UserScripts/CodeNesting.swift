/// Whether code that the renderer wraps in a function (a surrogate's source, a bridge) stays
/// inside that function: its brackets balance, with strings, template literals, comments and
/// regular expression literals skipped.
///
/// A surrogate's source becomes `"name": function () {\n<source>\n}` inside the blocking script.
/// A source with a `}` that closes nothing it opened ends that function early: `}, "z.js":
/// function () {` puts the code after it outside its function, and `})();alert(1);(function(){`
/// leaves the whole script unparsable. A balanced source cannot: the function's closing `}` can
/// only be the wrapper's.
///
/// The check is a small ES2017 tokenizer. Where one token could be read two ways (a `/` after a
/// `}` or after `await`/`of` may divide or start a regular expression) it refuses rather than
/// guesses, and so it does with what it does not read (`\` outside strings, characters outside
/// ASCII outside strings and comments, the HTML-like comments `<!--` and `-->`).
enum CodeNesting {
    /// The first reason `bytes` (UTF-8) is not a balanced sequence of tokens, or nil.
    static func firstProblem(in bytes: some Collection<UInt8>) -> UnsafeCode.Problem? {
        var scanner = Scanner(bytes: Array(bytes))
        return scanner.run()
    }

    private enum Opener {
        case parenthesis(line: Int, isControlHead: Bool)
        case bracket(line: Int)
        case brace(line: Int)
        /// `${` of a template literal: its `}` goes back into the template.
        case substitution(line: Int)

        var text: String {
            switch self {
            case .parenthesis: "("
            case .bracket: "["
            case .brace: "{"
            case .substitution: "${"
            }
        }

        var line: Int {
            switch self {
            case .parenthesis(let line, _), .bracket(let line), .brace(let line), .substitution(let line): line
            }
        }
    }

    /// What the previous token says about a `/` that follows it.
    private enum SlashMeaning {
        case regularExpression
        case division
        /// After `}` (a block or an object literal) or `await`/`of` (keyword or name).
        case ambiguous(after: String)
    }

    /// Words after which an expression starts, so a `/` begins a regular expression.
    private static let expressionKeywords: Set<String> = [
        "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do", "else",
        "export", "extends", "finally", "for", "function", "if", "import", "in", "instanceof", "new", "return",
        "switch", "throw", "try", "typeof", "var", "void", "while", "with", "enum",
    ]
    /// Words that are a keyword in some places (`await` in async functions, strict mode's
    /// reserved words) and a name in others.
    private static let ambiguousWords: Set<String> = [
        "await", "of", "yield", "let", "static", "implements", "package", "protected", "interface", "private", "public",
    ]
    /// Words before a parenthesized head that a statement follows: `if (x) /re/.test(y)`.
    private static let controlWords: Set<String> = ["if", "while", "for", "with"]

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        var line = 1
        var stack: [Opener] = []
        var slash = SlashMeaning.regularExpression
        /// The previous token was `.` or `?.`: a word now is a property name, not a keyword.
        var afterDot = false
        /// The previous token, when it was a word.
        var previousWord: String?

        init(bytes: [UInt8]) { self.bytes = bytes }

        func problem(_ reason: String, line: Int? = nil) -> UnsafeCode.Problem {
            UnsafeCode.Problem(line: line ?? self.line, reason: reason)
        }

        func byte(at offset: Int) -> UInt8? {
            index + offset < bytes.count ? bytes[index + offset] : nil
        }

        mutating func run() -> UnsafeCode.Problem? {
            while index < bytes.count {
                if let problem = token() { return problem }
            }
            if let open = stack.last {
                return problem("the \"\(open.text)\" of line \(open.line) is never closed", line: open.line)
            }
            return nil
        }

        /// Reads one token (or whitespace or a comment) at `index`.
        mutating func token() -> UnsafeCode.Problem? {
            let c = bytes[index]
            switch c {
            case 0x0A:
                line += 1
                index += 1
            case 0x09, 0x0B, 0x0C, 0x0D, 0x20:
                index += 1
            case UInt8(ascii: "/"):
                if byte(at: 1) == UInt8(ascii: "/") { return skipLineComment() }
                if byte(at: 1) == UInt8(ascii: "*") { return skipBlockComment() }
                switch slash {
                case .regularExpression:
                    return regularExpression()
                case .division:
                    index += 1
                    punctuator()
                case .ambiguous(let after):
                    return problem(
                        "a \"/\" after \"\(after)\" may divide or start a regular expression; "
                            + "the check refuses what it cannot tell apart (add a semicolon or parentheses)")
                }
            case UInt8(ascii: "'"), UInt8(ascii: "\""):
                return string(quote: c)
            case UInt8(ascii: "`"):
                index += 1
                return template()
            case UInt8(ascii: "("):
                let isControlHead = !afterDot && previousWord.map { CodeNesting.controlWords.contains($0) } == true
                stack.append(.parenthesis(line: line, isControlHead: isControlHead))
                index += 1
                punctuator()
            case UInt8(ascii: "["):
                stack.append(.bracket(line: line))
                index += 1
                punctuator()
            case UInt8(ascii: "{"):
                stack.append(.brace(line: line))
                index += 1
                punctuator()
            case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                return close(c)
            case UInt8(ascii: "<") where byte(at: 1) == UInt8(ascii: "!") && byte(at: 2) == UInt8(ascii: "-")
                && byte(at: 3) == UInt8(ascii: "-"):
                return problem("\"<!--\" starts an HTML-like comment in a script; write \"< !--\" or split the string")
            case UInt8(ascii: "-") where byte(at: 1) == UInt8(ascii: "-") && byte(at: 2) == UInt8(ascii: ">"):
                return problem("\"-->\" can end an HTML-like comment in a script; write \"-- >\"")
            case UInt8(ascii: "+") where byte(at: 1) == UInt8(ascii: "+"),
                UInt8(ascii: "-") where byte(at: 1) == UInt8(ascii: "-"):
                // `a++ / b`: only a division may follow (`++/re/` is no valid code).
                index += 2
                punctuator()
                slash = .division
            case UInt8(ascii: "."):
                if let next = byte(at: 1), next.isDigit { return number() }
                index += 1
                punctuator()
                afterDot = true
            case UInt8(ascii: "?") where byte(at: 1) == UInt8(ascii: ".") && !(byte(at: 2)?.isDigit ?? false):
                index += 2
                punctuator()
                afterDot = true
            case UInt8(ascii: "\\"):
                return problem("a \"\\\" outside a string, template, comment or regular expression (an escaped name)")
            default:
                if c >= 0x80 {
                    return problem("a character outside ASCII outside strings and comments; write it as an escape in a string")
                }
                if c.isDigit { return number() }
                if c.isWordStart { return word() }
                if c < 0x20 || c == 0x7F { return problem("a control character (\(c)) outside strings and comments") }
                index += 1
                punctuator()
            }
            return nil
        }

        mutating func punctuator() {
            slash = .regularExpression
            afterDot = false
            previousWord = nil
        }

        mutating func close(_ c: UInt8) -> UnsafeCode.Problem? {
            let text = String(UnicodeScalar(c))
            guard let open = stack.popLast() else {
                return problem(
                    "\"\(text)\" closes a bracket this code did not open; "
                        + "it would end the function the code is wrapped in")
            }
            index += 1
            switch (open, c) {
            case (.parenthesis(_, let isControlHead), UInt8(ascii: ")")):
                punctuator()
                // `if (x) /re/`: a statement follows the head; `(a) / b` divides.
                slash = isControlHead ? .regularExpression : .division
            case (.bracket, UInt8(ascii: "]")):
                punctuator()
                slash = .division
            case (.brace, UInt8(ascii: "}")):
                punctuator()
                slash = .ambiguous(after: "}")
            case (.substitution, UInt8(ascii: "}")):
                return template()
            default:
                return problem("\"\(text)\" closes the \"\(open.text)\" of line \(open.line)")
            }
            return nil
        }

        mutating func skipLineComment() -> UnsafeCode.Problem? {
            while index < bytes.count, bytes[index] != 0x0A, bytes[index] != 0x0D { index += 1 }
            return nil
        }

        mutating func skipBlockComment() -> UnsafeCode.Problem? {
            let start = line
            index += 2
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "*"), byte(at: 1) == UInt8(ascii: "/") {
                    index += 2
                    return nil
                }
                if bytes[index] == 0x0A { line += 1 }
                index += 1
            }
            return problem("a comment that is never closed (\"/*\" without \"*/\")", line: start)
        }

        mutating func string(quote: UInt8) -> UnsafeCode.Problem? {
            let start = line
            index += 1
            while index < bytes.count {
                let c = bytes[index]
                if c == quote {
                    index += 1
                    expressionEnd()
                    return nil
                }
                if c == 0x0A || c == 0x0D { break }
                if c == UInt8(ascii: "\\") {
                    // A line continuation: `\` before a line break (LF, CR or CR LF).
                    index += 1
                    if byte(at: 0) == 0x0D, byte(at: 1) == 0x0A { index += 1 }
                    if byte(at: 0) == 0x0A { line += 1 }
                }
                index += 1
            }
            return problem("a string that does not end on its line", line: start)
        }

        /// Reads template characters up to the closing backquote or a `${`.
        mutating func template() -> UnsafeCode.Problem? {
            let start = line
            while index < bytes.count {
                let c = bytes[index]
                if c == UInt8(ascii: "`") {
                    index += 1
                    expressionEnd()
                    return nil
                }
                if c == UInt8(ascii: "$"), byte(at: 1) == UInt8(ascii: "{") {
                    stack.append(.substitution(line: line))
                    index += 2
                    punctuator()
                    return nil
                }
                if c == UInt8(ascii: "\\") {
                    index += 1
                    if byte(at: 0) == 0x0A { line += 1 }
                } else if c == 0x0A {
                    line += 1
                }
                index += 1
            }
            return problem("a template literal that is never closed", line: start)
        }

        mutating func regularExpression() -> UnsafeCode.Problem? {
            index += 1
            var inClass = false
            while index < bytes.count {
                let c = bytes[index]
                if c == 0x0A || c == 0x0D { break }
                if c == UInt8(ascii: "\\") {
                    index += 1
                    if let next = byte(at: 0), next == 0x0A || next == 0x0D { break }
                } else if c == UInt8(ascii: "[") {
                    inClass = true
                } else if c == UInt8(ascii: "]") {
                    inClass = false
                } else if c == UInt8(ascii: "/"), !inClass {
                    index += 1
                    while index < bytes.count, bytes[index].isWordPart { index += 1 }
                    expressionEnd()
                    return nil
                }
                index += 1
            }
            return problem("a regular expression that does not end on its line")
        }

        mutating func number() -> UnsafeCode.Problem? {
            // Digits, `.`, letters (0x, e, n) and `_` separators; an exponent's sign is read as
            // a punctuator, which changes nothing here.
            while index < bytes.count, bytes[index].isWordPart || bytes[index] == UInt8(ascii: ".") { index += 1 }
            expressionEnd()
            return nil
        }

        mutating func word() -> UnsafeCode.Problem? {
            let start = index
            while index < bytes.count, bytes[index].isWordPart { index += 1 }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            let isName = afterDot
            expressionEnd()
            previousWord = isName ? nil : text
            if isName { return nil }
            if CodeNesting.ambiguousWords.contains(text) {
                slash = .ambiguous(after: text)
            } else if CodeNesting.expressionKeywords.contains(text) {
                slash = .regularExpression
            }
            return nil
        }

        mutating func expressionEnd() {
            slash = .division
            afterDot = false
            previousWord = nil
        }
    }
}

extension UInt8 {
    fileprivate var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }

    /// A name's first character: ASCII letters, `_`, `$`, and `#` of a private name.
    fileprivate var isWordStart: Bool {
        (self | 0x20 >= UInt8(ascii: "a") && self | 0x20 <= UInt8(ascii: "z"))
            || self == UInt8(ascii: "_") || self == UInt8(ascii: "$") || self == UInt8(ascii: "#")
    }

    fileprivate var isWordPart: Bool { isWordStart || isDigit }
}

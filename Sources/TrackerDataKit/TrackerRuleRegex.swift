/// A Tracker Radar rule regex (`trackers[x].rules[i].rule`), parsed from JavaScript regex syntax
/// into a small tree: the resolver matches it in linear time (no backtracking, so no rule can make
/// a request slow), and the rule builder rewrites the same tree into WebKit's url-filter subset.
/// Both read a rule the same way, so a rule one of them cannot use is left out by both.
///
/// Tracker Radar rules are JavaScript regexes matched case-insensitively and unanchored against the
/// request URL. Lookarounds, backreferences and word boundaries have no linear-time or WebKit
/// equivalent and are parse errors.
package struct TrackerRuleRegex: Sendable, Hashable {
    /// The alternatives of the top-level disjunction, each a sequence of nodes.
    package var alternatives: [[Node]]

    /// One element of a parsed regex.
    package enum Node: Sendable, Hashable {
        /// A single character drawn from a set of ASCII bytes (a literal, `.`, a class).
        case character(CharacterSet128)
        /// A group with alternatives.
        indirect case group([[Node]])
        /// A quantified node: `min` to `max` (nil = unbounded) repetitions.
        indirect case repetition(Node, min: Int, max: Int?)
        /// `^`
        case startAnchor
        /// `$`
        case endAnchor
    }

    /// Why a rule regex cannot be used.
    package struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        package var reason: String
        package var offset: Int
        package var description: String { "\(reason) at offset \(offset)" }

        package init(reason: String, offset: Int) {
            self.reason = reason
            self.offset = offset
        }
    }

    package init(parsing source: String) throws(ParseError) {
        var parser = Parser(bytes: Array(source.utf8))
        alternatives = try parser.parseDisjunction(depth: 0)
        if parser.index < parser.bytes.count {
            throw ParseError(reason: "unbalanced ')'", offset: parser.index)
        }
    }

    package init(alternatives: [[Node]]) {
        self.alternatives = alternatives
    }
}

// MARK: - Parsing JavaScript regex syntax

extension TrackerRuleRegex {
    fileprivate struct Parser {
        let bytes: [UInt8]
        var index = 0
        let maximumDepth = 32

        mutating func parseDisjunction(depth: Int) throws(ParseError) -> [[Node]] {
            guard depth <= maximumDepth else { throw ParseError(reason: "groups nested too deeply", offset: index) }
            var alternatives: [[Node]] = []
            // The alternative being read, sized for the rest of the rule: rules are mostly
            // literal characters, one node each, and growing the array step by step cost more
            // than parsing them.
            var current: [Node] = []
            current.reserveCapacity(bytes.count - index)
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "|") {
                    index += 1
                    alternatives.append(current)
                    current = []
                    continue
                }
                if byte == UInt8(ascii: ")") { break }
                // A plain character with no quantifier after it (most of a rule): the node that
                // parseAtom and parseQuantifier would make, without the calls.
                if Self.isPlainCharacter(byte), index + 1 == bytes.count || !Self.mayStartQuantifier(bytes[index + 1]) {
                    current.append(.character(.single(byte)))
                    index += 1
                    continue
                }
                let atom = try parseAtom(depth: depth)
                let quantified = try parseQuantifier(applyingTo: atom)
                current.append(quantified)
            }
            alternatives.append(current)
            return alternatives
        }

        /// Whether `byte` stands for itself as an atom (see parseAtom's default case).
        static func isPlainCharacter(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "$"), UInt8(ascii: "("), UInt8(ascii: ")"),
                 UInt8(ascii: "["), UInt8(ascii: "\\"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"),
                 UInt8(ascii: "|"):
                return false
            default:
                return byte < 128
            }
        }

        /// Whether `byte` after an atom may begin a quantifier (see parseQuantifier).
        static func mayStartQuantifier(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "*") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "{")
        }

        mutating func parseAtom(depth: Int) throws(ParseError) -> Node {
            let start = index
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "."):
                return .character(.dot)
            case UInt8(ascii: "^"):
                return .startAnchor
            case UInt8(ascii: "$"):
                return .endAnchor
            case UInt8(ascii: "("):
                if index < bytes.count, bytes[index] == UInt8(ascii: "?") {
                    guard index + 1 < bytes.count else { throw ParseError(reason: "incomplete group", offset: start) }
                    let kind = bytes[index + 1]
                    if kind == UInt8(ascii: ":") {
                        index += 2
                    } else if kind == UInt8(ascii: "<"), index + 2 < bytes.count,
                              bytes[index + 2] != UInt8(ascii: "="), bytes[index + 2] != UInt8(ascii: "!") {
                        // Named group: skip the name.
                        index += 2
                        while index < bytes.count, bytes[index] != UInt8(ascii: ">") { index += 1 }
                        guard index < bytes.count else { throw ParseError(reason: "unterminated group name", offset: start) }
                        index += 1
                    } else {
                        throw ParseError(reason: "lookaround assertions cannot be expressed in WebKit rules", offset: start)
                    }
                }
                let inner = try parseDisjunction(depth: depth + 1)
                guard index < bytes.count, bytes[index] == UInt8(ascii: ")") else {
                    throw ParseError(reason: "unterminated group", offset: start)
                }
                index += 1
                return .group(inner)
            case UInt8(ascii: "["):
                return .character(try parseClass(start: start))
            case UInt8(ascii: "\\"):
                return try parseEscape(start: start)
            case UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"):
                throw ParseError(reason: "nothing to repeat", offset: start)
            default:
                guard byte < 128 else {
                    throw ParseError(reason: "non-ASCII character (URLs are matched in their ASCII form)", offset: start)
                }
                return .character(.single(byte))
            }
        }

        mutating func parseEscape(start: Int) throws(ParseError) -> Node {
            guard index < bytes.count else { throw ParseError(reason: "trailing backslash", offset: start) }
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "d"): return .character(.digits)
            case UInt8(ascii: "D"): return .character(CharacterSet128.digits.inverted)
            case UInt8(ascii: "w"): return .character(.word)
            case UInt8(ascii: "W"): return .character(CharacterSet128.word.inverted)
            case UInt8(ascii: "s"): return .character(.space)
            case UInt8(ascii: "S"): return .character(CharacterSet128.space.inverted)
            case UInt8(ascii: "b"), UInt8(ascii: "B"):
                throw ParseError(reason: "word boundaries cannot be expressed in WebKit rules", offset: start)
            case UInt8(ascii: "1")...UInt8(ascii: "9"):
                throw ParseError(reason: "backreferences cannot be expressed in WebKit rules", offset: start)
            default:
                if let control = Self.controlEscape(byte) { return .character(.single(control)) }
                guard byte < 128 else { throw ParseError(reason: "non-ASCII escape", offset: start) }
                return .character(.single(byte))
            }
        }

        static func controlEscape(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "n"): return 0x0A
            case UInt8(ascii: "r"): return 0x0D
            case UInt8(ascii: "t"): return 0x09
            case UInt8(ascii: "f"): return 0x0C
            case UInt8(ascii: "v"): return 0x0B
            case UInt8(ascii: "0"): return 0x00
            default: return nil
            }
        }

        mutating func parseClass(start: Int) throws(ParseError) -> CharacterSet128 {
            var set = CharacterSet128()
            var negated = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "^") {
                negated = true
                index += 1
            }
            var first = true
            while true {
                guard index < bytes.count else { throw ParseError(reason: "unterminated character class", offset: start) }
                var byte = bytes[index]
                if byte == UInt8(ascii: "]"), !first { index += 1; break }
                if byte == UInt8(ascii: "]") { index += 1; break } // `[]` matches nothing in JavaScript
                first = false
                index += 1
                var lower: UInt8
                if byte == UInt8(ascii: "\\") {
                    guard index < bytes.count else { throw ParseError(reason: "trailing backslash", offset: index) }
                    byte = bytes[index]
                    index += 1
                    switch byte {
                    case UInt8(ascii: "d"): set = set.union(.digits); continue
                    case UInt8(ascii: "D"): set = set.union(CharacterSet128.digits.inverted); continue
                    case UInt8(ascii: "w"): set = set.union(.word); continue
                    case UInt8(ascii: "W"): set = set.union(CharacterSet128.word.inverted); continue
                    case UInt8(ascii: "s"): set = set.union(.space); continue
                    case UInt8(ascii: "S"): set = set.union(CharacterSet128.space.inverted); continue
                    case UInt8(ascii: "b"): lower = 0x08
                    default: lower = Self.controlEscape(byte) ?? byte
                    }
                } else {
                    lower = byte
                }
                guard lower < 128 else { throw ParseError(reason: "non-ASCII character in class", offset: index - 1) }
                if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "-"), bytes[index + 1] != UInt8(ascii: "]") {
                    index += 1
                    var upper = bytes[index]
                    index += 1
                    if upper == UInt8(ascii: "\\") {
                        guard index < bytes.count else { throw ParseError(reason: "trailing backslash", offset: index) }
                        upper = Self.controlEscape(bytes[index]) ?? bytes[index]
                        index += 1
                    }
                    guard upper < 128 else { throw ParseError(reason: "non-ASCII character in class", offset: index - 1) }
                    guard lower <= upper else { throw ParseError(reason: "range out of order in character class", offset: index - 1) }
                    set = set.union(.range(lower, upper))
                } else {
                    set.insert(lower)
                }
            }
            return negated ? set.inverted : set
        }

        mutating func parseQuantifier(applyingTo atom: Node) throws(ParseError) -> Node {
            guard index < bytes.count else { return atom }
            let start = index
            var minimum: Int
            var maximum: Int?
            switch bytes[index] {
            case UInt8(ascii: "*"): minimum = 0; maximum = nil; index += 1
            case UInt8(ascii: "+"): minimum = 1; maximum = nil; index += 1
            case UInt8(ascii: "?"): minimum = 0; maximum = 1; index += 1
            case UInt8(ascii: "{"):
                guard let (low, high, end) = parseBraces(at: index) else { return atom } // a literal `{` follows
                minimum = low
                maximum = high
                index = end
            default:
                return atom
            }
            if case .startAnchor = atom { throw ParseError(reason: "nothing to repeat", offset: start) }
            if case .endAnchor = atom { throw ParseError(reason: "nothing to repeat", offset: start) }
            if index < bytes.count, bytes[index] == UInt8(ascii: "?") { index += 1 } // lazy: same yes/no answer
            if let maximum, maximum < minimum { throw ParseError(reason: "numbers out of order in {} quantifier", offset: start) }
            return .repetition(atom, min: minimum, max: maximum)
        }

        /// `{n}`, `{n,}`, `{n,m}`; nil when the brace is a literal (JavaScript's legacy syntax).
        func parseBraces(at position: Int) -> (Int, Int?, Int)? {
            var cursor = position + 1
            func number() -> Int? {
                var value = 0
                var digits = 0
                while cursor < bytes.count, bytes[cursor] >= 0x30, bytes[cursor] <= 0x39 {
                    value = min(value * 10 + Int(bytes[cursor] - 0x30), 100_000)
                    digits += 1
                    cursor += 1
                }
                return digits > 0 ? value : nil
            }
            guard let low = number() else { return nil }
            var high: Int? = low
            if cursor < bytes.count, bytes[cursor] == UInt8(ascii: ",") {
                cursor += 1
                high = number()
            }
            guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "}") else { return nil }
            return (low, high, cursor + 1)
        }
    }
}

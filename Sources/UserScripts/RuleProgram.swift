import TrackerDataKit

/// The program blocking.js runs instead of a JavaScript `RegExp` for a tds rule expression: the
/// Thompson NFA the resolver's matcher (`TrackerRuleRegex.Matcher`) compiles the expression into,
/// state for state, written as text.
/// The script simulates it as the resolver does, one set of states per position of the URL, so
/// that the time a rule takes is bounded by URL length × program size whatever the rule
/// (JavaScript's backtracking engine takes seconds on `(a+)+$` against a few dozen characters,
/// and polynomial time on `a.*b.*c` against a long URL).
///
/// ## The program text
/// The states are numbered in the reverse of the order the resolver builds them (it builds back
/// to front), so that most states go on to the next one; the match state is the last one and is
/// not written. One token per state:
/// - a character other than `A`-`Z`: reads that character, a letter in either case (the text
///   holds the lowercase letter);
/// - `D`: reads any character but `\n` and `\r` (JavaScript's `.`);
/// - `C` and 32 lowercase hexadecimal digits: reads a character of the set of ASCII codes whose
///   bits they hold, case-folded already: four 32-bit words for codes 0-31, 32-63, 64-95 and
///   96-127, each most significant digit first;
/// - `B`: `^`, passed only at the start of the URL; `E`: `$`, passed only at its end;
/// - `S<a>;<b>;`: goes on to both states `a` and `b`.
///
/// A state other than a split goes on to the next state, unless `J<n>;` right after its token
/// names state `n`. The states may be preceded by `G<n>;` when matching starts at state `n`
/// rather than 0, then by `L<count>;<text>`: `count` lowercase characters that every match
/// contains (the resolver's required literal), for the script to look for first. A program
/// without any capital letter is plain characters alone, the text to look for: the program of
/// `tracker\.test\/a\.js` is `tracker.test/a.js`, that of `ads\.js.*track` is
/// `L6;ads.jsads.jsJ7;DS6;8;track`.
enum RuleProgram {
    /// The program of `regex`; throws the resolver's error for an expression it refuses.
    static func program(of regex: TrackerRuleRegex) throws(TrackerRuleRegex.ParseError) -> String {
        program(of: try regex.matcher())
    }

    /// The program of a regex the resolver has compiled: its states, start and required literal.
    static func program(of matcher: TrackerRuleRegex.Matcher) -> String {
        let states = matcher.states
        let last = states.count - 1
        // State `index` of the resolver is state `last - index` of the program.
        var body: [UInt8] = []
        body.reserveCapacity(states.count + 8)
        var isPlain = true
        func go(to next: Int, from number: Int) {
            guard last - next != number + 1 else { return }
            isPlain = false
            body.append(UInt8(ascii: "J"))
            appendNumber(last - next, to: &body)
        }
        for index in stride(from: last, to: 0, by: -1) {
            let number = last - index
            switch states[index] {
            case .byte(let set, let next):
                if let byte = TrackerRuleRegex.plainByte(set) {
                    body.append(byte)
                } else if set == CharacterSet128.dot {
                    isPlain = false
                    body.append(UInt8(ascii: "D"))
                } else {
                    isPlain = false
                    body.append(UInt8(ascii: "C"))
                    appendHex(set, to: &body)
                }
                go(to: next, from: number)
            case .split(let first, let second):
                isPlain = false
                body.append(UInt8(ascii: "S"))
                appendNumber(last - first, to: &body)
                appendNumber(last - second, to: &body)
            case .start(let next):
                isPlain = false
                body.append(UInt8(ascii: "B"))
                go(to: next, from: number)
            case .end(let next):
                isPlain = false
                body.append(UInt8(ascii: "E"))
                go(to: next, from: number)
            case .match:
                preconditionFailure("the match state is the first the resolver's builder adds, and the only one")
            }
        }
        var header: [UInt8] = []
        if last - matcher.start != 0 {
            header.append(UInt8(ascii: "G"))
            appendNumber(last - matcher.start, to: &header)
        }
        // A program of plain characters alone is its own literal.
        if !isPlain || !header.isEmpty {
            let literal = matcher.requiredLiteral
            if !literal.isEmpty {
                header.append(UInt8(ascii: "L"))
                appendNumber(literal.count, to: &header)
                header.append(contentsOf: literal)
            }
        }
        return String(decoding: header + body, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func appendHex(_ set: CharacterSet128, to output: inout [UInt8]) {
        for word in [set.low & 0xFFFF_FFFF, set.low >> 32, set.high & 0xFFFF_FFFF, set.high >> 32] {
            for shift in stride(from: 28, through: 0, by: -4) { output.append(hexDigits[Int((word >> UInt64(shift)) & 15)]) }
        }
    }

    /// Appends `value` in decimal and a `;`.
    private static func appendNumber(_ value: Int, to output: inout [UInt8]) {
        output.append(contentsOf: String(value).utf8)
        output.append(UInt8(ascii: ";"))
    }
}

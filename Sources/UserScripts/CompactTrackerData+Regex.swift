import TrackerData

/// Writes a parsed tds rule expression as JavaScript `RegExp` source that, compiled with the `i`
/// flag, matches the same ASCII URLs as the resolver's matcher.
enum JavaScriptRegex {
    static func source(of regex: TrackerRuleRegex) -> String {
        var output = ""
        write(regex.alternatives, to: &output)
        return output
    }

    /// How many states the resolver's matcher compiles the expression into (it refuses 20,000).
    static func stateCount(of regex: TrackerRuleRegex) -> Int {
        1 + stateCount(regex.alternatives)
    }

    private static func stateCount(_ alternatives: [[TrackerRuleRegex.Node]]) -> Int {
        var count = max(alternatives.count - 1, 0)
        for sequence in alternatives {
            for node in sequence { count += stateCount(node) }
        }
        return count
    }

    private static func stateCount(_ node: TrackerRuleRegex.Node) -> Int {
        switch node {
        case .character, .startAnchor, .endAnchor:
            return 1
        case .group(let alternatives):
            return stateCount(alternatives)
        case .repetition(let atom, let minimum, let maximum):
            let body = stateCount(atom)
            if let maximum { return (maximum - minimum) * (body + 1) + minimum * body }
            return 1 + body + max(minimum - 1, 0) * body
        }
    }

    private static func write(_ alternatives: [[TrackerRuleRegex.Node]], to output: inout String) {
        for (index, sequence) in alternatives.enumerated() {
            if index > 0 { output += "|" }
            for node in sequence { write(node, to: &output) }
        }
    }

    private static func write(_ node: TrackerRuleRegex.Node, to output: inout String) {
        switch node {
        case .character(let set):
            write(set.caseFolded, to: &output)
        case .group(let alternatives):
            output += "(?:"
            write(alternatives, to: &output)
            output += ")"
        case .repetition(let atom, let minimum, let maximum):
            // An atom is a character, a group or an anchor; anchors are never repeated.
            write(atom, to: &output)
            switch (minimum, maximum) {
            case (0, nil): output += "*"
            case (1, nil): output += "+"
            case (0, 1?): output += "?"
            case (_, nil): output += "{\(minimum),}"
            case (_, let maximum?) where maximum == minimum: output += "{\(minimum)}"
            case (_, let maximum?): output += "{\(minimum),\(maximum)}"
            }
        case .startAnchor:
            output += "^"
        case .endAnchor:
            output += "$"
        }
    }

    /// A case-folded set: as one character when the `i` flag makes it one, else as a class whose
    /// letters are written in lowercase only (the flag adds the uppercase ones).
    private static func write(_ set: CharacterSet128, to output: inout String) {
        if set == CharacterSet128.dot {
            output += "."
            return
        }
        // Most sets are one character, or one letter in both cases.
        let count = set.count
        if let first = set.first, count == 1 || (count == 2 && isUppercase(first) && set.contains(first | 0x20)) {
            output += escaped(count == 2 ? first | 0x20 : first, inClass: false)
            return
        }
        let members = set.members.filter { !isUppercase($0) }
        if set == CharacterSet128.digits {
            output += "\\d"
            return
        }
        if members.count <= 48 {
            output += "["
            writeRanges(members, to: &output)
            output += "]"
            return
        }
        // Large sets read better (and shorter) as what they leave out; the complement of a
        // case-folded set is case-folded too, so the `i` flag keeps the meaning.
        let complement = set.inverted.members.filter { !isUppercase($0) }
        output += "[^"
        writeRanges(complement, to: &output)
        output += "]"
    }

    private static func writeRanges(_ members: [UInt8], to output: inout String) {
        var index = 0
        while index < members.count {
            var end = index
            while end + 1 < members.count, members[end + 1] == members[end] + 1 { end += 1 }
            output += escaped(members[index], inClass: true)
            if end - index >= 2 {
                output += "-" + escaped(members[end], inClass: true)
            } else if end > index {
                output += escaped(members[end], inClass: true)
            }
            index = end + 1
        }
    }

    private static func isUppercase(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
    }

    private static func escaped(_ byte: UInt8, inClass: Bool) -> String {
        if byte < 0x20 || byte == 0x7F {
            let hex = String(byte, radix: 16)
            return "\\x" + (hex.count == 1 ? "0" + hex : hex)
        }
        let character = String(UnicodeScalar(byte))
        switch byte {
        case UInt8(ascii: "\\"), UInt8(ascii: "]"), UInt8(ascii: "^"), UInt8(ascii: "["):
            return "\\" + character
        case UInt8(ascii: "-"):
            return inClass ? "\\-" : character
        case UInt8(ascii: "$"), UInt8(ascii: "."), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"),
            UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "|"):
            return inClass ? character : "\\" + character
        default:
            return character
        }
    }
}

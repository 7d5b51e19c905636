import TrackerDataKit

/// Writes a parsed tds rule expression as JavaScript `RegExp` source that, compiled with the `i`
/// flag, matches the same ASCII URLs as the resolver's matcher.
enum JavaScriptRegex {
    static func source(of regex: TrackerRuleRegex) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(64)
        write(regex.alternatives, to: &output)
        return String(decoding: output, as: UTF8.self)
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

    private static func write(_ alternatives: [[TrackerRuleRegex.Node]], to output: inout [UInt8]) {
        for (index, sequence) in alternatives.enumerated() {
            if index > 0 { output.append(UInt8(ascii: "|")) }
            for node in sequence { write(node, to: &output) }
        }
    }

    private static func write(_ node: TrackerRuleRegex.Node, to output: inout [UInt8]) {
        switch node {
        case .character(let set):
            write(set.caseFolded, to: &output)
        case .group(let alternatives):
            output.append(contentsOf: "(?:".utf8)
            write(alternatives, to: &output)
            output.append(UInt8(ascii: ")"))
        case .repetition(let atom, let minimum, let maximum):
            // An atom is a character, a group or an anchor; anchors are never repeated.
            write(atom, to: &output)
            switch (minimum, maximum) {
            case (0, nil): output.append(UInt8(ascii: "*"))
            case (1, nil): output.append(UInt8(ascii: "+"))
            case (0, 1?): output.append(UInt8(ascii: "?"))
            case (_, nil): output.append(contentsOf: "{\(minimum),}".utf8)
            case (_, let maximum?) where maximum == minimum: output.append(contentsOf: "{\(minimum)}".utf8)
            case (_, let maximum?): output.append(contentsOf: "{\(minimum),\(maximum)}".utf8)
            }
        case .startAnchor:
            output.append(UInt8(ascii: "^"))
        case .endAnchor:
            output.append(UInt8(ascii: "$"))
        }
    }

    /// A case-folded set: as one character when the `i` flag makes it one, else as a class whose
    /// letters are written in lowercase only (the flag adds the uppercase ones).
    private static func write(_ set: CharacterSet128, to output: inout [UInt8]) {
        // Most sets are one character, or one letter in both cases: told from the bits alone.
        if set.high == 0 {
            if set.low != 0, set.low & (set.low &- 1) == 0 {
                appendEscaped(UInt8(set.low.trailingZeroBitCount), inClass: false, to: &output)
                return
            }
        } else if set.low == 0 {
            // Lowercase letters a-z are bits 33...58 of `high`, their uppercase 32 bits lower.
            let lowercase = set.high & (0x3FF_FFFF << 33)
            if lowercase != 0, lowercase & (lowercase &- 1) == 0, set.high == lowercase | (lowercase >> 32) {
                appendEscaped(UInt8(64 + lowercase.trailingZeroBitCount), inClass: false, to: &output)
                return
            }
            if set.high & (set.high &- 1) == 0 {
                appendEscaped(UInt8(64 + set.high.trailingZeroBitCount), inClass: false, to: &output)
                return
            }
        }
        if set == CharacterSet128.dot {
            output.append(UInt8(ascii: "."))
            return
        }
        // Most sets are one character, or one letter in both cases.
        let count = set.count
        if let first = set.first, count == 1 || (count == 2 && isUppercase(first) && set.contains(first | 0x20)) {
            appendEscaped(count == 2 ? first | 0x20 : first, inClass: false, to: &output)
            return
        }
        if set == CharacterSet128.digits {
            output.append(contentsOf: "\\d".utf8)
            return
        }
        let members = set.members.filter { !isUppercase($0) }
        if members.count <= 48 {
            output.append(UInt8(ascii: "["))
            writeRanges(members, to: &output)
            output.append(UInt8(ascii: "]"))
            return
        }
        // Large sets read better (and shorter) as what they leave out; the complement of a
        // case-folded set is case-folded too, so the `i` flag keeps the meaning.
        output.append(contentsOf: "[^".utf8)
        writeRanges(set.inverted.members.filter { !isUppercase($0) }, to: &output)
        output.append(UInt8(ascii: "]"))
    }

    private static func writeRanges(_ members: [UInt8], to output: inout [UInt8]) {
        var index = 0
        while index < members.count {
            var end = index
            while end + 1 < members.count, members[end + 1] == members[end] + 1 { end += 1 }
            appendEscaped(members[index], inClass: true, to: &output)
            if end - index >= 2 {
                output.append(UInt8(ascii: "-"))
                appendEscaped(members[end], inClass: true, to: &output)
            } else if end > index {
                appendEscaped(members[end], inClass: true, to: &output)
            }
            index = end + 1
        }
    }

    private static func isUppercase(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func appendEscaped(_ byte: UInt8, inClass: Bool, to output: inout [UInt8]) {
        if byte < 0x20 || byte == 0x7F {
            output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "x"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 15)]])
            return
        }
        let needsEscape: Bool
        switch byte {
        case UInt8(ascii: "\\"), UInt8(ascii: "]"), UInt8(ascii: "^"), UInt8(ascii: "["):
            needsEscape = true
        case UInt8(ascii: "-"):
            needsEscape = inClass
        case UInt8(ascii: "$"), UInt8(ascii: "."), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"),
            UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "|"):
            needsEscape = !inClass
        default:
            needsEscape = false
        }
        if needsEscape { output.append(UInt8(ascii: "\\")) }
        output.append(byte)
    }
}

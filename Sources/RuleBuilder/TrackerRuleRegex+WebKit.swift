import TrackerDataKit
import TrackerlessCore

/// Rewriting a Tracker Radar rule regex into WebKit url-filters.
extension TrackerRuleRegex {
    /// The most alternatives one rule may expand into; a rule beyond it is reported, not emitted.
    static let maximumExpansion = 64
    /// The most copies a counted repetition (`{n,m}`) may expand into.
    static let maximumRepetitionCopies = 16

    /// The regex as a list of alternatives in which every group has one alternative and every
    /// quantifier is `?`, `*` or `+`: the shapes WebKit accepts.
    func expanded() throws(ParseError) -> [[Node]] {
        if alternatives.count == 1, let only = alternatives.first, only.allSatisfy({ $0.isWebKitShaped }) {
            return alternatives
        }
        var result: [[Node]] = []
        for alternative in alternatives {
            result += try Self.expand(sequence: alternative)
            guard result.count <= Self.maximumExpansion else {
                throw ParseError(reason: "expands into more than \(Self.maximumExpansion) alternatives", offset: 0)
            }
        }
        return result
    }

    static func expand(sequence: [Node]) throws(ParseError) -> [[Node]] {
        var variants: [[Node]] = [[]]
        for node in sequence {
            let options = try expand(node: node)
            var next: [[Node]] = []
            next.reserveCapacity(variants.count * options.count)
            for prefix in variants {
                for option in options { next.append(prefix + option) }
            }
            guard next.count <= maximumExpansion else {
                throw ParseError(reason: "expands into more than \(maximumExpansion) alternatives", offset: 0)
            }
            variants = next
        }
        return variants
    }

    /// The alternatives a single node stands for, each as a sequence.
    private static func expand(node: Node) throws(ParseError) -> [[Node]] {
        switch node {
        case .character, .startAnchor, .endAnchor:
            return [[node]]
        case .group(let alternatives):
            var result: [[Node]] = []
            for alternative in alternatives { result += try expand(sequence: alternative) }
            return result
        case .repetition(let atom, let minimum, let maximum):
            let variants = try expand(node: atom)
            if variants.count == 1, let only = variants.first {
                return [try repeated(only, minimum: minimum, maximum: maximum)]
            }
            switch (minimum, maximum) {
            case (1, 1?): return variants
            case (0, 1?): return variants + [[]]
            case (0, 0?): return [[]]
            default:
                throw ParseError(reason: "a repeated alternation cannot be expressed in WebKit rules", offset: 0)
            }
        }
    }

    private static func repeated(_ body: [Node], minimum: Int, maximum: Int?) throws(ParseError) -> [Node] {
        let unit: Node = body.count == 1 ? body[0] : .group([body])
        if body.isEmpty { return [] }
        switch (minimum, maximum) {
        case (0, 1?): return [.repetition(unit, min: 0, max: 1)]
        case (0, nil): return [.repetition(unit, min: 0, max: nil)]
        case (1, nil): return [.repetition(unit, min: 1, max: nil)]
        default: break
        }
        let copies = maximum ?? (minimum + 1)
        guard copies <= maximumRepetitionCopies else {
            throw ParseError(reason: "a {\(minimum),\(maximum.map(String.init) ?? "")} repetition is too long for WebKit rules", offset: 0)
        }
        var result: [Node] = []
        for _ in 0..<minimum { result += body }
        if let maximum {
            for _ in minimum..<max(minimum, maximum) { result.append(.repetition(unit, min: 0, max: 1)) }
        } else {
            result.append(.repetition(unit, min: 0, max: nil))
        }
        return result
    }
}

extension TrackerRuleRegex.Node {
    /// Whether WebKit accepts the node as it is: no alternation, only `?`, `*` and `+`.
    var isWebKitShaped: Bool {
        switch self {
        case .character, .startAnchor, .endAnchor: true
        case .group(let alternatives): alternatives.count == 1 && alternatives[0].allSatisfy(\.isWebKitShaped)
        case .repetition(let atom, let minimum, let maximum):
            atom.isWebKitShaped && ((minimum == 0 && (maximum == 1 || maximum == nil)) || (minimum == 1 && maximum == nil))
        }
    }
}

// MARK: - Rendering

extension TrackerRuleRegex {
    /// WebKit's url-filter syntax for an expanded sequence.
    static func render(_ sequence: some Collection<Node>) -> String {
        render(sequence, after: "", "")
    }

    /// `prefix`, then `infix`, then ``render(_:)`` of `sequence`, written into one buffer: a
    /// url-filter is a host pattern, a port group and the rule's path, and joining Strings cost
    /// an allocation each, for every rule.
    static func render(_ sequence: some Collection<Node>, after prefix: String, _ infix: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(prefix.utf8.count + infix.utf8.count + sequence.count + 16)
        output += prefix.utf8
        output += infix.utf8
        for node in sequence {
            // Plain characters, most nodes of a rule, without the general switch.
            if case .character(let set) = node, let byte = set.onlyMember, byte != 0 {
                appendLiteral(byte, to: &output)
            } else {
                render(node, into: &output)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func render(_ node: Node, into output: inout [UInt8]) {
        switch node {
        case .character(let set):
            render(set, into: &output)
        case .startAnchor:
            output.append(UInt8(ascii: "^"))
        case .endAnchor:
            output.append(UInt8(ascii: "$"))
        case .group(let alternatives):
            output.append(UInt8(ascii: "("))
            for node in alternatives.first ?? [] { render(node, into: &output) }
            output.append(UInt8(ascii: ")"))
        case .repetition(let atom, let minimum, let maximum):
            render(atom, into: &output)
            switch (minimum, maximum) {
            case (0, 1?): output.append(UInt8(ascii: "?"))
            case (0, nil): output.append(UInt8(ascii: "*"))
            default: output.append(UInt8(ascii: "+"))
            }
        }
    }

    /// A character set in WebKit syntax. Only printable ASCII can occur in a canonical URL
    /// (spaces and controls are percent-encoded), so the shortest form that agrees on it is used.
    static func render(_ set: CharacterSet128) -> String {
        var output: [UInt8] = []
        render(set, into: &output)
        return String(decoding: output, as: UTF8.self)
    }

    private static func render(_ set: CharacterSet128, into output: inout [UInt8]) {
        // WebKit reads a NUL in a url-filter as the end of the pattern and refuses the rule; no URL
        // holds one, so the empty class, which matches nothing, means the same.
        if set.onlyMember == 0 { return output += Array("[]".utf8) }
        if let byte = set.onlyMember { return appendLiteral(byte, to: &output) }
        if set.count == 2, let byte = set.first, byte >= 0x41, byte <= 0x5A, set.contains(byte + 0x20) {
            return appendLiteral(byte + 0x20, to: &output)
        }
        let printable = CharacterSet128.range(0x21, 0x7E)
        let folded = set.caseFolded
        let members = printable.members.filter { folded.contains($0) }
        if members.count == printable.count { return output.append(UInt8(ascii: ".")) }
        if members.count == 1, let byte = members.first { return appendLiteral(byte, to: &output) }
        let excluded = printable.members.filter { !folded.contains($0) }
        if excluded.count < members.count {
            output += Array(("[^" + classBody(excluded) + "]").utf8)
        } else {
            output += Array(("[" + classBody(set.members.filter { printable.contains($0) }) + "]").utf8)
        }
    }

    /// A literal character, escaped when it is a regex metacharacter.
    static func appendLiteral(_ byte: UInt8, to output: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\\"), UInt8(ascii: "^"), UInt8(ascii: "$"), UInt8(ascii: "."), UInt8(ascii: "|"),
            UInt8(ascii: "?"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "("), UInt8(ascii: ")"),
            UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"):
            output.append(UInt8(ascii: "\\"))
            output.append(byte)
        default:
            output.append(byte)
        }
    }

    static func escapedLiteral(_ byte: UInt8) -> String {
        var output: [UInt8] = []
        appendLiteral(byte, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Members of a class as ranges, escaping what is special inside brackets.
    private static func classBody(_ members: [UInt8]) -> String {
        var output = ""
        var index = 0
        func literal(_ byte: UInt8) -> String {
            let scalar = Character(Unicode.Scalar(byte))
            switch scalar {
            case "\\", "]", "[", "^", "-": return "\\" + String(scalar)
            default: return String(scalar)
            }
        }
        while index < members.count {
            var end = index
            while end + 1 < members.count, members[end + 1] == members[end] + 1 { end += 1 }
            if end - index >= 2 {
                output += literal(members[index]) + "-" + literal(members[end])
            } else {
                for position in index...end { output += literal(members[position]) }
            }
            index = end + 1
        }
        return output
    }

    /// A domain as a WebKit regex literal (only `.` needs escaping in a valid host name).
    static func escapedDomain(_ domain: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(domain.utf8.count + 8)
        appendEscapedDomain(domain, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends ``escapedDomain(_:)`` of `domain` to `output`.
    static func appendEscapedDomain(_ domain: String, to output: inout [UInt8]) {
        var domain = domain
        domain.withUTF8 { bytes in
            for byte in bytes {
                switch byte {
                // Nearly every byte of a host name: no escape needed, no call.
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
                    output.append(byte)
                default:
                    appendLiteral(byte, to: &output)
                }
            }
        }
    }
}

// MARK: - Static matching (for CNAME targets)

extension TrackerRuleRegex {
    /// Whether an expanded sequence matches a substring of `text` (ASCII, case-insensitive),
    /// optionally one that ends where `text` ends: the resolver's own matcher
    /// (``TrackerRuleRegex/Matcher``, linear in the text), so the builder and the resolver read a
    /// host part alike. Nil when the sequence is too large to compile.
    static func matchesSubstring(_ sequence: ArraySlice<Node>, of text: String, endingAtEnd: Bool) -> Bool? {
        // Most host parts are plain characters: the matcher's own literal test (what it does
        // when the required literal is the whole pattern), without compiling the automaton.
        if let literal = plainLiteral(sequence) {
            let lowered = text.utf8.map(ASCII.lowercased)
            if endingAtEnd { return lowered.count >= literal.count && lowered.suffix(literal.count).elementsEqual(literal) }
            return literal.isEmpty || lowered.indices.contains { lowered[$0...].starts(with: literal) }
        }
        let nodes = endingAtEnd ? Array(sequence) + [.endAnchor] : Array(sequence)
        guard let matcher = try? TrackerRuleRegex(alternatives: [nodes]).matcher() else { return nil }
        return matcher.matches(text)
    }

    /// The lowercase bytes of a sequence of plain characters (``TrackerRuleRegex/plainByte(_:)``,
    /// one byte up to ASCII case each); nil for any other sequence.
    private static func plainLiteral(_ sequence: ArraySlice<Node>) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(sequence.count)
        for node in sequence {
            guard case .character(let set) = node, let byte = plainByte(set.caseFolded) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }
}

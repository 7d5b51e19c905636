import TrackerlessCore

// A candidate filter for the reference evaluator: most url-filters contain a literal that every
// matching URL must contain. Indexing rules by a 4-byte piece of that literal lets the evaluator
// run the full matcher only on rules whose piece occurs in the URL. The filter only ever skips
// rules that cannot match, so results are exactly those of checking every rule.

enum LiteralPrefilter {
    /// The runs of characters that every URL matched by `pattern` contains, lowercased.
    ///
    /// Conservative: any construct it does not fully understand ends the scan, keeping only what
    /// was certain before it. Valid patterns have no `|`, so each literal atom outside groups that
    /// is not optional is required, and adjacent ones are required together.
    static func requiredRuns(in pattern: String) -> [[UInt8]] {
        let bytes = Array(pattern.utf8)
        var runs: [[UInt8]] = []
        var current: [UInt8] = []
        func flush() {
            if !current.isEmpty { runs.append(current) }
            current = []
        }
        var index = 0
        if bytes.first == UInt8(ascii: "^") { index = 1 }
        scan: while index < bytes.count {
            let byte = bytes[index]
            var literal: UInt8?
            var end = index + 1
            switch byte {
            case UInt8(ascii: "\\"):
                guard index + 1 < bytes.count else { break scan }
                let escaped = bytes[index + 1]
                if escaped >= 0x80 { break scan }
                literal = isAlphanumeric(escaped) ? nil : escaped
                end = index + 2
            case UInt8(ascii: "["):
                var cursor = index + 1
                while cursor < bytes.count && bytes[cursor] != UInt8(ascii: "]") {
                    cursor += bytes[cursor] == UInt8(ascii: "\\") ? 2 : 1
                }
                guard cursor < bytes.count else { break scan }
                end = cursor + 1
            case UInt8(ascii: "("):
                guard let close = closingParenthesis(bytes, from: index) else { break scan }
                end = close + 1
            case UInt8(ascii: "."), UInt8(ascii: "$"):
                break
            case UInt8(ascii: "|"), UInt8(ascii: ")"), UInt8(ascii: "^"), UInt8(ascii: "*"), UInt8(ascii: "+"),
                UInt8(ascii: "?"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "]"):
                break scan
            default:
                if byte >= 0x80 { break scan }
                literal = byte
            }
            // Quantifier of the atom.
            var isOptional = false
            var endsRun = false
            if end < bytes.count {
                switch bytes[end] {
                case UInt8(ascii: "?"), UInt8(ascii: "*"):
                    isOptional = true
                    end += 1
                case UInt8(ascii: "+"):
                    endsRun = true
                    end += 1
                case UInt8(ascii: "{"):
                    break scan
                default:
                    break
                }
                if isOptional || endsRun, end < bytes.count, bytes[end] == UInt8(ascii: "?") { end += 1 }
            }
            if isOptional {
                flush()
            } else if let literal {
                current.append(ASCII.lowercased(literal))
                if endsRun { flush() }
            } else {
                flush()
            }
            index = end
        }
        flush()
        return runs
    }

    /// The 4-byte pieces of the runs, packed into integers.
    static func grams(of runs: [[UInt8]]) -> [UInt32] {
        var grams: [UInt32] = []
        for run in runs where run.count >= 4 {
            for start in 0...(run.count - 4) {
                grams.append(pack(run[start], run[start + 1], run[start + 2], run[start + 3]))
            }
        }
        return grams
    }

    static func pack(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> UInt32 {
        UInt32(a) << 24 | UInt32(b) << 16 | UInt32(c) << 8 | UInt32(d)
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    /// The index of the `)` closing the group opened at `start`, skipping escapes and sets.
    private static func closingParenthesis(_ bytes: [UInt8], from start: Int) -> Int? {
        var depth = 0
        var cursor = start
        while cursor < bytes.count {
            switch bytes[cursor] {
            case UInt8(ascii: "\\"):
                cursor += 1
            case UInt8(ascii: "["):
                cursor += 1
                while cursor < bytes.count && bytes[cursor] != UInt8(ascii: "]") {
                    cursor += bytes[cursor] == UInt8(ascii: "\\") ? 2 : 1
                }
            case UInt8(ascii: "("):
                depth += 1
            case UInt8(ascii: ")"):
                depth -= 1
                if depth == 0 { return cursor }
            default:
                break
            }
            cursor += 1
        }
        return nil
    }
}

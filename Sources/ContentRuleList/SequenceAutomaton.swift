/// The position automaton of a pattern that is a sequence of quantified character sets (after
/// inlining unquantified groups, and groups around a single set), with no limit on its length.
///
/// Bit `p` of the state is "the p-th set just matched" (bit 0: nothing read yet). In such a
/// sequence a position is followed by the next one, by every later one up to the first that
/// cannot be skipped, and by itself when it repeats, so one character is a shift, an addition
/// that carries the state across runs of skippable positions, and masks: a few operations per
/// word, and only the words up to the highest active one are touched.
struct SequenceAutomaton {
    /// Words per state vector: positions 0…count and the bit after the last.
    private let words: Int
    /// Positions that may be skipped (`?`, `*`).
    private let skippable: OwnedBuffer<UInt64>
    /// Positions that may repeat (`*`, `+`).
    private let repeating: OwnedBuffer<UInt64>
    /// Positions after which only skippable ones follow: a match.
    private let finals: OwnedBuffer<UInt64>
    /// Byte → index of its mask in `classMasks`.
    private let byteClass: OwnedBuffer<UInt16>
    /// For each byte class, `words` words: the positions whose set contains those bytes.
    private let classMasks: OwnedBuffer<UInt64>

    /// Nil when a quantifier applies to a group of more than one term.
    init?(terms: [Term]) {
        guard let sequence = Self.flatten(terms) else { return nil }
        let count = sequence.count
        let words = (count + 2 + 63) / 64
        self.words = words
        var skippable = [UInt64](repeating: 0, count: words)
        var repeating = [UInt64](repeating: 0, count: words)
        var finals = [UInt64](repeating: 0, count: words)
        var positionsOf = [[UInt64]](repeating: [UInt64](repeating: 0, count: words), count: 128)
        var allSkippableAfter = true
        for index in stride(from: count - 1, through: 0, by: -1) {
            let (set, quantifier) = sequence[index]
            let position = index + 1
            let word = position / 64, bit = UInt64(1) << UInt64(position % 64)
            if allSkippableAfter { finals[word] |= bit }
            switch quantifier {
            case .one: allSkippableAfter = false
            case .zeroOrOne: skippable[word] |= bit
            case .zeroOrMore: skippable[word] |= bit; repeating[word] |= bit
            case .oneOrMore: repeating[word] |= bit; allSkippableAfter = false
            }
            var low = set.low
            while low != 0 {
                positionsOf[low.trailingZeroBitCount][word] |= bit
                low &= low - 1
            }
            var high = set.high
            while high != 0 {
                positionsOf[64 + high.trailingZeroBitCount][word] |= bit
                high &= high - 1
            }
        }
        // Characters with the same positions share a mask; class 0 (bytes 128…255) has none.
        var masks: [[UInt64]] = [[UInt64](repeating: 0, count: words)]
        var indexOfMask: [[UInt64]: UInt16] = [masks[0]: 0]
        var classes = [UInt16](repeating: 0, count: 256)
        for character in 0..<128 {
            let mask = positionsOf[character]
            if let existing = indexOfMask[mask] {
                classes[character] = existing
            } else {
                classes[character] = UInt16(masks.count)
                indexOfMask[mask] = UInt16(masks.count)
                masks.append(mask)
            }
        }
        self.skippable = OwnedBuffer(skippable)
        self.repeating = OwnedBuffer(repeating)
        self.finals = OwnedBuffer(finals)
        byteClass = OwnedBuffer(classes)
        classMasks = OwnedBuffer(masks.flatMap { $0 })
    }

    func deallocate() {
        skippable.deallocate()
        repeating.deallocate()
        finals.deallocate()
        byteClass.deallocate()
        classMasks.deallocate()
    }

    /// The sets and quantifiers in order, or nil when a quantified group holds several terms.
    private static func flatten(_ terms: [Term]) -> [(set: (low: UInt64, high: UInt64), quantifier: Term.Quantifier)]? {
        var sequence: [(set: (low: UInt64, high: UInt64), quantifier: Term.Quantifier)] = []
        func append(_ terms: [Term], under outer: Term.Quantifier) -> Bool {
            for term in terms {
                switch term.atom {
                case .characterSet(let set):
                    sequence.append((set.matchedWords, combined(term.quantifier, under: outer)))
                case .group(let inner):
                    if term.quantifier == .one && outer == .one {
                        guard append(inner, under: .one) else { return false }
                    } else {
                        // A quantified group is one position only when it holds one set.
                        guard inner.count == 1, case .characterSet = inner[0].atom, terms.count == 1 || outer == .one
                        else { return false }
                        guard append(inner, under: combined(term.quantifier, under: outer)) else { return false }
                    }
                }
            }
            return true
        }
        return append(terms, under: .one) ? sequence : nil
    }

    /// The quantifier of `(x inner) outer` as one quantifier on x: `(a?)+` is `a*`.
    private static func combined(_ inner: Term.Quantifier, under outer: Term.Quantifier) -> Term.Quantifier {
        if outer == .one { return inner }
        if inner == .one || inner == outer { return outer }
        return .zeroOrMore
    }

    func matches(_ url: UnsafeBufferPointer<UInt8>) -> Bool {
        let words = self.words
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 2 * words) { scratch in
            guard let base = scratch.baseAddress else { return false }
            var state = base, next = base + words
            base.initialize(repeating: 0, count: 2 * words)
            state[0] = 1
            // The highest word that may be nonzero in `state` and in `next` (-1: none).
            var highest = 0, spareHighest = -1
            var index = 0
            while index <= url.count {
                let byte = index < url.count ? url[index] : 0
                let masks = classMasks.address(of: Int(byteClass[Int(byte)]) * words)
                var shifted: UInt64 = 0, carry: UInt64 = 0
                var nextHighest = -1, live = false, matched = false
                var word = 0
                // Past highest + 1 the state is zero, so only a pending carry writes anything.
                while word < words && (word <= highest + 1 || carry != 0) {
                    let current = state[word]
                    let reached = current << 1 | shifted
                    shifted = current >> 63
                    let skip = skippable[word]
                    let (sum, overflow) = (reached & skip).addingReportingOverflow(skip)
                    let (total, overflow2) = sum.addingReportingOverflow(carry)
                    carry = overflow || overflow2 ? 1 : 0
                    let value = (reached | (total ^ skip) | (current & repeating[word])) & masks[word]
                    next[word] = value
                    if value != 0 {
                        nextHighest = word
                        live = true
                        if value & finals[word] != 0 { matched = true }
                    }
                    word += 1
                }
                if matched { return true }
                if !live { return false }
                // Clear what the state before last left above the words just written.
                var stale = word
                while stale <= spareHighest {
                    next[stale] = 0
                    stale += 1
                }
                swap(&state, &next)
                spareHighest = highest
                highest = nextHighest
                index += 1
            }
            return false
        }
    }
}

/// States are the character-set occurrences of the pattern ("positions"), plus position 0 for
/// the start; reading a character moves to every position that can follow an active one and
/// whose set contains the character. No empty transitions, so one word holds the whole state.
struct PositionAutomaton {
    /// Positions that can follow each position.
    private let follow: OwnedBuffer<UInt64>
    /// Byte → index in `classMasks`.
    private let byteClass: OwnedBuffer<UInt8>
    /// For each byte class, the positions whose set contains those bytes.
    private let classMasks: OwnedBuffer<UInt64>
    /// Positions that end a match.
    private let finalPositions: UInt64

    /// Nil when the pattern has more than 63 positions.
    init?(terms: [Term]) {
        var builder = Builder()
        guard builder.countPositions(terms) <= 63 else { return nil }
        let whole = builder.fragment(terms)
        builder.follow[0] = whole.first
        follow = OwnedBuffer(builder.follow)
        finalPositions = whole.last | (whole.isNullable ? 1 : 0)

        // For each character 0…127, the positions whose set contains it (128…255: none), built
        // by walking each set's members once.
        var positionsOf = [UInt64](repeating: 0, count: 128)
        for (position, set) in builder.sets.enumerated() where position > 0 {
            let words = set.matchedWords
            let bit: UInt64 = 1 << UInt64(position)
            var low = words.low
            while low != 0 {
                positionsOf[low.trailingZeroBitCount] |= bit
                low &= low - 1
            }
            var high = words.high
            while high != 0 {
                positionsOf[64 + high.trailingZeroBitCount] |= bit
                high &= high - 1
            }
        }
        // Characters with the same positions share a class; class 0 is "no position" (which
        // bytes 128…255 are). Patterns have few distinct classes, so a linear search is enough.
        var masks: [UInt64] = [0]
        var classes = [UInt8](repeating: 0, count: 256)
        for character in 0..<128 {
            let mask = positionsOf[character]
            if let existing = masks.firstIndex(of: mask) {
                classes[character] = UInt8(existing)
            } else {
                classes[character] = UInt8(masks.count)
                masks.append(mask)
            }
        }
        byteClass = OwnedBuffer(classes)
        classMasks = OwnedBuffer(masks)
    }

    func deallocate() {
        follow.deallocate()
        byteClass.deallocate()
        classMasks.deallocate()
    }

    private struct Fragment {
        var first: UInt64 = 0
        var last: UInt64 = 0
        var isNullable = true
    }

    private struct Builder {
        var sets: [Term.CharacterSet] = [Term.CharacterSet()]
        var follow: [UInt64] = [0]

        func countPositions(_ terms: [Term]) -> Int {
            terms.reduce(0) { count, term in
                switch term.atom {
                case .characterSet: count + 1
                case .group(let inner): count + countPositions(inner)
                }
            }
        }

        mutating func fragment(_ terms: [Term]) -> Fragment {
            var result = Fragment()
            for term in terms {
                let next = fragment(term)
                addFollow(from: result.last, to: next.first)
                result = Fragment(
                    first: result.first | (result.isNullable ? next.first : 0),
                    last: next.last | (next.isNullable ? result.last : 0),
                    isNullable: result.isNullable && next.isNullable
                )
            }
            return result
        }

        mutating func fragment(_ term: Term) -> Fragment {
            var atom: Fragment
            switch term.atom {
            case .characterSet(let set):
                let position = sets.count
                sets.append(set)
                follow.append(0)
                atom = Fragment(first: 1 << UInt64(position), last: 1 << UInt64(position), isNullable: false)
            case .group(let inner):
                atom = fragment(inner)
            }
            switch term.quantifier {
            case .one:
                break
            case .zeroOrOne:
                atom.isNullable = true
            case .zeroOrMore:
                addFollow(from: atom.last, to: atom.first)
                atom.isNullable = true
            case .oneOrMore:
                addFollow(from: atom.last, to: atom.first)
            }
            return atom
        }

        mutating func addFollow(from sources: UInt64, to targets: UInt64) {
            var remaining = sources
            while remaining != 0 {
                follow[remaining.trailingZeroBitCount] |= targets
                remaining &= remaining - 1
            }
        }
    }

    func matches(_ url: UnsafeBufferPointer<UInt8>) -> Bool {
        var state: UInt64 = 1
        var index = 0
        while index <= url.count {
            let byte = index < url.count ? url[index] : 0
            var next: UInt64 = 0
            var active = state
            while active != 0 {
                next |= follow[active.trailingZeroBitCount]
                active &= active - 1
            }
            state = next & classMasks[Int(byteClass[Int(byte)])]
            if state & finalPositions != 0 { return true }
            if state == 0 { return false }
            index += 1
        }
        return false
    }
}

/// A run of single characters every match must contain, searched for first (Horspool).
struct RequiredLiteral {
    /// The characters, lowercased where case folds.
    private let bytes: OwnedBuffer<UInt8>
    /// 0x20 where the character is a letter matched in both cases, else 0.
    private let foldBits: OwnedBuffer<UInt8>
    /// Horspool's shift per URL byte: how far the literal may move when that byte is under its
    /// last character. Both cases of a letter share the smaller shift, which keeps it safe.
    private let shifts: OwnedBuffer<UInt8>

    /// The longest literal searched for: any part of a required run is required too, and
    /// Horspool's worst case grows with the literal's length times the URL's.
    static let maximumLength = 64

    /// The longest run (two or more) of top-level, unquantified, one-character terms, cut to
    /// ``maximumLength``.
    init?(terms: [Term]) {
        var best = 0..<0
        var runStart = 0
        var characters: [(UInt8, UInt8)?] = []
        characters.reserveCapacity(terms.count)
        for (index, term) in terms.enumerated() {
            var character: (UInt8, UInt8)?
            if term.quantifier == .one, case .characterSet(let set) = term.atom {
                character = Self.single(set)
            }
            characters.append(character)
            if character == nil {
                runStart = index + 1
            } else if index + 1 - runStart > best.count {
                best = runStart..<(index + 1)
            }
        }
        guard best.count >= 2 else { return nil }
        best = best.lowerBound..<min(best.upperBound, best.lowerBound + Self.maximumLength)
        let literal = characters[best].map { $0?.0 ?? 0 }
        bytes = OwnedBuffer(literal)
        foldBits = OwnedBuffer(characters[best].map { $0?.1 ?? 0 })
        let length = literal.count
        var table = [UInt8](repeating: UInt8(min(length, 255)), count: 256)
        for (index, byte) in literal.enumerated().dropLast() {
            let shift = UInt8(min(length - 1 - index, 255))
            let isLetter = (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A
            for variant in isLetter ? [byte | 0x20, byte & ~0x20] : [byte] {
                table[Int(variant)] = min(table[Int(variant)], shift)
            }
        }
        shifts = OwnedBuffer(table)
    }

    /// The characters with letters lowercased.
    var lowercased: [UInt8] {
        bytes.array.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
    }

    func deallocate() {
        bytes.deallocate()
        foldBits.deallocate()
        shifts.deallocate()
    }

    /// The byte and fold bit of a set that matches one character, or one letter in both cases.
    private static func single(_ set: Term.CharacterSet) -> (UInt8, UInt8)? {
        let words = set.matchedWords
        let count = words.low.nonzeroBitCount + words.high.nonzeroBitCount
        guard words.low & 1 == 0, count == 1 || count == 2 else { return nil }
        // Lowest and highest member of the (one- or two-character) set.
        let first = words.low != 0 ? UInt8(words.low.trailingZeroBitCount) : UInt8(64 + words.high.trailingZeroBitCount)
        let last = words.high != 0 ? UInt8(127 - words.high.leadingZeroBitCount) : UInt8(63 - words.low.leadingZeroBitCount)
        if count == 1 { return (first, 0) }
        let upper = first, lower = last
        guard upper >= 0x41, upper <= 0x5A, lower == upper | 0x20 else { return nil }
        return (lower, 0x20)
    }

    func occurs(in url: UnsafeBufferPointer<UInt8>) -> Bool {
        let length = bytes.count
        guard url.count >= length else { return false }
        let last = length - 1
        let lastByte = bytes[last], lastFold = foldBits[last]
        var end = last
        while end < url.count {
            let byte = url[end]
            if byte | lastFold == lastByte {
                let start = end - last
                var k = 0
                while k < last && url[start + k] | foldBits[k] == bytes[k] { k += 1 }
                if k == last { return true }
            }
            end += Int(shifts[Int(byte)])
        }
        return false
    }
}

/// A set of ASCII bytes 0...127 as a 128-bit mask.
package struct CharacterSet128: Sendable, Hashable {
    package var low: UInt64 = 0
    package var high: UInt64 = 0

    package init(low: UInt64 = 0, high: UInt64 = 0) {
        self.low = low
        self.high = high
    }

    package static let all: CharacterSet128 = {
        var set = CharacterSet128()
        for byte in UInt8(1)...127 { set.insert(byte) }
        return set
    }()

    /// JavaScript's `.`: any character but line terminators.
    package static let dot: CharacterSet128 = {
        var set = all
        set.remove(0x0A)
        set.remove(0x0D)
        return set
    }()

    package static func single(_ byte: UInt8) -> CharacterSet128 {
        var set = CharacterSet128()
        set.insert(byte)
        return set
    }

    package static func range(_ lower: UInt8, _ upper: UInt8) -> CharacterSet128 {
        var set = CharacterSet128()
        if lower <= upper { for byte in lower...upper { set.insert(byte) } }
        return set
    }

    package static let digits = range(0x30, 0x39)
    package static let word: CharacterSet128 = range(0x30, 0x39)
        .union(range(0x41, 0x5A)).union(range(0x61, 0x7A)).union(single(0x5F))
    package static let space: CharacterSet128 = {
        var set = CharacterSet128()
        for byte: UInt8 in [0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D] { set.insert(byte) }
        return set
    }()

    package mutating func insert(_ byte: UInt8) {
        guard byte < 128 else { return }
        if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
    }

    package mutating func remove(_ byte: UInt8) {
        guard byte < 128 else { return }
        if byte < 64 { low &= ~(1 << UInt64(byte)) } else { high &= ~(1 << UInt64(byte - 64)) }
    }

    package func contains(_ byte: UInt8) -> Bool {
        guard byte < 128 else { return false }
        return byte < 64 ? low & (1 << UInt64(byte)) != 0 : high & (1 << UInt64(byte - 64)) != 0
    }

    package func union(_ other: CharacterSet128) -> CharacterSet128 {
        CharacterSet128(low: low | other.low, high: high | other.high)
    }

    /// Complement within 1...127 (WebKit's alphabet).
    package var inverted: CharacterSet128 {
        var set = CharacterSet128(low: ~low, high: ~high)
        set.remove(0)
        return set
    }

    /// The set with both cases of every ASCII letter, as a case-insensitive match sees it.
    package var caseFolded: CharacterSet128 {
        // Letters live in `high`: A-Z at bits 1...26, a-z at bits 33...58.
        let upper: UInt64 = 0x3FF_FFFF << 1
        let lower: UInt64 = upper << 32
        return CharacterSet128(low: low, high: high | ((high & upper) << 32) | ((high & lower) >> 32))
    }

    package var count: Int { low.nonzeroBitCount + high.nonzeroBitCount }

    /// The member of a one-member set (a literal character, most nodes of a rule); nil otherwise.
    /// Cheaper than `count` and `first`: no population count.
    package var onlyMember: UInt8? {
        if high == 0, low != 0, low & (low &- 1) == 0 { return UInt8(low.trailingZeroBitCount) }
        if low == 0, high != 0, high & (high &- 1) == 0 { return UInt8(64 + high.trailingZeroBitCount) }
        return nil
    }

    /// The smallest member.
    package var first: UInt8? {
        if low != 0 { return UInt8(low.trailingZeroBitCount) }
        if high != 0 { return UInt8(64 + high.trailingZeroBitCount) }
        return nil
    }

    package var members: [UInt8] { (UInt8(0)...127).filter(contains) }
}

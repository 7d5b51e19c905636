/// A set of 64-bit name hashes (``CompactTrackerData``'s FNV-1a hashes of host names): open
/// addressing with linear probing, no rehashing of values that are hashes already (Swift's `Set`
/// hashes each one again with SipHash, the larger part of a look-up).
struct NameHashSet {
    private var slots: [UInt64]
    private let shift: UInt64
    /// Whether 0, the empty slot's value, is a member.
    private var hasZero = false

    /// A set for at most `capacity` members.
    init(capacity: Int) {
        var bits: UInt64 = 4
        while 1 << bits < 2 * max(capacity, 1) { bits += 1 }
        slots = Array(repeating: 0, count: 1 << Int(bits))
        shift = 64 - bits
    }

    private func start(_ hash: UInt64) -> Int {
        Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    mutating func insert(_ hash: UInt64) {
        guard hash != 0 else {
            hasZero = true
            return
        }
        let mask = slots.count - 1
        var index = start(hash)
        while slots[index] != 0 {
            if slots[index] == hash { return }
            index = (index + 1) & mask
        }
        slots[index] = hash
    }

    func contains(_ hash: UInt64) -> Bool {
        guard hash != 0 else { return hasZero }
        let mask = slots.count - 1
        var index = start(hash)
        while slots[index] != 0 {
            if slots[index] == hash { return true }
            index = (index + 1) & mask
        }
        return false
    }
}

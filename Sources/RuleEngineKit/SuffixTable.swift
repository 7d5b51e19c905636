// A read-only hash table from byte strings (hosts, domains) to lists of 32-bit values, laid out
// in flat arrays so that it can be written to a file and read back as is. Keys are hashed from
// their last byte to their first, so that one backward pass over a host hashes each of its
// suffixes on the way: the lookups for `a.b.tracker.com`, `b.tracker.com`, `tracker.com` and `com`
// cost one pass over the bytes plus one probe each.

/// Byte-string keys (lowercase ASCII) mapped to lists of values.
struct SuffixTable: Sendable, Equatable {
    /// Per slot: the entry index + 1, or 0 when empty. The count is a power of two.
    var slots: [UInt32]
    /// Per entry: the key's hash.
    var hashes: [UInt64]
    /// Per entry, and one past the last: where its key starts in `keyBytes`.
    var keyOffsets: [UInt32]
    var keyBytes: [UInt8]
    /// Per entry, and one past the last: where its values start in `values`.
    var valueOffsets: [UInt32]
    var values: [UInt32]

    static let seed: UInt64 = 0xcbf2_9ce4_8422_2325

    /// The hash after reading one more byte (to the left), lowercased.
    @inline(__always)
    static func step(_ hash: UInt64, _ byte: UInt8) -> UInt64 {
        let lower = byte &- 0x41 < 26 ? byte | 0x20 : byte
        return (hash ^ UInt64(lower)) &* 0x100_0000_01b3
    }

    static func hash(_ key: [UInt8]) -> UInt64 {
        var hash = seed
        for byte in key.reversed() { hash = step(hash, byte) }
        return hash
    }

    /// Builds the table; keys are compared as given (callers pass lowercase keys).
    init(_ entries: [(key: [UInt8], values: [UInt32])]) {
        var capacity = 8
        while capacity < entries.count * 2 { capacity <<= 1 }
        slots = [UInt32](repeating: 0, count: capacity)
        hashes = []
        keyOffsets = [0]
        keyBytes = []
        valueOffsets = [0]
        values = []
        hashes.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() {
            let hash = Self.hash(entry.key)
            hashes.append(hash)
            keyBytes += entry.key
            keyOffsets.append(UInt32(keyBytes.count))
            values += entry.values
            valueOffsets.append(UInt32(values.count))
            var slot = Int(truncatingIfNeeded: hash) & (capacity - 1)
            while slots[slot] != 0 { slot = (slot + 1) & (capacity - 1) }
            slots[slot] = UInt32(index + 1)
        }
    }

    init(slots: [UInt32], hashes: [UInt64], keyOffsets: [UInt32], keyBytes: [UInt8], valueOffsets: [UInt32], values: [UInt32]) {
        self.slots = slots
        self.hashes = hashes
        self.keyOffsets = keyOffsets
        self.keyBytes = keyBytes
        self.valueOffsets = valueOffsets
        self.values = values
    }

    var isEmpty: Bool { hashes.isEmpty }

    /// Checks that the arrays are consistent, so that lookups cannot go out of bounds.
    func validate() -> Bool {
        let count = hashes.count
        guard slots.count >= 1, slots.count & (slots.count - 1) == 0, slots.count > count,
            keyOffsets.count == count + 1, valueOffsets.count == count + 1,
            keyOffsets.first == 0, valueOffsets.first == 0,
            Int(keyOffsets[count]) == keyBytes.count, Int(valueOffsets[count]) == values.count
        else { return false }
        for index in 0..<count where keyOffsets[index] > keyOffsets[index + 1] || valueOffsets[index] > valueOffsets[index + 1] {
            return false
        }
        return slots.allSatisfy { Int($0) <= count } && slots.count { $0 != 0 } == count
    }
}

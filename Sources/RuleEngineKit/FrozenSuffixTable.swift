import ContentRuleList

// The evaluator reads its tables many times per request. Reading a Swift array stored in a class
// costs a bounds check and, often, reference counting of the array; copies in memory the program
// owns (ContentRuleList's OwnedBuffer) cost neither. Every index into them comes from the
// program's own tables, checked when the program was built or loaded.

/// ``SuffixTable`` as the evaluator reads it.
struct FrozenSuffixTable: Sendable {
    let slotMask: Int
    let isEmpty: Bool
    let slots: OwnedBuffer<UInt32>
    let hashes: OwnedBuffer<UInt64>
    let keyOffsets: OwnedBuffer<UInt32>
    let keyBytes: OwnedBuffer<UInt8>
    let valueOffsets: OwnedBuffer<UInt32>
    let values: OwnedBuffer<UInt32>

    /// A one-hash Bloom filter over the keys' hashes, 16 bits a key (about 6% false positives):
    /// most suffixes of a request's host are no key, and this bitmap, small enough to stay in
    /// the processor's fastest cache, answers them without touching the table. Nil without one.
    let filter: OwnedBuffer<UInt64>?
    let filterMask: Int

    /// False when the key with this hash is certainly absent.
    @inline(__always)
    func mayContain(_ hash: UInt64) -> Bool {
        guard let filter else { return true }
        let bit = Int(truncatingIfNeeded: hash >> 40) & filterMask
        return filter[bit >> 6] & (1 << UInt64(bit & 63)) != 0
    }

    init(_ table: SuffixTable, withFilter: Bool = true) {
        var bits = 1 << 12
        while bits < table.hashes.count * 16 { bits <<= 1 }
        if withFilter {
            var words = [UInt64](repeating: 0, count: bits / 64)
            for hash in table.hashes {
                let bit = Int(truncatingIfNeeded: hash >> 40) & (bits - 1)
                words[bit >> 6] |= 1 << UInt64(bit & 63)
            }
            filter = OwnedBuffer(words)
        } else {
            filter = nil
        }
        filterMask = bits - 1
        slotMask = table.slots.count - 1
        isEmpty = table.isEmpty
        slots = OwnedBuffer(table.slots)
        hashes = OwnedBuffer(table.hashes)
        keyOffsets = OwnedBuffer(table.keyOffsets)
        keyBytes = OwnedBuffer(table.keyBytes)
        valueOffsets = OwnedBuffer(table.valueOffsets)
        values = OwnedBuffer(table.values)
    }

    func deallocate() {
        filter?.deallocate()
        slots.deallocate()
        hashes.deallocate()
        keyOffsets.deallocate()
        keyBytes.deallocate()
        valueOffsets.deallocate()
        values.deallocate()
    }

    /// The range in ``values`` for the key `bytes[start..<end]` (compared lowercased), hashed as
    /// `hash`; empty when absent.
    @inline(__always)
    func lookup(hash: UInt64, _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Range<Int> {
        var slot = Int(truncatingIfNeeded: hash) & slotMask
        while true {
            let entry = Int(slots[slot])
            if entry == 0 { return 0..<0 }
            if hashes[entry - 1] == hash && keyEquals(entry - 1, bytes, start, end) {
                return Int(valueOffsets[entry - 1])..<Int(valueOffsets[entry])
            }
            slot = (slot + 1) & slotMask
        }
    }

    @inline(__always)
    private func keyEquals(_ entry: Int, _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        let keyStart = Int(keyOffsets[entry])
        guard Int(keyOffsets[entry + 1]) - keyStart == end - start else { return false }
        var offset = 0
        while start + offset < end {
            let byte = bytes[start + offset]
            let lower = byte &- 0x41 < 26 ? byte | 0x20 : byte
            if lower != keyBytes[keyStart + offset] { return false }
            offset += 1
        }
        return true
    }
}

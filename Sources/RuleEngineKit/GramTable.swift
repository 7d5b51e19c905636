// Rules whose url-filter names no host are found by a literal every matching URL contains: each
// such rule is filed under one 4-byte piece ("gram") of that literal, and a URL is scanned once,
// gram by gram. A 64-kilobit bitmap answers most grams without touching the table.

/// 4-byte grams (lowercased) mapped to lists of values.
struct GramTable: Sendable, Equatable {
    /// One bit per hashed gram that has values.
    var bitmap: [UInt64]
    /// The grams, sorted.
    var grams: [UInt32]
    /// Per gram, and one past the last: where its values start in `values`.
    var valueOffsets: [UInt32]
    var values: [UInt32]

    static let bitmapWords = 1024

    init(_ entries: [UInt32: [UInt32]]) {
        bitmap = [UInt64](repeating: 0, count: entries.isEmpty ? 0 : Self.bitmapWords)
        grams = entries.keys.sorted()
        valueOffsets = [0]
        values = []
        for gram in grams {
            values += entries[gram] ?? []
            valueOffsets.append(UInt32(values.count))
            let bit = Self.bit(gram)
            bitmap[bit >> 6] |= 1 << UInt64(bit & 63)
        }
    }

    init(bitmap: [UInt64], grams: [UInt32], valueOffsets: [UInt32], values: [UInt32]) {
        self.bitmap = bitmap
        self.grams = grams
        self.valueOffsets = valueOffsets
        self.values = values
    }

    var isEmpty: Bool { grams.isEmpty }

    @inline(__always)
    static func bit(_ gram: UInt32) -> Int {
        Int((gram &* 0x9E37_79B1) >> 16)
    }

    /// The range in ``values`` for `gram`; empty when absent.
    @inline(__always)
    func lookup(_ gram: UInt32) -> Range<Int> {
        guard !bitmap.isEmpty else { return 0..<0 }
        let bit = Self.bit(gram)
        guard bitmap[bit >> 6] & (1 << UInt64(bit & 63)) != 0 else { return 0..<0 }
        var low = 0
        var high = grams.count
        while low < high {
            let middle = (low + high) >> 1
            if grams[middle] < gram { low = middle + 1 } else { high = middle }
        }
        guard low < grams.count, grams[low] == gram else { return 0..<0 }
        return Int(valueOffsets[low])..<Int(valueOffsets[low + 1])
    }

    /// Checks that the arrays are consistent, so that lookups cannot go out of bounds.
    func validate() -> Bool {
        guard bitmap.count == (grams.isEmpty ? 0 : Self.bitmapWords),
            valueOffsets.count == grams.count + 1, valueOffsets.first == 0,
            Int(valueOffsets[grams.count]) == values.count
        else { return false }
        for index in 0..<grams.count where valueOffsets[index] > valueOffsets[index + 1] { return false }
        for index in grams.indices.dropFirst() where grams[index - 1] >= grams[index] { return false }
        return true
    }
}

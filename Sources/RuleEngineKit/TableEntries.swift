// What a SuffixTable is built from: keys in the order they were first seen (so that the compiled
// form does not depend on hashing), each with its values in the order they were added.

/// Byte-string keys with lists of values, in first-seen order.
struct TableEntries {
    /// A key hashed as one block of bytes (an `[UInt8]` hashes byte by byte, which is slow).
    private struct Key: Hashable {
        let bytes: [UInt8]

        func hash(into hasher: inout Hasher) {
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    private var positions: [Key: Int] = [:]
    private(set) var entries: [(key: [UInt8], values: [UInt32])] = []

    mutating func append(_ value: UInt32, to key: [UInt8]) {
        if let position = positions[Key(bytes: key)] {
            entries[position].values.append(value)
        } else {
            positions[Key(bytes: key)] = entries.count
            entries.append((key, [value]))
        }
    }
}

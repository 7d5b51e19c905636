import TrackerlessCore

/// Hosts to values, looked up by the bytes of a host or of one of its parents, without making a
/// `String` or hashing one: what the resolver's suffix walks do for every request.
///
/// Only for ASCII keys and hosts, where comparing bytes is comparing strings; ``init(_:)`` gives
/// nil when a key is not ASCII, and callers then keep their dictionary.
struct HostTable<Value: Sendable>: Sendable {
    /// Open addressing, a power of two: each slot is an index into `values` plus one, 0 when empty.
    private let slots: [Int32]
    /// The keys' bytes one after another; key `i` is `keyBytes[keyStarts[i]..<keyStarts[i + 1]]`.
    private let keyBytes: [UInt8]
    private let keyStarts: [Int32]
    private let values: [Value]

    init?(_ dictionary: [String: Value]) {
        var keyBytes: [UInt8] = []
        var keyStarts: [Int32] = [0]
        var values: [Value] = []
        values.reserveCapacity(dictionary.count)
        keyStarts.reserveCapacity(dictionary.count + 1)
        var capacity = 16
        while capacity < dictionary.count * 2 { capacity *= 2 }
        var slots = [Int32](repeating: 0, count: capacity)
        for (key, value) in dictionary {
            let start = keyBytes.count
            keyBytes.append(contentsOf: key.utf8)
            guard !keyBytes[start...].contains(where: { $0 >= 0x80 }) else { return nil }
            let hash = keyBytes.withUnsafeBufferPointer { Self.hash(UnsafeBufferPointer(rebasing: $0[start...])) }
            var slot = hash & (capacity - 1)
            while slots[slot] != 0 { slot = (slot + 1) & (capacity - 1) }
            values.append(value)
            keyStarts.append(Int32(keyBytes.count))
            slots[slot] = Int32(values.count)
        }
        self.slots = slots
        self.keyBytes = keyBytes
        self.keyStarts = keyStarts
        self.values = values
    }

    /// FNV-1a over the bytes.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return Int(truncatingIfNeeded: hash ^ (hash >> 29))
    }

    /// The value of exactly these bytes.
    func value(for bytes: UnsafeBufferPointer<UInt8>) -> Value? {
        let mask = slots.count - 1
        var slot = Self.hash(bytes) & mask
        return slots.withUnsafeBufferPointer { slots in
            keyStarts.withUnsafeBufferPointer { starts in
                keyBytes.withUnsafeBufferPointer { keys in
                    while true {
                        let entry = Int(slots[slot])
                        if entry == 0 { return nil }
                        let start = Int(starts[entry - 1])
                        let end = Int(starts[entry])
                        if end - start == bytes.count {
                            var offset = 0
                            while offset < bytes.count, keys[start + offset] == bytes[offset] { offset += 1 }
                            if offset == bytes.count { return values[entry - 1] }
                        }
                        slot = (slot + 1) & mask
                    }
                }
            }
        }
    }

    /// Whether `body` is true for the value of some key `host` is within, as
    /// ``DomainName/host(_:isWithin:)`` says (the host or a suffix of it after a dot, ASCII
    /// letters compared lowercased; keys must be lowercase); nil when `host` is not ASCII.
    func anyKey(enclosing host: String, where body: (Value) -> Bool) -> Bool? {
        var host = host
        return host.withUTF8 { bytes -> Bool? in
            var hasUppercase = false
            for byte in bytes {
                if byte >= 0x80 { return nil }
                if byte &- UInt8(ascii: "A") < 26 { hasUppercase = true }
            }
            if !hasUppercase { return anyKey(enclosingLowercase: bytes, where: body) }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, bytes.count)) { lowered -> Bool in
                for index in bytes.indices { lowered[index] = ASCII.lowercased(bytes[index]) }
                return anyKey(enclosingLowercase: UnsafeBufferPointer(rebasing: lowered[0..<bytes.count]), where: body)
            }
        }
    }

    private func anyKey(enclosingLowercase host: UnsafeBufferPointer<UInt8>, where body: (Value) -> Bool) -> Bool {
        var start = 0
        while start <= host.count {
            if start == 0 || host[start - 1] == UInt8(ascii: "."),
                let found = value(for: UnsafeBufferPointer(rebasing: host[start...])), body(found)
            {
                return true
            }
            start += 1
        }
        return false
    }

    /// The value of exactly `host`; nil also when `host` is not ASCII.
    func exactValue(of host: String) -> Value?? {
        var host = host
        return host.withUTF8 { bytes -> Value?? in
            if bytes.contains(where: { $0 >= 0x80 }) { return .none }
            return .some(value(for: bytes))
        }
    }

    /// The value of `host` or of its nearest parent that still contains a dot, as
    /// ``DomainName/firstSuffix(of:_:)`` walks them; nil also when `host` is not ASCII.
    func firstSuffixValue(of host: String) -> Value?? {
        var host = host
        return host.withUTF8 { bytes -> Value?? in
            var lastDot = -1
            for index in bytes.indices {
                let byte = bytes[index]
                if byte >= 0x80 { return .none }
                if byte == UInt8(ascii: ".") { lastDot = index }
            }
            if let found = value(for: bytes) { return .some(found) }
            var index = 0
            while index < lastDot {
                if bytes[index] == UInt8(ascii: "."), let found = value(for: UnsafeBufferPointer(rebasing: bytes[(index + 1)...])) {
                    return .some(found)
                }
                index += 1
            }
            return .some(nil)
        }
    }
}

import TrackerlessCore

/// Host comparisons shared by the tds lookups, rule conditions and the privacy configuration.
enum HostMatching {
    /// Calls `body` with `host` and then each parent domain that still contains a dot
    /// (`a.b.example.com`, `b.example.com`, `example.com`), stopping at the first non-nil result.
    ///
    /// This is the "suffix walk" of Tracker Radar: a bare top-level domain is never a candidate.
    static func firstSuffix<T>(of host: String, _ body: (String) -> T?) -> T? {
        if let found = body(host) { return found }
        // ASCII hosts (every host a URL parser gives): the dots found in the bytes, where
        // `Character` comparisons and Foundation's `contains` would cost more than the lookups.
        // A candidate starts after each dot but the last.
        var host = host
        let found: T?? = host.withUTF8 { bytes -> T?? in
            var lastDot = -1
            for index in bytes.indices {
                let byte = bytes[index]
                if byte >= 0x80 { return .none }
                if byte == UInt8(ascii: ".") { lastDot = index }
            }
            var index = 0
            while index < lastDot {
                if bytes[index] == UInt8(ascii: "."),
                    let result = body(String(decoding: UnsafeBufferPointer(rebasing: bytes[(index + 1)...]), as: UTF8.self))
                {
                    return .some(result)
                }
                index += 1
            }
            return .some(nil)
        }
        if let found { return found }
        var rest = Substring(host)
        while let dot = rest.firstIndex(of: ".") {
            rest = rest[rest.index(after: dot)...]
            guard rest.contains(".") else { return nil }
            if let found = body(String(rest)) { return found }
        }
        return nil
    }

    /// Whether `host` is `domain` or a subdomain of it, on label boundaries and ignoring ASCII
    /// case (`a.example.com` is within `example.com`, `badexample.com` is not).
    static func host(_ host: String, isWithin domain: String) -> Bool {
        let host = host.utf8
        let domain = domain.utf8
        guard !domain.isEmpty, host.count >= domain.count else { return false }
        var hostIndex = host.endIndex
        var domainIndex = domain.endIndex
        while domainIndex > domain.startIndex {
            host.formIndex(before: &hostIndex)
            domain.formIndex(before: &domainIndex)
            if lowercased(host[hostIndex]) != lowercased(domain[domainIndex]) { return false }
        }
        return hostIndex == host.startIndex || host[host.index(before: hostIndex)] == UInt8(ascii: ".")
    }

    /// A domain as ``CanonicalURL`` spells hosts: lowercase ASCII, non-ASCII labels in Punycode.
    /// Does not allocate when the domain already is, which is nearly always: this runs for every
    /// key of a 3 MB blocklist.
    static func normalized(_ domain: String) -> String {
        let isNormal = domain.utf8.withContiguousStorageIfAvailable { bytes in
            // Bytes outside "A"..."Z" and below 0x80 need no change; one OR-reduction finds both.
            var needsWork = false
            for byte in bytes where byte >= 0x80 || (byte &- UInt8(ascii: "A")) < 26 {
                needsWork = true
                break
            }
            return !needsWork
        }
        if isNormal == true { return domain }
        if domain.utf8.contains(where: { $0 >= 0x80 }) {
            return domain.punycodeEncodedDomain ?? domain.lowercased()
        }
        return domain.lowercased()
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
}

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
    /// ``HostMatching/host(_:isWithin:)`` says (the host or a suffix of it after a dot, ASCII
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
                for index in bytes.indices { lowered[index] = TrackerRuleRegex.Matcher.lowercased(bytes[index]) }
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
    /// ``HostMatching/firstSuffix(of:_:)`` walks them; nil also when `host` is not ASCII.
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

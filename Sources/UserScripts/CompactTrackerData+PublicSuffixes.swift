import TrackerlessCore

extension PublicSuffixList {
    /// Every entry of the list with its kind bits for the blocking script (1 rule, 2 wildcard,
    /// 4 exception, 0 a step towards a longer entry), ICANN and private rules alike.
    ///
    /// `PublicSuffixList` has no API that lists its rules, so they are read from its stored
    /// properties by reflection (`entryBytes`, `entryStarts`, `entryKinds`, `collisions`). When
    /// that layout changes this returns nothing and the script falls back to the default rule
    /// `*` alone; `CompactTrackerDataTests` fails on that, so the change does not go unnoticed.
    package func compactEntries() -> [(String, Int)] {
        var bytes: [UInt8]?
        var starts: [Int32]?
        var kinds: [UInt8]?
        var collisions: [(String, UInt8)] = []
        for child in Mirror(reflecting: self).children {
            switch child.label {
            case "entryBytes": bytes = child.value as? [UInt8]
            case "entryStarts": starts = child.value as? [Int32]
            case "entryKinds":
                // An array of a one-byte option set: its elements are their raw values.
                kinds = (child.value as? any OneByteElements)?.elementBytes()
            case "collisions":
                guard let values = child.value as? [String: Any] else { break }
                collisions = values.compactMap { key, value in Self.rawKinds(value).map { (key, $0) } }
            default: break
            }
        }
        guard let bytes, let starts, let kinds, starts.count == kinds.count + 1 else { return [] }
        var entries: [(String, Int)] = []
        entries.reserveCapacity(kinds.count + collisions.count)
        for index in kinds.indices {
            let text = String(decoding: bytes[Int(starts[index])..<Int(starts[index + 1])], as: UTF8.self)
            entries.append((text, Self.scriptKinds(kinds[index])))
        }
        for (text, raw) in collisions { entries.append((text, Self.scriptKinds(raw))) }
        return entries
    }

    private static func rawKinds(_ value: Any) -> UInt8? {
        Mirror(reflecting: value).children.first { $0.label == "rawValue" }?.value as? UInt8
    }

    /// The stored bits (ICANN and private kinds apart) folded into the script's three.
    private static func scriptKinds(_ raw: UInt8) -> Int {
        var kinds = 0
        if raw & 0b11 != 0 { kinds |= 1 }
        if raw & 0b1100 != 0 { kinds |= 2 }
        if raw & 0b11_0000 != 0 { kinds |= 4 }
        return kinds
    }
}

private protocol OneByteElements {
    func elementBytes() -> [UInt8]?
}

extension Array: OneByteElements {
    fileprivate func elementBytes() -> [UInt8]? {
        guard MemoryLayout<Element>.size == 1, MemoryLayout<Element>.stride == 1, _isPOD(Element.self) else { return nil }
        return withUnsafeBytes { Array<UInt8>($0) }
    }
}

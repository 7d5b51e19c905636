import Foundation
import TrackerDataKit
import TrackerlessCore

/// What each raw URL authority's host is: an open-addressing table over the authority's bytes,
/// so a lookup neither copies them into a string nor runs SipHash over them. Locked; emptied
/// when it reaches its cap.
///
/// Probing stops after ``maxProbes`` slots: a lookup then misses and a store is skipped, which
/// costs only a parse, so crafted colliding authorities cannot make lookups slow.
final class AuthorityTable: @unchecked Sendable {
    private struct Slot {
        var hash: UInt64
        var key: [UInt8]
        var info: HostInfo
    }

    static let maxProbes = 16
    let maxEntries: Int
    private let lock = NSLock()
    /// Grows by doubling, kept at most half full, up to twice ``maxEntries``.
    private var slots: [Slot?] = Array(repeating: nil, count: 64)
    private var count = 0
    private var mask = 63
    private let seed = UInt64.random(in: 0...UInt64.max)

    init(maxEntries: Int) {
        self.maxEntries = maxEntries
    }

    subscript(authority: UnsafeBufferPointer<UInt8>) -> HostInfo? {
        let hash = hash(authority)
        lock.lock()
        defer { lock.unlock() }
        var index = slotIndex(hash)
        for _ in 0..<Self.maxProbes {
            guard let slot = slots[index] else { return nil }
            if slot.hash == hash, Self.equal(slot.key, authority) { return slot.info }
            index = (index + 1) & mask
        }
        return nil
    }

    func store(_ info: HostInfo, for authority: UnsafeBufferPointer<UInt8>) {
        let hash = hash(authority)
        lock.lock()
        defer { lock.unlock() }
        if count >= maxEntries {
            for index in slots.indices { slots[index] = nil }
            count = 0
        } else if count * 2 >= slots.count {
            grow()
        }
        insert(Slot(hash: hash, key: [], info: info), bytes: authority)
    }

    /// Doubles the slots and places every entry again.
    private func grow() {
        let old = slots
        slots = Array(repeating: nil, count: old.count * 2)
        mask = slots.count - 1
        count = 0
        for case let slot? in old {
            slot.key.withUnsafeBufferPointer { insert(slot, bytes: $0) }
        }
    }

    /// Places an entry for `authority` (the key is copied from it) unless it is there already.
    private func insert(_ entry: Slot, bytes authority: UnsafeBufferPointer<UInt8>) {
        let hash = entry.hash
        var index = slotIndex(hash)
        for _ in 0..<Self.maxProbes {
            if let slot = slots[index] {
                if slot.hash == hash, Self.equal(slot.key, authority) { return }
            } else {
                slots[index] = Slot(hash: hash, key: entry.key.isEmpty ? Array(authority) : entry.key, info: entry.info)
                count += 1
                return
            }
            index = (index + 1) & mask
        }
    }

    private static func equal(_ key: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard key.count == bytes.count else { return false }
        guard !key.isEmpty, let base = bytes.baseAddress else { return true }
        return key.withUnsafeBufferPointer { memcmp($0.baseAddress!, base, bytes.count) == 0 }
    }

    /// FNV-1a from a random seed.
    private func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash = seed ^ 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }

    private func slotIndex(_ hash: UInt64) -> Int {
        Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
    }
}

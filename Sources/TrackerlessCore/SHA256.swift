/// SHA-256 (FIPS 180-4): the prefilter's tag, the checksums of DuckDuckGo's filter files and the
/// content hashes of rendered user scripts.
///
/// ```swift
/// SHA256.hexDigest(Array("abc".utf8))
/// // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
/// var hasher = SHA256()
/// hasher.update(Array("a".utf8)); hasher.update(Array("bc".utf8))
/// hasher.finalize() == SHA256.digest(Array("abc".utf8))   // true
/// ```
package struct SHA256: Sendable {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6A09_E667, 0xBB67_AE85, 0x3C6E_F372, 0xA54F_F53A, 0x510E_527F, 0x9B05_688C, 0x1F83_D9AB, 0x5BE0_CD19
    )
    /// Bytes not yet hashed: fewer than one 64-byte block.
    private var pending: [UInt8] = []
    /// How many bytes were passed to ``update(_:)`` in all.
    private var length: UInt64 = 0

    /// A hasher with nothing hashed yet.
    package init() {
        pending.reserveCapacity(64)
    }

    /// Hashes `bytes` after what was hashed before.
    package mutating func update(_ bytes: some Sequence<UInt8>) {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { update(buffer: $0) }
        if handled == nil {
            let array = Array(bytes)
            array.withUnsafeBufferPointer { update(buffer: $0) }
        }
    }

    private mutating func update(buffer: UnsafeBufferPointer<UInt8>) {
        var start = 0
        length &+= UInt64(buffer.count)
        if !pending.isEmpty {
            let taken = min(64 - pending.count, buffer.count)
            pending.append(contentsOf: buffer[0..<taken])
            start = taken
            guard pending.count == 64 else { return }
            pending.withUnsafeBufferPointer { compress(UnsafeRawBufferPointer($0)) }
            pending.removeAll(keepingCapacity: true)
        }
        // Whole blocks straight from the input, without copying them into `pending`.
        let raw = UnsafeRawBufferPointer(buffer)
        while start + 64 <= buffer.count {
            compress(UnsafeRawBufferPointer(rebasing: raw[start..<start + 64]))
            start += 64
        }
        pending.append(contentsOf: buffer[start...])
    }

    /// The 32-byte digest of everything hashed; the hasher is consumed.
    package consuming func finalize() -> [UInt8] {
        let bitLength = length &* 8
        pending.append(0x80)
        while pending.count % 64 != 56 { pending.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) {
            pending.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        let padded = pending
        padded.withUnsafeBytes { bytes in
            var start = 0
            while start < bytes.count {
                compress(UnsafeRawBufferPointer(rebasing: bytes[start..<start + 64]))
                start += 64
            }
        }
        var digest: [UInt8] = []
        digest.reserveCapacity(32)
        for word in [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7] {
            digest.append(UInt8(truncatingIfNeeded: word >> 24))
            digest.append(UInt8(truncatingIfNeeded: word >> 16))
            digest.append(UInt8(truncatingIfNeeded: word >> 8))
            digest.append(UInt8(truncatingIfNeeded: word))
        }
        return digest
    }

    /// The 32-byte SHA-256 digest of `bytes`.
    package static func digest(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The SHA-256 digest of `bytes` as 64 lowercase hexadecimal digits.
    package static func hexDigest(_ bytes: some Sequence<UInt8>) -> String {
        hexString(digest(bytes))
    }

    /// Lowercase hexadecimal, two digits a byte.
    package static func hexString(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    @inline(__always)
    private static func rotatedRight(_ value: UInt32, by count: UInt32) -> UInt32 {
        (value >> count) | (value << (32 - count))
    }

    /// Processes one 64-byte block (FIPS 180-4 §6.2.2). The message schedule lives on the stack:
    /// a heap array per block cost more than the rounds.
    private mutating func compress(_ block: UnsafeRawBufferPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
            for word in 0..<16 {
                let offset = word * 4
                schedule[word] = UInt32(block[offset]) << 24 | UInt32(block[offset + 1]) << 16
                    | UInt32(block[offset + 2]) << 8 | UInt32(block[offset + 3])
            }
            for word in 16..<64 {
                let w15 = schedule[word - 15]
                let w2 = schedule[word - 2]
                let s0 = Self.rotatedRight(w15, by: 7) ^ Self.rotatedRight(w15, by: 18) ^ (w15 >> 3)
                let s1 = Self.rotatedRight(w2, by: 17) ^ Self.rotatedRight(w2, by: 19) ^ (w2 >> 10)
                schedule[word] = schedule[word - 16] &+ s0 &+ schedule[word - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, h) = state
            Self.roundConstants.withUnsafeBufferPointer { constants in
                for round in 0..<64 {
                    let sum1 = Self.rotatedRight(e, by: 6) ^ Self.rotatedRight(e, by: 11) ^ Self.rotatedRight(e, by: 25)
                    let choice = (e & f) ^ (~e & g)
                    let temporary1 = h &+ sum1 &+ choice &+ constants[round] &+ schedule[round]
                    let sum0 = Self.rotatedRight(a, by: 2) ^ Self.rotatedRight(a, by: 13) ^ Self.rotatedRight(a, by: 22)
                    let majority = (a & b) ^ (a & c) ^ (b & c)
                    let temporary2 = sum0 &+ majority
                    h = g
                    g = f
                    f = e
                    e = d &+ temporary1
                    d = c
                    c = b
                    b = a
                    a = temporary1 &+ temporary2
                }
            }
            state = (
                state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d,
                state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h
            )
        }
    }

    /// The first 32 bits of the fractional parts of the cube roots of the first 64 primes.
    private static let roundConstants: [UInt32] = [
        0x428A_2F98, 0x7137_4491, 0xB5C0_FBCF, 0xE9B5_DBA5, 0x3956_C25B, 0x59F1_11F1, 0x923F_82A4, 0xAB1C_5ED5,
        0xD807_AA98, 0x1283_5B01, 0x2431_85BE, 0x550C_7DC3, 0x72BE_5D74, 0x80DE_B1FE, 0x9BDC_06A7, 0xC19B_F174,
        0xE49B_69C1, 0xEFBE_4786, 0x0FC1_9DC6, 0x240C_A1CC, 0x2DE9_2C6F, 0x4A74_84AA, 0x5CB0_A9DC, 0x76F9_88DA,
        0x983E_5152, 0xA831_C66D, 0xB003_27C8, 0xBF59_7FC7, 0xC6E0_0BF3, 0xD5A7_9147, 0x06CA_6351, 0x1429_2967,
        0x27B7_0A85, 0x2E1B_2138, 0x4D2C_6DFC, 0x5338_0D13, 0x650A_7354, 0x766A_0ABB, 0x81C2_C92E, 0x9272_2C85,
        0xA2BF_E8A1, 0xA81A_664B, 0xC24B_8B70, 0xC76C_51A3, 0xD192_E819, 0xD699_0624, 0xF40E_3585, 0x106A_A070,
        0x19A4_C116, 0x1E37_6C08, 0x2748_774C, 0x34B0_BCB5, 0x391C_0CB3, 0x4ED8_AA4A, 0x5B9C_CA4F, 0x682E_6FF3,
        0x748F_82EE, 0x78A5_636F, 0x84C8_7814, 0x8CC7_0208, 0x90BE_FFFA, 0xA450_6CEB, 0xBEF9_A3F7, 0xC671_78F2,
    ]
}

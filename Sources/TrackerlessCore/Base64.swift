/// Standard base64 (RFC 4648 §4, with padding): the URL prefilter's `data` field, the
/// surrogates' `data:` URLs.
public enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The padded base64 text of `bytes`.
    public static func encode(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            text.append(alphabet[Int(group >> 18 & 63)])
            text.append(alphabet[Int(group >> 12 & 63)])
            text.append(alphabet[Int(group >> 6 & 63)])
            text.append(alphabet[Int(group & 63)])
            index += 3
        }
        let remaining = bytes.count - index
        if remaining > 0 {
            let group = UInt32(bytes[index]) << 16 | (remaining == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
            text.append(alphabet[Int(group >> 18 & 63)])
            text.append(alphabet[Int(group >> 12 & 63)])
            text.append(remaining == 2 ? alphabet[Int(group >> 6 & 63)] : UInt8(ascii: "="))
            text.append(UInt8(ascii: "="))
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of padded base64 text; nil when it is not base64.
    public static func decode(_ text: String) -> [UInt8]? {
        var values: [UInt8] = []
        values.reserveCapacity(text.utf8.count)
        var padding = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "=") {
                padding += 1
                continue
            }
            guard padding == 0, let value = alphabet.firstIndex(of: byte) else { return nil }
            values.append(UInt8(value))
        }
        guard (values.count + padding) % 4 == 0, padding <= 2 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(values.count * 3 / 4)
        var index = 0
        while index < values.count {
            let chunk = values[index..<min(index + 4, values.count)]
            var group: UInt32 = 0
            for value in chunk { group = group << 6 | UInt32(value) }
            group <<= UInt32(6 * (4 - chunk.count))
            let produced = chunk.count - 1
            guard produced >= 1 else { return nil }
            for shift in [16, 8, 0].prefix(produced) { bytes.append(UInt8(truncatingIfNeeded: group >> UInt32(shift))) }
            index += 4
        }
        return bytes
    }
}

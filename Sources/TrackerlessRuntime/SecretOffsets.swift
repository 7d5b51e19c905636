/// Where a secret stands in a script's source.
enum SecretOffsets {
    /// `bytes` with `secret` written at `offsets`; nil when an offset does not fit.
    static func write(_ secret: String, into bytes: [UInt8], at offsets: [Int]) -> [UInt8]? {
        let text = Array(secret.utf8)
        var bytes = bytes
        for offset in offsets {
            guard offset >= 0, offset + text.count <= bytes.count else { return nil }
            bytes.replaceSubrange(offset..<offset + text.count, with: text)
        }
        return bytes
    }
}

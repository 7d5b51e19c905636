/// The per-render secret every script message carries, so the host can tell its own scripts'
/// messages from ones forged by page scripts.
///
/// The renderer (UserScripts' `ScriptSecret`) puts it into the scripts; the host gives the same
/// value to ``PrivacyStats``, which rejects messages without it (``MessageRejection/wrongSecret``):
///
/// ```swift
/// let secret = ScriptSecret.random()                    // UserScripts, at launch
/// let stats = PrivacyStats(resolver: resolver, secrets: [MessageSecret(hex: secret.value)!])
/// ```
public struct MessageSecret: Sendable, Hashable, CustomStringConvertible {
    /// The secret: 32 lowercase hexadecimal digits.
    public let hex: String

    /// Reads a secret: 32 hexadecimal digits, either case (kept lowercase); nil for anything
    /// else, such as the marker of scripts rendered ahead of time.
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 32, digits.allSatisfy(\.isHexadecimalDigit) else { return nil }
        self.hex = String(decoding: digits.map { (0x41...0x46).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }

    /// Compares with a message's secret in time independent of where they differ, so a page
    /// cannot guess the secret digit by digit from how long a rejection takes.
    func matches(_ candidate: String) -> Bool {
        var difference = candidate.utf8.count == hex.utf8.count ? 0 : 1
        for (expected, given) in zip(hex.utf8, candidate.utf8) { difference |= Int(expected ^ given) }
        return difference == 0
    }

    /// Only the first four digits, so logs do not leak the secret.
    public var description: String { "MessageSecret(\(hex.prefix(4))…)" }
}

extension UInt8 {
    fileprivate var isHexadecimalDigit: Bool {
        (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
    }
}

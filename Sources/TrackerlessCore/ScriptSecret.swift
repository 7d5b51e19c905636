/// The per-render secret that every message of the scripts carries, so that the host can reject
/// messages forged by page scripts.
///
/// A page script cannot read the source of a user script, so it cannot learn the secret; it can
/// call `window.webkit.messageHandlers.<handler>.postMessage` itself, which is why the host checks
/// the secret of every message. The renderer (UserScripts) puts a secret into the scripts, and the
/// host gives the same value to the statistics (PrivacyStatsKit), which reject messages without
/// it. A secret should be new for each run of the app:
///
/// ```swift
/// let scripts = try renderer.render(trackerData: compact, surrogates: .bundled)   // random secret
/// let atLaunch = buildTimeScripts.withSecret(.random())                          // fresh per run
/// let stats = PrivacyStats(resolver: resolver, secrets: [atLaunch.secret])
/// ```
///
/// Scripts rendered ahead of time (by `trackerless scripts` or the build plugin) carry
/// ``marker`` instead of a secret; the host puts a fresh secret in place of it at launch with
/// `RenderedScript.withSecret(_:)` (UserScripts) or ``inserted(into:)``.
public struct ScriptSecret: Sendable, Hashable, CustomStringConvertible {
    /// The secret's text: 32 lowercase hexadecimal digits (128 bits), or the text of ``marker``.
    public let value: String

    /// The stand-in of ahead-of-time renders: `TRACKERLESS-RENDER-SECRET-MARKER`, as long as a
    /// secret (32 characters) so that putting a secret in its place moves no other byte.
    ///
    /// Never accept messages carrying the marker: every page knows it.
    public static let marker = ScriptSecret(uncheckedValue: "TRACKERLESS-RENDER-SECRET-MARKER")

    /// The number of characters of a secret and of the marker.
    public static let length = 32

    private init(uncheckedValue: String) {
        value = uncheckedValue
    }

    /// A secret from its hexadecimal text: 32 hexadecimal digits, upper- or lowercase (stored
    /// lowercase); nil for anything else.
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == Self.length, digits.allSatisfy(\.isHexadecimalDigit) else { return nil }
        value = String(decoding: digits.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "F") ? $0 + 32 : $0 }, as: UTF8.self)
    }

    /// A new random secret from the system's cryptographically secure generator.
    public static func random() -> ScriptSecret {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    /// A new random secret from `generator` (tests pass a seeded one).
    public static func random(using generator: inout some RandomNumberGenerator) -> ScriptSecret {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(length)
        for _ in 0..<2 {
            var word = generator.next()
            for _ in 0..<16 {
                text.append(digits[Int(word & 0x0F)])
                word >>= 4
            }
        }
        return ScriptSecret(uncheckedValue: String(decoding: text, as: UTF8.self))
    }

    /// Whether this is ``marker`` rather than a secret.
    public var isMarker: Bool { self == Self.marker }

    /// Whether a message's secret is this one, compared in time independent of where they differ
    /// so that a page cannot guess the secret digit by digit from how long a rejection takes.
    /// The marker matches nothing: every page knows it.
    package func matches(_ candidate: String) -> Bool {
        guard !isMarker else { return false }
        var difference = candidate.utf8.count == value.utf8.count ? 0 : 1
        for (expected, given) in zip(value.utf8, candidate.utf8) { difference |= Int(expected ^ given) }
        return difference == 0
    }

    /// `source` with every occurrence of ``marker`` replaced by this secret: for scripts rendered
    /// ahead of time and loaded as text (for example the build plugin's generated source).
    public func inserted(into source: String) -> String {
        var bytes = Array(source.utf8)
        let marker = Array(Self.marker.value.utf8)
        let replacement = Array(value.utf8)
        for offset in Self.offsets(of: marker, in: bytes) {
            bytes.replaceSubrange(offset..<offset + marker.count, with: replacement)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Redacted, so that logging a secret does not give it away.
    public var description: String {
        isMarker ? "ScriptSecret.marker" : "ScriptSecret(\(value.prefix(4))…)"
    }

    /// The offsets at which `needle` starts in `haystack`, not overlapping.
    package static func offsets(of needle: [UInt8], in haystack: [UInt8]) -> [Int] {
        guard let first = needle.first, haystack.count >= needle.count else { return [] }
        var found: [Int] = []
        var offset = 0
        let last = haystack.count - needle.count
        while offset <= last {
            if haystack[offset] == first && haystack[offset..<offset + needle.count].elementsEqual(needle) {
                found.append(offset)
                offset += needle.count
            } else {
                offset += 1
            }
        }
        return found
    }
}

extension UInt8 {
    fileprivate var isHexadecimalDigit: Bool {
        (self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9")) || (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "f"))
            || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "F"))
    }
}

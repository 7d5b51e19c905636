public import TrackerlessCore

/// One rendered script, ready to inject: its source, the secret it carries and its content hash.
///
/// Two hashes matter and only one is stored: ``contentHash`` is the SHA-256 of the source with
/// `ScriptSecret.marker` in place of the secret, so it is the same for every secret: it changes
/// exactly when the templates, the tracker data, the surrogates or the settings change. The
/// SHA-256 of ``source`` itself differs per secret and equals ``contentHash`` only for a script
/// that carries the marker, such as the files `trackerless scripts` writes without `--secret`.
public struct RenderedScript: Sendable, Hashable {
    /// The bytes each part of a script takes.
    public struct Sizes: Sendable, Hashable {
        /// The template's own text, with the message queue it shares with the other script.
        public var template: Int
        /// The compact tracker data (`$TRACKER_DATA$`), escaped.
        public var trackerData: Int
        /// The surrogates' object literal (`$SURROGATES$`).
        public var surrogates: Int
        /// The bridge's code (`$BRIDGE$`).
        public var bridge: Int
        /// The settings and the secret.
        public var settings: Int

        /// Creates sizes.
        public init(template: Int = 0, trackerData: Int = 0, surrogates: Int = 0, bridge: Int = 0, settings: Int = 0) {
            self.template = template
            self.trackerData = trackerData
            self.surrogates = surrogates
            self.bridge = bridge
            self.settings = settings
        }

        /// All the bytes of the script.
        public var total: Int { template + trackerData + surrogates + bridge + settings }
    }

    /// The file name of the template, `blocking.js` or `inference.js`.
    public let name: String
    /// The script's source.
    public let source: String
    /// The secret its messages carry.
    public let secret: ScriptSecret
    /// SHA-256 (64 lowercase hex digits) of the source with the marker in place of the secret:
    /// deterministic, and the same for every secret.
    public let contentHash: String
    /// The bytes each part takes.
    public let sizes: Sizes
    /// UTF-8 offsets in ``source`` where the secret's text starts.
    let secretOffsets: [Int]

    init(name: String, bytes: [UInt8], secret: ScriptSecret, sizes: Sizes, secretOffsets: [Int]) {
        // Hashed with the marker in, then the secret goes in place: both have 32 characters.
        var bytes = bytes
        Self.write(ScriptSecret.marker, into: &bytes, at: secretOffsets)
        contentHash = SHA256.hexDigest(bytes)
        if !secret.isMarker { Self.write(secret, into: &bytes, at: secretOffsets) }
        self.name = name
        self.source = String(decoding: bytes, as: UTF8.self)
        self.secret = secret
        self.sizes = sizes
        self.secretOffsets = secretOffsets
    }

    private init(copying script: RenderedScript, source: String, secret: ScriptSecret) {
        name = script.name
        self.source = source
        self.secret = secret
        contentHash = script.contentHash
        sizes = script.sizes
        secretOffsets = script.secretOffsets
    }

    /// The UTF-8 size of ``source``.
    public var byteCount: Int { sizes.total }

    /// The same script carrying `secret`: one copy of the source, no rendering.
    ///
    /// Render once (at build time, or once per tracker-data update) and give each run of the app
    /// its own secret: `scripts.withSecret(.random())`.
    public func withSecret(_ secret: ScriptSecret) -> RenderedScript {
        var bytes = Array(source.utf8)
        Self.write(secret, into: &bytes, at: secretOffsets)
        return RenderedScript(copying: self, source: String(decoding: bytes, as: UTF8.self), secret: secret)
    }

    private static func write(_ secret: ScriptSecret, into bytes: inout [UInt8], at offsets: [Int]) {
        let text = Array(secret.value.utf8)
        for offset in offsets {
            bytes.replaceSubrange(offset..<offset + text.count, with: text)
        }
    }
}

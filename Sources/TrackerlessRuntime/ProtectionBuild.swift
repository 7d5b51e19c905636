public import TrackerlessCore
public import UserScripts

/// The one build of everything a host installs: inputs and a WebKit target in, every artifact out.
///
/// The runtime (``ProtectionSet/build(_:secret:)``, ``ProtectionSet/load(_:cacheDirectory:secret:)``),
/// `trackerless scripts` and so the build plugin, and the C API all build through it, so the
/// same inputs give the same rule lists, cookie lists, Click-to-Load lists, scripts and engine
/// wherever they are built. The pipeline, in order: read every input and hash it into the
/// set identity; parse; build the blocking rules for the target beside the cookie rules; compile
/// the engine and check the lists; render the scripts; encode and check every list.
///
/// ```swift
/// var inputs = ProtectionInputs(trackerData: .file("tds.json"))
/// inputs.webKit = .oldest
/// let build = try ProtectionBuild(inputs, secret: .marker)
/// print(build.set.ruleLists.map(\.identifier), build.scripts.blocking.sizes.total)
/// ```
public struct ProtectionBuild: Sendable {
    /// What a host installs: rule lists, scripts, engine, resolver and rule sources.
    public let set: ProtectionSet
    /// The scripts as rendered: the same sources as ``set``'s, with their sizes, content hashes
    /// and the warnings of rendering them.
    public let scripts: RenderedScripts
    /// The bytes of each input as the build read them, for ``inputSHA256(_:)``: `trackerless scripts`' manifest names
    /// the inputs of its artifacts without reading the files again (they may have changed since).
    /// Held as long as the build is, not by the set.
    private let inputBytes: [ProtectionInput: [UInt8]]

    /// Builds every artifact of `inputs` and checks each.
    ///
    /// - Parameters:
    ///   - inputs: the documents, the settings, the templates and the WebKit target.
    ///   - secret: the secret the scripts carry; `ScriptSecret.marker` renders them
    ///     ahead of time for a host that puts a fresh secret in at launch.
    /// - Throws: ``ProtectionError`` naming the input and the place (file, JSON path), or the
    ///   artifact that failed its check.
    public init(_ inputs: ProtectionInputs, secret: ScriptSecret = .random()) throws(ProtectionError) {
        let bytes = try inputs.read()
        let artifacts = try ProtectionSet.build(identity: bytes.identity, parsed: try bytes.parse(), secret: secret)
        set = artifacts.set
        scripts = artifacts.rendered
        inputBytes = bytes.bytes
    }

    /// SHA-256 (64 hex digits) of `input`'s bytes as this build read them; nil for an input not
    /// given (and for the script settings and the Smarter Encryption files, not read as one
    /// document).
    public func inputSHA256(_ input: ProtectionInput) -> String? {
        bytes(of: input).map { SHA256.hexDigest($0) }
    }

    /// `input`'s bytes as this build read them (the bundled sample's for the sample blocklist);
    /// nil for an input not given, as for ``inputSHA256(_:)``. `trackerless scripts --swift-output`
    /// embeds the inputs from them, never reading a file twice.
    public func bytes(of input: ProtectionInput) -> [UInt8]? {
        inputBytes[input]
    }
}

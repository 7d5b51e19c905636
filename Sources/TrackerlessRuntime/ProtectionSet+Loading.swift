import UserScripts

extension ProtectionSet {
    /// Builds a set from `inputs`: parses them, builds and checks every artifact.
    ///
    /// - Parameters:
    ///   - inputs: the documents.
    ///   - secret: the secret the scripts carry; a fresh random one by default.
    /// - Throws: ``ProtectionError`` naming the input and the place (file, JSON path), or the
    ///   artifact that failed its check.
    public static func build(_ inputs: ProtectionInputs, secret: ScriptSecret = .random()) throws(ProtectionError) -> ProtectionSet {
        let bytes = try inputs.read()
        return try build(identifier: bytes.identifier, parsed: try bytes.parse(), secret: secret).set
    }

    /// The set of `inputs` from the cache directory when it holds it intact, else built and
    /// written there for the next launch.
    ///
    /// The inputs are always read and parsed (the resolver needs them, and a broken input must not
    /// hide behind a cache); the rule lists, scripts and engine come from the cache when its
    /// manifest names the same identifier and every checksum matches (``origin`` says which).
    /// A cache that cannot be written costs only the next launch's build, so it is not an error
    /// here (``ProtectionRuntime/cacheError`` reports it).
    ///
    /// - Throws: ``ProtectionError`` naming the input and the place, or the artifact.
    public static func load(
        _ inputs: ProtectionInputs, cacheDirectory: String, secret: ScriptSecret = .random()
    ) throws(ProtectionError) -> ProtectionSet {
        try load(inputs, cache: ProtectionCache(directory: cacheDirectory), secret: secret).set
    }

    /// A set loaded or built, with its parsed inputs and the error of a cache write that failed.
    struct Loaded: Sendable {
        let set: ProtectionSet
        let parsed: ParsedInputs
        let cacheError: ProtectionError?
    }

    /// ``load(_:cacheDirectory:secret:)``, with the parsed inputs and the cache's error.
    static func load(_ inputs: ProtectionInputs, cache: ProtectionCache, secret: ScriptSecret) throws(ProtectionError) -> Loaded {
        let bytes = try inputs.read()
        let identifier = bytes.identifier
        let parsed = try bytes.parse()
        if let cached = cache.load(identifier: identifier, parsed: parsed, secret: secret) {
            return Loaded(set: cached, parsed: parsed, cacheError: nil)
        }
        let artifacts = try build(identifier: identifier, parsed: parsed, secret: secret)
        do throws(ProtectionError) {
            try cache.store(artifacts)
            return Loaded(set: artifacts.set, parsed: parsed, cacheError: nil)
        } catch {
            return Loaded(set: artifacts.set, parsed: parsed, cacheError: error)
        }
    }
}

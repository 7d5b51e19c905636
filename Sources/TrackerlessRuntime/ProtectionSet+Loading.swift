public import TrackerlessCore
public import UserScripts

extension ProtectionSet {
    /// Builds a set from `inputs`: parses them, builds and checks every artifact (``ProtectionBuild``).
    ///
    /// - Parameters:
    ///   - inputs: the documents.
    ///   - secret: the secret the scripts carry; a fresh random one by default.
    /// - Throws: ``ProtectionError`` naming the input and the place (file, JSON path), or the
    ///   artifact that failed its check.
    public static func build(_ inputs: ProtectionInputs, secret: ScriptSecret = .random()) throws(ProtectionError) -> ProtectionSet {
        try ProtectionBuild(inputs, secret: secret).set
    }

    /// The set of `inputs` from the cache directory when it holds it intact, else built and
    /// written there for the next launch.
    ///
    /// The inputs are always read and hashed (the set identity), and every input but the blocklist
    /// parsed; the rule lists, scripts and engine come from the cache when its whole generation
    /// passes its check and its contents name the same identity (``origin`` says which). The
    /// blocklist is then parsed on first use of ``resolver``: the cache holds only sets built,
    /// so parsed, from the very bytes the identity hashes. A cache that cannot be written costs
    /// only the next launch's build, so it is not an error here (``ProtectionRuntime/lastStorageError``
    /// reports it).
    ///
    /// - Throws: ``ProtectionError`` naming the input and the place, or the artifact.
    public static func load(
        _ inputs: ProtectionInputs, cacheDirectory: String, secret: ScriptSecret = .random()
    ) throws(ProtectionError) -> ProtectionSet {
        try ProtectionCache.checkDirectoryPath(cacheDirectory)
        let cache = ProtectionCache(directory: cacheDirectory)
        let loaded = try load(inputs, cache: cache, secret: secret, expectingCache: true)
        _ = loaded.storeIfBuilt(in: cache)
        return loaded.set
    }

    /// A set loaded or built; a built one still to write to the cache.
    struct Loaded: Sendable {
        let set: ProtectionSet
        /// What the cache should store: nil when the set came from it.
        let artifacts: Artifacts?

        /// Writes a built set to the cache; the error when that failed.
        func storeIfBuilt(in cache: ProtectionCache) -> ProtectionError? {
            guard let artifacts else { return nil }
            do throws(ProtectionError) {
                try cache.store(artifacts)
                return nil
            } catch {
                return error
            }
        }
    }

    /// ``load(_:cacheDirectory:secret:)`` without the cache write, which the caller does (the
    /// runtime after the swap).
    ///
    /// - Parameter expectingCache: a launch, where the cache most likely holds the set: it is read
    ///   and checked while the inputs are hashed, on the second core. An update hashes and
    ///   parses the inputs at once instead, and reads the cache only when its contents name their identity.
    static func load(
        _ inputs: ProtectionInputs, cache: ProtectionCache, secret: ScriptSecret, expectingCache: Bool
    ) throws(ProtectionError) -> Loaded {
        let bytes = try inputs.read()
        let identity: String
        let parsed: ParsedInputs
        if expectingCache {
            let (hashed, lookup) = Parallel.both(
                { (bytes.identity, Result { () throws(ProtectionError) in try bytes.parseOthers() }) },
                { cache.read() })
            identity = hashed.0
            switch lookup {
            case .intact(let cached) where cached.identity == identity:
                let others = try hashed.1.get()
                if let set = cached.set(secret: secret, inputs: DeferredInputs(bytes: bytes, others: others)) {
                    return Loaded(set: set, artifacts: nil)
                }
            case .damaged(let generation):
                cache.discard(generation: generation)
            case .intact, .missing:
                break  // another set, intact, is kept until the new one replaces it
            }
            parsed = try bytes.parse()
        } else {
            let (hashed, parsing) = Parallel.both(
                { bytes.identity }, { Result { () throws(ProtectionError) in try bytes.parse() } })
            identity = hashed
            parsed = try parsing.get()
            if cache.storedIdentity() == identity {
                switch cache.read() {
                case .intact(let cached) where cached.identity == identity:
                    let inputs = DeferredInputs(parsed: parsed, resolver: nil)
                    if let set = cached.set(secret: secret, inputs: inputs) { return Loaded(set: set, artifacts: nil) }
                case .damaged(let generation):
                    cache.discard(generation: generation)
                case .intact, .missing:
                    break
                }
            }
        }
        let artifacts = try build(identity: identity, parsed: parsed, secret: secret)
        return Loaded(set: artifacts.set, artifacts: artifacts)
    }
}

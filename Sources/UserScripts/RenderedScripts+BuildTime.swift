import TrackerlessCore

extension RenderedScripts {
    /// The scripts that `trackerless scripts` or the build plugin rendered ahead of time, read back
    /// from their sources and the render's `manifest.json`, so that a host can give them a secret
    /// and install them like scripts rendered at run time.
    ///
    /// With the build plugin's generated enum:
    ///
    /// ```swift
    /// let scripts = try RenderedScripts(
    ///     blockingScript: TrackerlessGenerated.blockingScript,
    ///     inferenceScript: TrackerlessGenerated.inferenceScript,
    ///     manifest: TrackerlessGenerated.manifest
    /// ).withSecret(.random())
    /// ```
    ///
    /// - Parameters:
    ///   - blockingScript: `blocking.js` as rendered, carrying the secret marker.
    ///   - inferenceScript: `inference.js` as rendered, carrying the secret marker.
    ///   - manifest: the render's `manifest.json` (format 2, or format 1 of earlier SDKs): the
    ///     settings the scripts were rendered with (the host registers its handler under
    ///     ``ScriptSettings/handler``) and each script's content hash, which must match the source.
    /// - Throws: ``ScriptRenderError/buildOutput(_:)`` when the manifest is not a render's manifest,
    ///   a script does not carry the marker (it already has a secret, or it is not a rendered
    ///   script), or a script is not the one the manifest describes.
    public init(blockingScript: String, inferenceScript: String, manifest: String) throws(ScriptRenderError) {
        let manifestFields: (settings: ScriptSettings, files: [String: Result<ManifestEntry, JSONReadError>])
        do throws(JSONReadError) {
            manifestFields = try JSONReader.read(Array(manifest.utf8)) { (reader) throws(JSONReadError) in
                try Self.manifest(&reader, files: ["blocking.js", "inference.js"])
            }
        } catch {
            if case .rejected(let error as ScriptRenderError) = error { throw error }
            throw .buildOutput("manifest.json: \(error)")
        }
        let settings = manifestFields.settings
        func script(_ name: String, _ source: String) throws(ScriptRenderError) -> RenderedScript {
            let bytes = Array(source.utf8)
            let offsets = ScriptSecret.offsets(of: Array(ScriptSecret.marker.value.utf8), in: bytes)
            guard !offsets.isEmpty else {
                throw .buildOutput("\(name): no secret marker (\(ScriptSecret.marker.value)); give the script as rendered")
            }
            let expectedHash: String
            let sizes: RenderedScript.Sizes
            switch manifestFields.files[name] {
            case .success(let entry)?: (expectedHash, sizes) = (entry.contentHash, entry.sizes)
            case .failure(let error)?: throw .buildOutput("manifest.json: \(error)")
            case nil: preconditionFailure("\(name) was not read from the manifest")
            }
            let rendered = RenderedScript(name: name, bytes: bytes, secret: .marker, sizes: sizes, secretOffsets: offsets)
            guard rendered.contentHash == expectedHash else {
                throw .buildOutput(
                    "\(name): content hash \(rendered.contentHash) is not the manifest's \(expectedHash); the script and the manifest are of different renders")
            }
            return rendered
        }
        self.init(
            blocking: try script("blocking.js", blockingScript), inference: try script("inference.js", inferenceScript),
            warnings: [], settings: settings)
    }

    /// A script's entry in a manifest's `files`.
    private struct ManifestEntry {
        var contentHash: String
        var sizes: RenderedScript.Sizes
    }

    /// The manifest's settings, and the entries of `files` (each an error of its own, reported
    /// when its script is checked).
    private static func manifest(
        _ reader: inout JSONReader, files names: [String]
    ) throws(JSONReadError) -> (settings: ScriptSettings, files: [String: Result<ManifestEntry, JSONReadError>]) {
        let root = try reader.indexObject(at: .root)
        // Format 2 says so in `format`; format 1 had no such member. Both carry what is read here.
        if root.contains("format") {
            let format = try reader.requiredDouble("format", in: root)
            guard format == 2 else {
                throw .rejected(ScriptRenderError.buildOutput(
                    "manifest.json: format: \(JSONValue.number(format).jsonString()) is not a format this SDK reads (1 or 2)"))
            }
        }
        try reader.seekRequired("settings", in: root)
        let settings = try Self.settings(&reader, at: root.path(of: "settings"))
        try reader.seekRequired("files", in: root)
        let files = try reader.readResult { (reader) throws(JSONReadError) in try reader.indexObject(at: root.path(of: "files")) }
        var entries: [String: Result<ManifestEntry, JSONReadError>] = [:]
        for name in names {
            do throws(JSONReadError) {
                let files = try files.get()
                try reader.seekRequired(name, in: files)
                let file = try reader.indexObject(at: files.path(of: name))
                let contentHash = try reader.requiredString("contentHash", in: file)
                try reader.seekRequired("sizes", in: file)
                let parts = try reader.indexObject(at: file.path(of: "sizes"))
                let sizes = RenderedScript.Sizes(
                    template: try reader.requiredInt("template", in: parts),
                    trackerData: try reader.requiredInt("trackerData", in: parts),
                    surrogates: try reader.requiredInt("surrogates", in: parts), bridge: try reader.requiredInt("bridge", in: parts),
                    settings: try reader.requiredInt("settings", in: parts))
                entries[name] = .success(ManifestEntry(contentHash: contentHash, sizes: sizes))
            } catch {
                entries[name] = .failure(error)
            }
        }
        reader.leave(root)
        return (settings, entries)
    }

    /// The `settings` object of a manifest.
    private static func settings(_ reader: inout JSONReader, at path: JSONPath) throws(JSONReadError) -> ScriptSettings {
        let object = try reader.indexObject(at: path)
        let bridgeName = try reader.requiredString("bridge", in: object)
        guard let bridge = MessageBridge(rawValue: bridgeName) else {
            throw .rejected(ScriptRenderError.buildOutput("manifest.json: settings.bridge: unknown bridge \"\(bridgeName)\""))
        }
        let settings = ScriptSettings(
            bridge: bridge, handler: try reader.requiredString("handler", in: object),
            batchInterval: try reader.requiredInt("batchInterval", in: object),
            blockInScript: try reader.requiredBool("blockInScript", in: object),
            maxEventsPerMessage: try reader.requiredInt("maxEventsPerMessage", in: object),
            debug: try reader.requiredBool("debug", in: object))
        do {
            try settings.validate()
        } catch {
            throw .rejected(error)
        }
        return settings
    }
}

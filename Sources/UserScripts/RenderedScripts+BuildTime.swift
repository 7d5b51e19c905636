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
    ///   - manifest: the render's `manifest.json`: the settings the scripts were rendered with
    ///     (the host registers its handler under ``ScriptSettings/handler``) and each script's
    ///     content hash, which must match the source.
    /// - Throws: ``ScriptRenderError/buildOutput(_:)`` when the manifest is not a render's manifest,
    ///   a script does not carry the marker (it already has a secret, or it is not a rendered
    ///   script), or a script is not the one the manifest describes.
    public init(blockingScript: String, inferenceScript: String, manifest: String) throws(ScriptRenderError) {
        let root: JSONNode
        let settings: ScriptSettings
        let files: JSONNode
        do {
            root = JSONNode(try JSONParser.parse(Array(manifest.utf8)))
            settings = try Self.settings(from: try root.required("settings"))
            files = try root.required("files")
        } catch let error as ScriptRenderError {
            throw error
        } catch {
            throw .buildOutput("manifest.json: \(error)")
        }
        func script(_ name: String, _ source: String) throws(ScriptRenderError) -> RenderedScript {
            let bytes = Array(source.utf8)
            let offsets = ScriptSecret.offsets(of: Array(ScriptSecret.marker.value.utf8), in: bytes)
            guard !offsets.isEmpty else {
                throw .buildOutput("\(name): no secret marker (\(ScriptSecret.marker.value)); give the script as rendered")
            }
            let expectedHash: String
            let sizes: RenderedScript.Sizes
            do {
                let file = try files.required(name)
                expectedHash = try file.required("contentHash").string()
                let parts = try file.required("sizes")
                sizes = RenderedScript.Sizes(
                    template: try parts.required("template").int(), trackerData: try parts.required("trackerData").int(),
                    surrogates: try parts.required("surrogates").int(), bridge: try parts.required("bridge").int(),
                    settings: try parts.required("settings").int())
            } catch {
                throw .buildOutput("manifest.json: \(error)")
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

    /// The `settings` object of a manifest.
    private static func settings(from node: JSONNode) throws -> ScriptSettings {
        let bridgeName = try node.required("bridge").string()
        guard let bridge = MessageBridge(rawValue: bridgeName) else {
            throw ScriptRenderError.buildOutput("manifest.json: settings.bridge: unknown bridge \"\(bridgeName)\"")
        }
        let settings = ScriptSettings(
            bridge: bridge, handler: try node.required("handler").string(),
            batchInterval: try node.required("batchInterval").int(),
            blockInScript: try node.required("blockInScript").bool(),
            maxEventsPerMessage: try node.required("maxEventsPerMessage").int(),
            debug: try node.required("debug").bool())
        try settings.validate()
        return settings
    }
}

import Testing
import TrackerDataKit
import TrackerlessCore
import UserScripts

/// Scripts rendered ahead of time (the build plugin, `trackerless scripts`) read back with their
/// manifest, so that a host gives them a secret like scripts rendered at run time.
@Suite struct BuildTimeScriptsTests {
    static let settings = ScriptSettings(bridge: .android, handler: "Host", batchInterval: 250)

    /// A render with the marker, and a manifest with what the command writes of it.
    static func render() throws -> (scripts: RenderedScripts, manifest: String) {
        let trackerData = try TrackerData(parsing: Array(#"{"trackers": {}, "entities": {}, "domains": {}}"#.utf8))
        let scripts = try ScriptRenderer(settings: settings).render(trackerData: trackerData).withSecret(.marker)
        func file(_ script: RenderedScript) -> String {
            let sizes = script.sizes
            return #"{"contentHash": "\#(script.contentHash)", "sizes": {"template": \#(sizes.template), "trackerData": \#(sizes.trackerData), "surrogates": \#(sizes.surrogates), "bridge": \#(sizes.bridge), "settings": \#(sizes.settings)}}"#
        }
        let manifest = """
            {"settings": {"bridge": "android", "handler": "Host", "batchInterval": 250, "blockInScript": false,
              "maxEventsPerMessage": 200, "debug": false},
             "files": {"blocking.js": \(file(scripts.blocking)), "inference.js": \(file(scripts.inference))}}
            """
        return (scripts, manifest)
    }

    @Test("scripts read back take a secret as a fresh render does")
    func readBack() throws {
        let (rendered, manifest) = try Self.render()
        let scripts = try RenderedScripts(
            blockingScript: rendered.blocking.source, inferenceScript: rendered.inference.source, manifest: manifest)
        #expect(scripts.settings == Self.settings)
        #expect(scripts.blocking.contentHash == rendered.blocking.contentHash)
        #expect(scripts.blocking.byteCount == rendered.blocking.byteCount)
        let secret = ScriptSecret.random()
        #expect(scripts.withSecret(secret) == rendered.withSecret(secret))
    }

    @Test("a script with a secret already in, another render's script, or a broken manifest is refused")
    func refusals() throws {
        let (rendered, manifest) = try Self.render()
        let withSecret = rendered.withSecret(.random())
        #expect(throws: ScriptRenderError.buildOutput(
            "blocking.js: no secret marker (TRACKERLESS-RENDER-SECRET-MARKER); give the script as rendered"
        )) {
            try RenderedScripts(blockingScript: withSecret.blocking.source, inferenceScript: rendered.inference.source, manifest: manifest)
        }
        let edited = rendered.inference.source + "\n"
        #expect {
            try RenderedScripts(blockingScript: rendered.blocking.source, inferenceScript: edited, manifest: manifest)
        } throws: { error in
            "\(error)".hasPrefix("rendered scripts: inference.js: content hash ") && "\(error)".hasSuffix("different renders")
        }
        #expect {
            try RenderedScripts(blockingScript: rendered.blocking.source, inferenceScript: rendered.inference.source,
                                manifest: #"{"settings": {"bridge": "carrier-pigeon"}}"#)
        } throws: { error in
            "\(error)" == #"rendered scripts: manifest.json: settings.bridge: unknown bridge "carrier-pigeon""#
        }
        #expect {
            try RenderedScripts(blockingScript: rendered.blocking.source, inferenceScript: rendered.inference.source, manifest: "{")
        } throws: { error in
            "\(error)".hasPrefix("rendered scripts: manifest.json: ")
        }
    }

    @Test("manifest format 2 and format 1 (without format, as earlier SDKs wrote it) are read; another format is refused")
    func formats() throws {
        let (rendered, manifest) = try Self.render()
        let body = manifest.drop { $0 != "{" }.dropFirst()
        let formatTwo = #"{"format": 2, "setIdentity": "\#(String(repeating: "a", count: 64))", "# + body
        let formatOne = #"{"trackerless": 1, "# + body
        for text in [formatTwo, formatOne] {
            let scripts = try RenderedScripts(
                blockingScript: rendered.blocking.source, inferenceScript: rendered.inference.source, manifest: text)
            #expect(scripts.settings == Self.settings, "\(text)")
        }
        #expect(throws: ScriptRenderError.buildOutput("manifest.json: format: 3 is not a format this SDK reads (1 or 2)")) {
            try RenderedScripts(
                blockingScript: rendered.blocking.source, inferenceScript: rendered.inference.source,
                manifest: #"{"format": 3, "# + body)
        }
    }
}

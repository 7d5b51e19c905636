import Testing
import TrackerDataKit
import TrackerlessCore
import UserScripts

@Suite("Script renderer")
struct ScriptRendererTests {
    /// Templates that print what they were given, so Node can show what the page would see.
    static let echoTemplates = ScriptTemplates(
        blocking: """
            (function () {
              'use strict';
              var given = {data: $TRACKER_DATA$, surrogates: $SURROGATES$, settings: $SETTINGS$, secret: $SECRET$, bridge: $BRIDGE$,
                queue: $MESSAGE_QUEUE$};
              console.log(JSON.stringify({data: given.data, settings: given.settings, secret: given.secret,
                surrogates: Object.keys(given.surrogates), bridge: typeof given.bridge, queue: typeof given.queue}));
            })();
            """,
        inference: """
            (function () {
              'use strict';
              var post = ($BRIDGE$)($SETTINGS$, {});
              var queue = $MESSAGE_QUEUE$;
              console.log(JSON.stringify({secret: $SECRET$, post: post({}), queue: typeof queue}));
            })();
            """,
        bridges: [.webkit: "function (settings, captured) {\n  return function post(message) { return false; };\n}\n"],
        location: "test")

    /// A blocklist whose owner name and rule text try to break out of a script element.
    static let hostileTDS = #"""
        {
          "trackers": {
            "tracker.example": {
              "domain": "tracker.example",
              "owner": {"name": "Evil </script><script>alert(1)</script> <!-- \u2028\u2029 & Co", "displayName": "Evil"},
              "default": "block",
              "rules": [{"rule": "tracker\\.example/</script>", "surrogate": "noop.js"}]
            }
          },
          "entities": {"Evil </script><script>alert(1)</script> <!-- \u2028\u2029 & Co": {"domains": ["tracker.example"]}},
          "domains": {"tracker.example": "Evil </script><script>alert(1)</script> <!-- \u2028\u2029 & Co"},
          "cnames": {}
        }
        """#

    static let noop = Surrogates([Surrogates.Surrogate(
        name: "noop.js", path: "noop.example/noop.js", contentType: "application/javascript", source: "(function () {})();")])

    static func render(
        _ tds: String = hostileTDS, templates: ScriptTemplates = echoTemplates, secret: ScriptSecret = .marker
    ) throws -> (RenderedScripts, CompactTrackerData) {
        let trackerData = try TrackerData(parsing: Array(tds.utf8), file: "tds.json")
        let library = SurrogateLibrary(noop)
        let compact = CompactTrackerData(trackerData: trackerData, surrogates: library.surrogates)
        let renderer = try ScriptRenderer(templates: templates)
        return (renderer.render(trackerData: compact, surrogates: library, secret: secret), compact)
    }

    @Test("JSON is escaped for script context: no </script, U+2028 or U+2029 comes through")
    func escaping() throws {
        let (scripts, compact) = try Self.render()
        // The data really holds the hostile text, else the test proves nothing.
        #expect(compact.json.contains("</script>"))
        #expect(compact.json.contains("\u{2028}"))
        let source = scripts.blocking.source
        #expect(!source.lowercased().contains("</script"))
        #expect(!source.contains("<!--"))
        #expect(!source.contains("\u{2028}") && !source.contains("\u{2029}"))
        #expect(source.contains(#"\u003c/script\u003e"#))
        #expect(source.contains(#"\u2028\u2029"#))
    }

    @Test("The escaped data reads back in JavaScript as the same JSON value", .enabled(if: NodeRunner.isAvailable, "node not found"))
    func escapedDataRoundTrips() throws {
        let (scripts, compact) = try Self.render()
        let result = try NodeRunner.run(scripts.blocking.source)
        try #require(result.status == 0, "node failed: \(result.error)")
        guard case .object(let printed) = try JSONParser.parse(result.output) else {
            Issue.record("not an object: \(result.output)")
            return
        }
        #expect(printed["data"] == (try JSONParser.parse(compact.json)))
        #expect(printed["secret"] == .string(ScriptSecret.marker.value))
        #expect(printed["surrogates"] == .array([.string("noop.js")]))
        #expect(printed["bridge"] == .string("function"))
        #expect(printed["queue"] == .string("function"))
        guard case .object(let settings)? = printed["settings"] else {
            Issue.record("no settings")
            return
        }
        #expect(settings["handler"] == .string("trackerless"))
        #expect(settings["bridge"] == .string("webkit"))
        #expect(settings["batchInterval"] == .number(100))
        #expect(settings["blockInScript"] == .bool(false))
        #expect(settings["maxEventsPerMessage"] == .number(200))
        #expect(settings["debug"] == .bool(false))
    }

    @Test("The bundled templates with hostile data: nothing breaks out, and Node parses the scripts")
    func bundledTemplatesWithHostileData() throws {
        let (scripts, _) = try Self.render(templates: .bundled)
        for script in [scripts.blocking, scripts.inference] {
            #expect(!script.source.lowercased().contains("</script"))
            #expect(!script.source.contains("\u{2028}") && !script.source.contains("\u{2029}"))
            guard NodeRunner.isAvailable else { continue }
            let result = try NodeRunner.run(script.source, arguments: ["--check"])
            #expect(result.status == 0, "\(script.name): \(result.error)")
        }
    }

    @Test("Same inputs and secret: same bytes and hash; the hash does not depend on the secret")
    func determinism() throws {
        let secret = try #require(ScriptSecret(hex: "0123456789abcdef0123456789abcdef"))
        let (first, _) = try Self.render(secret: secret)
        let (second, _) = try Self.render(secret: secret)
        #expect(first.blocking.source == second.blocking.source)
        #expect(first.inference.source == second.inference.source)
        #expect(first.blocking.contentHash == second.blocking.contentHash)
        let (other, _) = try Self.render(secret: .random())
        #expect(other.blocking.source != first.blocking.source)
        #expect(other.blocking.contentHash == first.blocking.contentHash)
        #expect(other.inference.contentHash == first.inference.contentHash)
        #expect(first.blocking.contentHash != first.inference.contentHash)
    }

    @Test("The content hash is the SHA-256 of the script rendered with the marker")
    func contentHash() throws {
        let (scripts, _) = try Self.render(secret: .marker)
        #expect(scripts.blocking.contentHash == SHA256.hexDigest(Array(scripts.blocking.source.utf8)))
        #expect(scripts.blocking.contentHash.count == 64)
        #expect(scripts.blocking.byteCount == scripts.blocking.source.utf8.count)
        let sizes = scripts.blocking.sizes
        #expect(sizes.trackerData > 0 && sizes.surrogates > 0 && sizes.bridge > 0 && sizes.template > 0)
        #expect(scripts.inference.sizes.trackerData == 0 && scripts.inference.sizes.surrogates == 0)
    }

    @Test("withSecret swaps the secret and keeps everything else")
    func withSecret() throws {
        let (rendered, _) = try Self.render(secret: .marker)
        let secret = try #require(ScriptSecret(hex: "ffeeddccbbaa99887766554433221100"))
        let swapped = rendered.withSecret(secret)
        #expect(swapped.secret == secret)
        #expect(swapped.blocking.source.contains("\"ffeeddccbbaa99887766554433221100\""))
        #expect(!swapped.blocking.source.contains(ScriptSecret.marker.value))
        #expect(!swapped.inference.source.contains(ScriptSecret.marker.value))
        #expect(swapped.blocking.contentHash == rendered.blocking.contentHash)
        let (direct, _) = try Self.render(secret: secret)
        #expect(swapped.blocking.source == direct.blocking.source)
        #expect(swapped.inference.source == direct.inference.source)
        #expect(swapped.withSecret(.marker).blocking.source == rendered.blocking.source)
        #expect(secret.inserted(into: rendered.inference.source) == direct.inference.source)
    }

    @Test("Warnings of the tracker data and the surrogates come with the scripts, with their place")
    func warnings() throws {
        let tds = Self.hostileTDS.replacingOccurrences(of: "noop.js", with: "missing.js")
        let (scripts, _) = try Self.render(tds)
        let warning = try #require(scripts.warnings.first)
        #expect(warning.path?.description == #"trackers["tracker.example"].rules[0].surrogate"#)
        #expect(warning.description.contains("missing.js"))
    }

    @Test("Unknown placeholders are errors naming the template and line")
    func unknownPlaceholder() {
        var templates = Self.echoTemplates
        templates.inference = "(function () {\n  var a = $SETTINGS$;\n  var b = $SECRET$;\n  var c = $BRIDGE$;\n  var d = $TRACKER_DATA$;\n})();"
        #expect(throws: ScriptRenderError.unknownPlaceholder(name: "TRACKER_DATA", template: "test/inference.js", line: 5)) {
            try ScriptRenderer(templates: templates)
        }
        templates.inference = "var a = $SETTINGS$, b = $SECRET$, c = $BRIDGE$;\n\n$DATA$"
        do {
            _ = try ScriptRenderer(templates: templates)
            Issue.record("no error")
        } catch {
            #expect(error.description == "test/inference.js: line 3: unknown placeholder $DATA$ (not one this template takes)")
        }
    }

    @Test("Missing placeholders are errors naming the template")
    func missingPlaceholder() {
        var templates = Self.echoTemplates
        templates.blocking = "(function () { var a = $SETTINGS$, b = $SECRET$, c = $BRIDGE$, d = $SURROGATES$; })();"
        #expect(throws: ScriptRenderError.missingPlaceholder(name: "TRACKER_DATA", template: "test/blocking.js")) {
            try ScriptRenderer(templates: templates)
        }
    }

    @Test("Dollar signs that are not placeholders stay as they are")
    func dollars() throws {
        var templates = Self.echoTemplates
        templates.inference = "var a = $SETTINGS$, b = $SECRET$, c = $BRIDGE$, d = $MESSAGE_QUEUE$; var $ = 1, $a$ = '$', x = '$$', y = '$NOT';"
        let (scripts, _) = try Self.render(templates: templates)
        #expect(scripts.inference.source.hasSuffix("var $ = 1, $a$ = '$', x = '$$', y = '$NOT';"))
    }

    @Test("A bridge or template that would break out of a script element is refused with its line")
    func unsafeCode() {
        var templates = Self.echoTemplates
        templates.bridges[.webkit] = "function () {\n  return function () { return '</SCRIPT>'; };\n}"
        #expect(throws: ScriptRenderError.unsafeCode(
            file: "test/bridges/webkit.js", line: 2, reason: "contains \"</script\", which would end an inline script element")
        ) {
            try ScriptRenderer(templates: templates)
        }
        templates = Self.echoTemplates
        templates.inference = "var a = $SETTINGS$, b = $SECRET$;\n// \u{2028}\nvar c = $BRIDGE$;"
        do {
            _ = try ScriptRenderer(templates: templates)
            Issue.record("no error")
        } catch {
            #expect(error.description.hasPrefix("test/inference.js: line 2: contains U+2028"))
        }
    }

    @Test("A bridge the templates lack is an error naming its file")
    func missingBridge() {
        #expect(throws: ScriptRenderError.missingTemplate(path: "test/bridges/android.js")) {
            try ScriptRenderer(templates: Self.echoTemplates, settings: ScriptSettings(bridge: .android))
        }
    }

    @Test("Settings out of range are refused")
    func settings() {
        #expect(throws: ScriptRenderError.self) { try ScriptRenderer(templates: Self.echoTemplates, settings: ScriptSettings(handler: "")) }
        #expect(throws: ScriptRenderError.self) {
            try ScriptRenderer(templates: Self.echoTemplates, settings: ScriptSettings(batchInterval: 1))
        }
        #expect(throws: ScriptRenderError.self) {
            try ScriptRenderer(templates: Self.echoTemplates, settings: ScriptSettings(maxEventsPerMessage: 501))
        }
    }
}

import TrackerlessCore
import TrackerlessRuntime
import UserScripts

extension ScriptsCommand {
    /// manifest.json, the manifest: what was written (each rule list with its identifier), the
    /// set identity, from what, and how the secret gets in.
    ///
    /// Format 2 has `format` and `setIdentity` and each rule list's `identifier`; format 1 had
    /// `"trackerless": 1` in place of `format` and neither of the others.
    struct Manifest {
        /// The version of the manifest's format.
        static let formatVersion = 2


        var bytes: [UInt8]

        init(
            setIdentity: String, scripts: RenderedScripts, settings: ScriptSettings, trackerDataScope: String,
            ruleLists: [String: EncodedRuleList],
            surrogateCount: Int, templates: String?,
            inputs: [(key: String, path: String, sha256: String)], files: [(name: String, bytes: [UInt8])]
        ) {
            var manifest = JSONObject()
            manifest.append("format", .number(Double(Self.formatVersion)))
            manifest.append("setIdentity", .string(setIdentity))
            manifest.append("secret", .object(Self.secret(scripts.secret)))
            manifest.append("settings", .object(JSONObject([
                ("bridge", .string(settings.bridge.rawValue)), ("handler", .string(settings.handler)),
                ("batchInterval", .number(Double(settings.batchInterval))), ("blockInScript", .bool(settings.blockInScript)),
                ("maxEventsPerMessage", .number(Double(settings.maxEventsPerMessage))), ("debug", .bool(settings.debug)),
                ("gpc", .bool(settings.globalPrivacyControl)),
            ])))
            var fileObject = JSONObject()
            for file in files {
                var entry = JSONObject([
                    ("bytes", .number(Double(file.bytes.count))), ("sha256", .string(SHA256.hexDigest(file.bytes))),
                ])
                if let script = [scripts.blocking, scripts.inference].first(where: { $0.name == file.name }) {
                    entry.append("contentHash", .string(script.contentHash))
                    let sizes = script.sizes
                    entry.append("sizes", .object(JSONObject([
                        ("template", .number(Double(sizes.template))), ("trackerData", .number(Double(sizes.trackerData))),
                        ("surrogates", .number(Double(sizes.surrogates))), ("bridge", .number(Double(sizes.bridge))),
                        ("settings", .number(Double(sizes.settings))),
                    ])))
                    // Which trackers the blocking script's data holds (CompactTrackerData.Scope).
                    if script.name == scripts.blocking.name { entry.append("trackerDataScope", .string(trackerDataScope)) }
                } else if file.name == "surrogates.txt" {
                    entry.append("surrogates", .number(Double(surrogateCount)))
                } else if let list = ruleLists[file.name] {
                    // The name to compile and look the list up under, as the runtime does.
                    entry.append("identifier", .string(list.identifier))
                    if list.kind != .clickToLoad { entry.append("rules", .number(Double(list.ruleCount))) }
                }
                fileObject.append(file.name, .object(entry))
            }
            manifest.append("files", .object(fileObject))
            var inputObject = JSONObject()
            for input in inputs {
                inputObject.append(input.key, .object(JSONObject([("path", .string(input.path)), ("sha256", .string(input.sha256))])))
            }
            inputObject.append("templates", .string(templates ?? "bundled"))
            manifest.append("inputs", .object(inputObject))
            manifest.append("warnings", .array(scripts.warnings.map { .string($0.description) }))
            bytes = Self.indented(.object(manifest))
        }

        /// How the secret gets into the scripts: the marker for the host to replace, or a fixed one
        /// (never written here: the scripts hold it).
        private static func secret(_ secret: ScriptSecret) -> JSONObject {
            if secret.isMarker {
                return JSONObject([
                    ("scheme", .string("marker")), ("marker", .string(secret.value)),
                    ("note", .string("replace every occurrence of the marker with a fresh 32-hex-digit secret at launch "
                        + "(RenderedScript.withSecret / ScriptSecret.inserted(into:)); never accept messages carrying the marker")),
                ])
            }
            return JSONObject([("scheme", .string("fixed"))])
        }

        /// One member per line at the top two levels, so that diffs of manifests read well.
        private static func indented(_ value: JSONValue) -> [UInt8] {
            guard case .object(let object) = value else { return value.jsonBytes() }
            var lines: [String] = []
            for (index, key) in object.keys.enumerated() {
                var writer = JSONWriter()
                writer.writeString(key)
                let name = String(decoding: writer.bytes, as: UTF8.self)
                let member = object.values[index]
                if case .object(let inner) = member, inner.count > 0 {
                    var innerLines: [String] = []
                    for (innerIndex, innerKey) in inner.keys.enumerated() {
                        var keyWriter = JSONWriter()
                        keyWriter.writeString(innerKey)
                        innerLines.append("    " + String(decoding: keyWriter.bytes, as: UTF8.self) + ": " + inner.values[innerIndex].jsonString())
                    }
                    lines.append("  \(name): {\n" + innerLines.joined(separator: ",\n") + "\n  }")
                } else {
                    lines.append("  \(name): " + member.jsonString())
                }
            }
            return Array(("{\n" + lines.joined(separator: ",\n") + "\n}\n").utf8)
        }
    }
}

import Foundation
import RuleEngineKit
import TrackerlessCore
import UserScripts

/// The cache directory of a runtime: the current set's artifacts, so that a relaunch with the
/// same inputs loads them instead of building them.
///
/// The set is one ``TrackerlessCore/FileSet`` at `<directory>/set`: a link to a generation
/// directory switched by one `rename(2)`, so a reader sees one complete write or the one
/// before, never a mix. The generation holds `manifest.json` (the set's identifier, and every
/// other file's size and SHA-256), one JSON file per rule list, the two scripts with the marker
/// (``UserScripts/ScriptSecret/marker``) where the secret goes, and `engine.bin`, the compiled
/// engine (checksummed again by its own format). A load checks every size and checksum, and a set
/// whose manifest or any file does not match is not loaded (it is built and written again):
/// a damaged or cut cache is never trusted.
///
/// No secret is written: each load puts the runtime's own secret in place of the marker.
struct ProtectionCache: Sendable {
    /// The cache directory.
    let directory: String

    static let formatVersion = 1
    private static let manifestName = "manifest.json"
    private static let engineName = "engine.bin"

    /// The set's link.
    var setPath: String { directory + "/set" }

    /// The set of `identifier` from the cache, carrying `secret`; nil when the cache holds
    /// another set, or anything in it fails a check.
    func load(identifier: String, parsed: ParsedInputs, secret: ScriptSecret) -> ProtectionSet? {
        let generation = FileSet.generation(of: setPath)
        guard FileManager.default.fileExists(atPath: generation) else { return nil }
        if let manifestBytes = try? FileIO.read(path: generation + "/" + Self.manifestName),
            let root = try? JSONParser.parse(manifestBytes), case .object(let manifest) = root,
            manifest["format"] == .number(Double(Self.formatVersion)), manifest["identifier"] != .string(identifier)
        {
            return nil  // another set, intact: kept until the new one replaces it
        }
        if let set = loadVerified(generation: generation, identifier: identifier, parsed: parsed, secret: secret) { return set }
        // Damaged: the generation's name is the hash of what it should hold, so a rewrite of the
        // same set would find it there and keep it. It goes first.
        discard(generation: generation)
        return nil
    }

    private func loadVerified(generation: String, identifier: String, parsed: ParsedInputs, secret: ScriptSecret) -> ProtectionSet? {
        guard let manifestBytes = try? FileIO.read(path: generation + "/" + Self.manifestName),
            let root = try? JSONParser.parse(manifestBytes), case .object(let manifest) = root,
            manifest["format"] == .number(Double(Self.formatVersion)), manifest["identifier"] == .string(identifier),
            case .string(let handler)? = manifest["handler"], case .object(let files)? = manifest["files"],
            case .array(let listEntries)? = manifest["ruleLists"], case .array(let scriptEntries)? = manifest["scripts"]
        else { return nil }

        // Every file named in the manifest, its size and checksum verified.
        func verified(_ name: String) -> [UInt8]? {
            guard case .object(let entry)? = files[name], case .number(let size)? = entry["bytes"],
                case .string(let sha)? = entry["sha256"], !name.contains("/"),
                let bytes = try? FileIO.read(path: generation + "/" + name),
                Double(bytes.count) == size, SHA256.hexDigest(bytes) == sha
            else { return nil }
            return bytes
        }

        var lists: [EncodedRuleList] = []
        for case .object(let entry) in listEntries {
            guard case .string(let id)? = entry["identifier"], case .string(let kindName)? = entry["kind"],
                let kind = EncodedRuleList.Kind(rawValue: kindName), case .number(let rules)? = entry["rules"],
                let json = verified(id + ".json")
            else { return nil }
            var action: String?
            if case .string(let value)? = entry["clickToLoadAction"] { action = value }
            guard (kind == .clickToLoad) == (action != nil) else { return nil }
            lists.append(EncodedRuleList(identifier: id, kind: kind, json: json, ruleCount: Int(rules), clickToLoadAction: action))
        }
        guard lists.count == listEntries.count else { return nil }

        var scripts: [UserScript] = []
        for case .object(let entry) in scriptEntries {
            guard case .string(let name)? = entry["name"], case .array(let offsetValues)? = entry["secretOffsets"],
                let world = entry["world"].flatMap(Self.world), let stored = verified(name)
            else { return nil }
            let offsets = offsetValues.compactMap { value -> Int? in
                if case .number(let number) = value, number >= 0, number == number.rounded() { return Int(number) }
                return nil
            }
            // The marker must stand at every offset: the offsets belong to this file.
            guard !offsets.isEmpty, offsets.count == offsetValues.count,
                SecretOffsets.write(ScriptSecret.marker.value, into: stored, at: offsets) == stored,
                let source = SecretOffsets.write(secret.value, into: stored, at: offsets)
            else { return nil }
            scripts.append(UserScript(name: name, source: String(decoding: source, as: UTF8.self), world: world))
        }
        guard scripts.count == scriptEntries.count, !scripts.isEmpty,
            let engineBytes = verified(Self.engineName), let engine = try? RuleEngine(compiled: engineBytes)
        else { return nil }

        var notes: [String] = []
        if case .array(let values)? = manifest["notes"] {
            for case .string(let note) in values { notes.append(note) }
        }
        return ProtectionSet(
            identifier: identifier, ruleLists: lists, scripts: scripts, messageHandlerName: handler, secret: secret,
            resolver: parsed.resolver(), engine: engine, origin: .cache, notes: notes)
    }

    /// Writes a built set as the cache's new generation, whole or not at all.
    ///
    /// - Throws: ``ProtectionError/unwritable(_:)`` naming the file; the cache then still holds
    ///   the previous set.
    func store(_ artifacts: ProtectionSet.Artifacts) throws(ProtectionError) {
        let set = artifacts.set
        var files: [FileSet.File] = []
        var listEntries: [JSONValue] = []
        for list in set.ruleLists {
            files.append((list.identifier + ".json", list.json))
            var entry = JSONObject([
                ("identifier", .string(list.identifier)), ("kind", .string(list.kind.rawValue)),
                ("rules", .number(Double(list.ruleCount))),
            ])
            if let action = list.clickToLoadAction { entry.append("clickToLoadAction", .string(action)) }
            listEntries.append(.object(entry))
        }
        var scriptEntries: [JSONValue] = []
        for script in set.scripts {
            let offsets = artifacts.secretOffsets[script.name] ?? []
            guard let withMarker = SecretOffsets.write(ScriptSecret.marker.value, into: Array(script.source.utf8), at: offsets)
            else { continue }
            files.append((script.name, withMarker))
            scriptEntries.append(.object(JSONObject([
                ("name", .string(script.name)),
                ("world", script.world.name.map(JSONValue.string) ?? .null),
                ("secretOffsets", .array(offsets.map { .number(Double($0)) })),
            ])))
        }
        files.append((Self.engineName, artifacts.compiledEngine))
        let checksums = JSONObject(files.map { file in
            (file.name, .object(JSONObject([
                ("bytes", .number(Double(file.bytes.count))), ("sha256", .string(SHA256.hexDigest(file.bytes))),
            ])))
        })
        let manifest = JSONValue.object(JSONObject([
            ("format", .number(Double(Self.formatVersion))), ("identifier", .string(set.identifier)),
            ("sdk", .string(ProtectionSet.sdkVersion)), ("handler", .string(set.messageHandlerName)),
            ("ruleLists", .array(listEntries)), ("scripts", .array(scriptEntries)), ("files", .object(checksums)),
            ("notes", .array(set.notes.map(JSONValue.string))),
        ]))
        files.append((Self.manifestName, manifest.jsonBytes()))
        do throws(FileError) {
            try Self.createDirectory(directory)
            try FileSet.write(files, to: setPath)
        } catch {
            throw .unwritable(error)
        }
    }

    /// Removes a damaged generation and the link to it.
    private func discard(generation: String) {
        let manager = FileManager.default
        if generation != setPath { try? manager.removeItem(atPath: generation) }
        try? manager.removeItem(atPath: setPath)
    }

    /// The world stored for a script: null for the page world, else the isolated world's name.
    private static func world(_ value: JSONValue) -> ScriptWorld? {
        switch value {
        case .null: .page
        case .string(let name) where !name.isEmpty: .isolated(name: name)
        default: nil
        }
    }

    static func createDirectory(_ path: String) throws(FileError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw FileError(path: path, reason: "cannot create the directory: \(error.localizedDescription)")
        }
    }
}

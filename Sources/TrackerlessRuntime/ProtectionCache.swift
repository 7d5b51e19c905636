import Foundation
import NavigationProtections
import RuleEngineKit
import TrackerlessCore
import UserScripts

/// The cache directory of a runtime: the current set's artifacts, so that a relaunch with the
/// same inputs loads them instead of building them.
///
/// The set is one ``TrackerlessCore/FileSet`` at `<directory>/set`: a link to a generation
/// directory switched by one `rename(2)`, so a reader sees one complete write or the one
/// before, never a mix. The generation holds `contents.json`, the cache contents (the set
/// identity, its rule lists' identifiers, scripts and notes), one JSON file per rule list named
/// by its identifier, the two scripts with the marker
/// (`ScriptSecret.marker`) where the secret goes, `engine.bin`, the compiled
/// engine (checksummed again by its own format), and `engine.sources.json`, the input each engine
/// rule was built from (``ProtectionSet/ruleSource(list:rule:)``), and the file the contents'
/// `navigation` names, the set's ``ProtectionSet/navigationData``. The generation's name is a hash of every
/// file's name and contents (``TrackerlessCore/XXH64``, at memory speed); a load reads the
/// whole generation and checks it against that name (``TrackerlessCore/FileSet/verifiedFiles(of:)``),
/// so a set any of whose files was cut, altered, added or removed is not loaded (it is built
/// and written again): a damaged or cut cache is never trusted. The checksum guards against
/// damage, not against someone who can write the cache directory: such a person could change
/// the app's files as well. The sources file alone is not read at launch: the contents give its
/// size and XXH64, which the generation's name checks with everything else, and the file is read
/// and checked against them when a host first asks for a rule's source.
///
/// No secret is written: each load puts the runtime's own secret in place of the marker.
struct ProtectionCache: Sendable {
    /// The cache directory.
    let directory: String

    /// 3: the generation's name checks every file (XXH64), the sources file by the size and
    /// XXH64 the contents give (2 had no sources file).
    /// 4: the engine file's own checksum is XXH64 (compiled engine format 4), was FNV-1a.
    /// 5: `contents.json` with the set's `identity` (4 had `manifest.json` with `identifier`;
    /// a generation of 4 lacks the file, so it is discarded and the set built again), and the
    /// set's navigation data, in the file the contents' `navigation` names.
    static let formatVersion = 5
    private static let contentsName = "contents.json"
    private static let engineName = "engine.bin"
    static let sourcesName = "engine.sources.json"
    private static let navigationName = "navigation.json"

    /// The set's link.
    var setPath: String { directory + "/set" }

    /// What the cache holds.
    enum Lookup: Sendable {
        /// No set.
        case missing
        /// A set that fails a check: remove it (``discard(_:)``) before writing the same set again.
        case damaged(generation: String)
        /// A whole set, its secret still to put in.
        case intact(CachedSet)
    }

    /// A set read back whole, everything decoded but the secret.
    struct CachedSet: Sendable {
        let identity: String
        let handler: String
        let ruleLists: [EncodedRuleList]
        /// Each script with the marker where the secret goes.
        let scripts: [(name: String, world: ScriptWorld, stored: [UInt8], offsets: [Int])]
        let engine: RuleEngine
        let notes: [String]
        /// The sources file, read on first use.
        let ruleSources: EngineRuleSources
        /// The navigation data, as stored.
        let navigationData: [UInt8]
        /// The navigation data, decoded.
        let navigationProtectionData: NavigationProtectionData

        /// The set, carrying `secret`; nil when a script's offsets do not fit.
        func set(secret: ScriptSecret, inputs: DeferredInputs) -> ProtectionSet? {
            var userScripts: [UserScript] = []
            for script in scripts {
                guard let source = SecretOffsets.write(secret.value, into: script.stored, at: script.offsets) else { return nil }
                userScripts.append(UserScript(name: script.name, source: String(decoding: source, as: UTF8.self), world: script.world))
            }
            return ProtectionSet(
                identity: identity, ruleLists: ruleLists, scripts: userScripts, messageHandlerName: handler,
                secret: secret, inputs: inputs, engine: engine, origin: .cache, notes: notes,
                ruleSources: ruleSources, navigationData: navigationData, navigationProtectionData: navigationProtectionData)
        }
    }

    /// The set identity in the current generation's contents, read without checking the rest:
    /// to tell whether the cache may hold a set before reading all of it.
    func storedIdentity() -> String? {
        guard let bytes = try? FileIO.read(path: FileSet.generation(of: setPath) + "/" + Self.contentsName) else { return nil }
        return CacheContents(bytes: bytes)?.identity
    }

    /// Reads the current generation whole and checks it.
    func read() -> Lookup {
        let generation = FileSet.generation(of: setPath)
        guard FileManager.default.fileExists(atPath: generation) else { return .missing }
        // The contents read while checking (for the sources file's claim), decoded once.
        var contents: CacheContents?
        let verified = FileSet.verifiedFiles(of: setPath, deferring: [Self.sourcesName]) { files in
            contents = files[Self.contentsName].flatMap(CacheContents.init(bytes:))
            guard let sources = contents?.sources, let size = sources.bytes.flatMap({ Int(exactly: $0) }), let digest = sources.xxh64
            else { return [:] }
            return [Self.sourcesName: (size, digest)]
        }
        guard let verified, let cached = Self.decode(verified.files, contents: contents, generation: verified.generation) else {
            return .damaged(generation: generation)
        }
        return .intact(cached)
    }

    /// The set in verified files; nil when the contents do not describe them.
    private static func decode(_ files: [String: [UInt8]], contents: CacheContents?, generation: String) -> CachedSet? {
        guard let contents = contents ?? files[contentsName].flatMap(CacheContents.init(bytes:)),
            contents.format == Double(formatVersion), let identity = contents.identity, let handler = contents.handler,
            let listEntries = contents.ruleLists, let scriptEntries = contents.scripts,
            let sources = contents.sources, let sourcesSize = sources.bytes.flatMap({ Int(exactly: $0) }), let sourcesDigest = sources.xxh64
        else { return nil }

        var lists: [EncodedRuleList] = []
        for entry in listEntries {
            guard let entry, let id = entry.identifier, let kindName = entry.kind,
                let kind = EncodedRuleList.Kind(rawValue: kindName), let rules = entry.rules.flatMap({ Int(exactly: $0) }), rules >= 0,
                !id.contains("/"), let json = files[id + ".json"]
            else { return nil }
            // A Click-to-Load list names its action; no other list does.
            guard (kind == .clickToLoad) == (entry.clickToLoadAction != nil) else { return nil }
            lists.append(EncodedRuleList(
                identifier: id, kind: kind, json: json, ruleCount: rules, clickToLoadAction: entry.clickToLoadAction))
        }

        var scripts: [(name: String, world: ScriptWorld, stored: [UInt8], offsets: [Int])] = []
        for entry in scriptEntries {
            guard let entry, let name = entry.name, let offsets = entry.secretOffsets, let world = entry.world,
                let stored = files[name]
            else { return nil }
            // The marker must stand at every offset: the offsets belong to this file.
            guard !offsets.isEmpty, SecretOffsets.write(ScriptSecret.marker.value, into: stored, at: offsets) == stored
            else { return nil }
            scripts.append((name, world, stored, offsets))
        }
        guard !scripts.isEmpty, let engineBytes = files[engineName], let engine = try? RuleEngine(compiled: engineBytes)
        else { return nil }
        // Data that passed its checksum and does not decode is a parser changed without the
        // cache's format: the generation is damaged and built again, never read by the inputs.
        guard let navigationName = contents.navigation, !navigationName.contains("/"), let navigationData = files[navigationName],
            let navigationProtectionData = try? NavigationProtectionData(parsing: navigationData)
        else { return nil }

        let notes = contents.notes
        let ruleSources = EngineRuleSources(.stored(path: generation + "/" + sourcesName, claim: (sourcesSize, sourcesDigest)))
        return CachedSet(
            identity: identity, handler: handler, ruleLists: lists, scripts: scripts, engine: engine, notes: notes,
            ruleSources: ruleSources, navigationData: navigationData, navigationProtectionData: navigationProtectionData)
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
        files.append((Self.engineName, set.engine.compiled()))
        let sources = set.ruleSources.encoded() ?? Array("[]".utf8)
        files.append((Self.sourcesName, sources))
        files.append((Self.navigationName, set.navigationData))
        let contents = JSONValue.object(JSONObject([
            ("format", .number(Double(Self.formatVersion))), ("identity", .string(set.identity)),
            ("sdk", .string(ProtectionSet.sdkVersion)), ("handler", .string(set.messageHandlerName)),
            ("ruleLists", .array(listEntries)), ("scripts", .array(scriptEntries)),
            ("notes", .array(set.notes.map(JSONValue.string))), ("navigation", .string(Self.navigationName)),
            ("sources", .object(JSONObject([
                ("bytes", .number(Double(sources.count))), ("xxh64", .string(XXH64.hexDigest(sources))),
            ]))),
        ]))
        files.append((Self.contentsName, contents.jsonBytes()))
        do throws(FileError) {
            try Self.createDirectory(directory)
            try FileSet.write(files, to: setPath)
        } catch {
            throw .unwritable(error)
        }
    }

    /// Removes a damaged generation and the link to it: the generation's name is the hash of
    /// what it should hold, so a write of the same set would find the directory there and keep it.
    ///
    /// Only a generation this cache wrote is removed: resolved, a direct child of the cache
    /// directory named `.set.<16 hex digits>`. A link that points anywhere else (restored by a
    /// backup tool, a cache moved) is removed, never what it points to.
    func discard(generation: String) {
        let manager = FileManager.default
        if generation != setPath, isOwnGeneration(generation) { try? manager.removeItem(atPath: generation) }
        try? manager.removeItem(atPath: setPath)
    }

    /// Whether `generation` (resolved) is a generation directory of this cache.
    func isOwnGeneration(_ generation: String) -> Bool {
        let resolvedDirectory = FileSet.generation(of: directory)
        let parent = (generation as NSString).deletingLastPathComponent
        let name = (generation as NSString).lastPathComponent
        let prefix = ".set."
        guard parent == resolvedDirectory, name.hasPrefix(prefix) else { return false }
        let hash = name.dropFirst(prefix.count)
        return hash.count == 16 && hash.allSatisfy { $0.isHexDigit && ($0.isNumber || $0.isLowercase) }
    }

    /// Refuses an empty path: the cache's files would go to `/set`, `/.set.…` and the like.
    static func checkDirectoryPath(_ path: String) throws(ProtectionError) {
        guard path.isEmpty else { return }
        throw .unwritable(FileError(path: "the cache directory", reason: "the path is empty; give a directory"))
    }

    static func createDirectory(_ path: String) throws(FileError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw FileError(path: path, reason: "cannot create the directory: \(error.localizedDescription)")
        }
    }
}

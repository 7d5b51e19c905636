import TrackerlessCore

/// What a cache generation's `contents.json` says (see ``ProtectionCache``), read in one pass: the
/// cache contents, which only the runtime reads (the manifest is what `trackerless scripts` writes).
///
/// A member's last occurrence counts, as a lookup in `JSON.parse`'s result finds it; a member
/// that is absent or of the wrong type is nil, and the cache then does not trust the generation.
struct CacheContents {
    /// A file's size and checksum.
    struct File {
        var bytes: Double?
        var xxh64: String?
    }

    /// A rule list's entry.
    struct RuleList {
        /// The rule list identifier (``EncodedRuleList/identifier``).
        var identifier: String?
        var kind: String?
        var rules: Double?
        /// A Click-to-Load list's action (`block-ctl-fb`).
        var clickToLoadAction: String?
    }

    /// A script's entry.
    struct Script {
        var name: String?
        /// nil when not an array, or when an element is not a whole number from 0.
        var secretOffsets: [Int]?
        /// nil when absent, or neither null nor a non-empty string.
        var world: ScriptWorld?
    }

    var format: Double?
    /// The set identity (``ProtectionSet/identity``).
    var identity: String?
    var handler: String?
    /// nil elements: entries that are not objects.
    var ruleLists: [RuleList?]?
    var scripts: [Script?]?
    /// The sources file's size and XXH64 (`{"bytes": …, "xxh64": …}`); nil when absent or not an object.
    var sources: File?
    /// The name of the navigation data's file; nil when absent or not a string.
    var navigation: String?
    /// The strings of `notes`; empty when it is absent or not an array.
    var notes: [String] = []

    /// The contents in `bytes`; nil when they are not JSON or not an object.
    init?(bytes: [UInt8]) {
        let contents = try? JSONReader.read(bytes) { (reader) throws(JSONReadError) -> CacheContents? in
            try Self.read(&reader)
        }
        guard let contents = contents ?? nil else { return nil }
        self = contents
    }

    private init() {}

    private static func read(_ reader: inout JSONReader) throws(JSONReadError) -> CacheContents? {
        guard var members = try reader.enterObjectIfPresent() else { return nil }
        var contents = CacheContents()
        while let key = try reader.nextKey(in: &members) {
            switch key {
            case "format": contents.format = try reader.readDoubleIfPresent()
            case "identity": contents.identity = try reader.readStringIfPresent()
            case "handler": contents.handler = try reader.readStringIfPresent()
            case "ruleLists": contents.ruleLists = try array(&reader, ruleList)
            case "scripts": contents.scripts = try array(&reader, script)
            case "sources": contents.sources = try file(&reader)
            case "navigation": contents.navigation = try reader.readStringIfPresent()
            case "notes":
                contents.notes = []
                guard var elements = try reader.enterArrayIfPresent() else { continue }
                while try reader.nextElement(in: &elements) {
                    if let note = try reader.readStringIfPresent() { contents.notes.append(note) }
                }
            default: try reader.skipValue()
            }
        }
        return contents
    }

    /// The array that comes next, each element read by `element`; nil after skipping another value.
    private static func array<Element>(
        _ reader: inout JSONReader, _ element: (inout JSONReader) throws(JSONReadError) -> Element?
    ) throws(JSONReadError) -> [Element?]? {
        guard var position = try reader.enterArrayIfPresent() else { return nil }
        var elements: [Element?] = []
        while try reader.nextElement(in: &position) {
            elements.append(try element(&reader))
        }
        return elements
    }

    private static func file(_ reader: inout JSONReader) throws(JSONReadError) -> File? {
        guard var members = try reader.enterObjectIfPresent() else { return nil }
        var file = File()
        while let key = try reader.nextKey(in: &members) {
            switch key {
            case "bytes": file.bytes = try reader.readDoubleIfPresent()
            case "xxh64": file.xxh64 = try reader.readStringIfPresent()
            default: try reader.skipValue()
            }
        }
        return file
    }

    private static func ruleList(_ reader: inout JSONReader) throws(JSONReadError) -> RuleList? {
        guard var members = try reader.enterObjectIfPresent() else { return nil }
        var list = RuleList()
        while let key = try reader.nextKey(in: &members) {
            switch key {
            case "identifier": list.identifier = try reader.readStringIfPresent()
            case "kind": list.kind = try reader.readStringIfPresent()
            case "rules": list.rules = try reader.readDoubleIfPresent()
            case "clickToLoadAction": list.clickToLoadAction = try reader.readStringIfPresent()
            default: try reader.skipValue()
            }
        }
        return list
    }

    private static func script(_ reader: inout JSONReader) throws(JSONReadError) -> Script? {
        guard var members = try reader.enterObjectIfPresent() else { return nil }
        var script = Script()
        while let key = try reader.nextKey(in: &members) {
            switch key {
            case "name": script.name = try reader.readStringIfPresent()
            case "secretOffsets":
                let offsets = try array(&reader) { (reader) throws(JSONReadError) -> Int? in
                    guard let number = try reader.readDoubleIfPresent(), number >= 0, let offset = Int(exactly: number) else {
                        return nil
                    }
                    return offset
                }
                script.secretOffsets = offsets.flatMap { offsets in
                    offsets.allSatisfy { $0 != nil } ? offsets.compactMap { $0 } : nil
                }
            case "world":
                // null for the page world, else the isolated world's name.
                switch try reader.nextKind() {
                case .null:
                    _ = try reader.skipNull()
                    script.world = .page
                case .string:
                    let name = try reader.readString(at: .root)
                    script.world = name.isEmpty ? nil : .isolated(name: name)
                default:
                    try reader.skipValue()
                    script.world = nil
                }
            default: try reader.skipValue()
            }
        }
        return script
    }
}

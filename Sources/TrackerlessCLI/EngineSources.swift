import Foundation
import TrackerlessCore

/// The sources of a compiled engine's rules, list by list: what `trackerless compile` writes
/// beside the engine (`ENGINE.sources.json`) when the lists it compiles have sources beside them
/// (`trackerless rules --sources`), so that `decide --rules ENGINE --explain` names them too.
///
/// The file is `{"engineSHA256": "…", "lists": [[source, …] or null, …]}`: one entry per list of
/// the engine, null for a list without sources, tied to the engine's bytes by their SHA-256 so
/// that a file left from another compile is refused rather than believed.
enum EngineSources {
    /// `engine.tle.sources.json` for `engine.tle`.
    static func path(beside enginePath: String) -> String {
        RulesCommand.sourcesPath(beside: enginePath)
    }

    /// The file for `engine`'s bytes and the sources of its lists, in the engine's order.
    static func encoded(_ lists: [[JSONValue]?], engine: [UInt8]) -> [UInt8] {
        let value = JSONValue.object(JSONObject([
            ("engineSHA256", .string(SHA256.hexDigest(engine))),
            ("lists", .array(lists.map { $0.map(JSONValue.array) ?? .null })),
        ]))
        return Array(value.jsonString().utf8) + [0x0A]
    }

    /// Writes the sources of the lists compiled into `engine` beside `enginePath` when any has
    /// some, and removes a file left there by an earlier compile when none has.
    static func write(_ lists: [[JSONValue]?], engine: [UInt8], beside enginePath: String) throws(InputError) {
        let sourcesPath = path(beside: enginePath)
        guard lists.contains(where: { $0 != nil }) else {
            if FileManager.default.fileExists(atPath: sourcesPath) {
                do {
                    try FileManager.default.removeItem(atPath: sourcesPath)
                } catch {
                    throw InputError("\(sourcesPath): left from an earlier compile and cannot be removed: \(error.localizedDescription)")
                }
            }
            return
        }
        do throws(FileError) {
            try OutputFile.write(encoded(lists, engine: engine), to: sourcesPath)
        } catch {
            throw InputError("\(error)")
        }
    }

    /// The sources of each of the `listCount` lists of the engine whose bytes are `engine`, read
    /// from beside `enginePath`; nil when there is no such file.
    ///
    /// - Throws: ``InputError`` naming the file when it is not JSON of the shape above, has
    ///   another number of lists, or was written for other engine bytes.
    static func read(beside enginePath: String, engine: [UInt8], listCount: Int) throws(InputError) -> [[JSONValue]?]? {
        let sourcesPath = path(beside: enginePath)
        guard FileManager.default.fileExists(atPath: sourcesPath) else { return nil }
        guard case .object(let members) = try AppliedRuleDetails.jsonValue(atPath: sourcesPath), case .string(let digest)? = members["engineSHA256"],
              case .array(let lists)? = members["lists"]
        else {
            throw InputError("\(sourcesPath): not an object with \"engineSHA256\" and \"lists\"")
        }
        guard digest == SHA256.hexDigest(engine) else {
            throw InputError("\(sourcesPath): written for another compile of \(enginePath) (engineSHA256 differs)\n"
                + RuleInputs.recompileHint(enginePath))
        }
        guard lists.count == listCount else {
            throw InputError("\(sourcesPath): \(lists.count) lists, and \(enginePath) holds \(listCount)")
        }
        var sources: [[JSONValue]?] = []
        for (index, list) in lists.enumerated() {
            switch list {
            case .null: sources.append(nil)
            case .array(let elements): sources.append(elements)
            default: throw InputError("\(sourcesPath): lists[\(index)]: expected an array or null")
            }
        }
        return sources
    }
}

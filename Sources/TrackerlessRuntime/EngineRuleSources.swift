import Foundation
import RuleBuilder
import TrackerlessCore

/// The input each rule of a set's engine was built from (``RuleBuilder/RuleSource``), list by
/// list in the engine's order: what ``ProtectionSet/ruleSource(list:rule:)`` answers.
///
/// A built set keeps the build's sources in memory. A set from the cache keeps only where its
/// sources file is and what the cache contents say of it (size and XXH64): the file is read, checked
/// against that and decoded on the first question, so a launch from the cache pays nothing for
/// it. A file that went missing or fails its check answers nil, never a wrong rule's source, and
/// is removed: the next launch then finds its generation incomplete and builds it again.
final class EngineRuleSources: Sendable {
    /// Where the sources are.
    enum Storage: Sendable {
        /// None known.
        case none
        /// The build's, one array per engine list (empty for a list without sources).
        case built([[RuleSource]])
        /// The sources file of a cache generation, to check against `claim` when first read.
        case stored(path: String, claim: FileSet.Claim)
    }

    let storage: Storage
    private let decoded = OnceValue<[[JSONValue]]>()

    init(_ storage: Storage) { self.storage = storage }

    /// The source of rule `rule` of engine list `list`, as `RuleSource.jsonValue()` writes it;
    /// nil when unknown or out of range.
    func source(list: Int, rule: Int) -> JSONValue? {
        guard list >= 0, rule >= 0 else { return nil }
        switch storage {
        case .none:
            return nil
        case .built(let lists):
            guard list < lists.count, rule < lists[list].count else { return nil }
            return lists[list][rule].jsonValue()
        case .stored(let path, let claim):
            let lists = decoded.get {
                if let bytes = FileSet.verifiedFile(at: path, claim: claim), let lists = Self.decode(bytes) { return lists }
                // Damaged or gone: removed, so that the next launch finds the generation
                // incomplete and builds it again (a missing file is removed to no effect).
                try? FileManager.default.removeItem(atPath: path)
                return []
            }
            guard list < lists.count, rule < lists[list].count else { return nil }
            return lists[list][rule]
        }
    }

    /// The file the cache stores: `[[source, …], …]`, one array per engine list. Nil for stored
    /// sources (the cache stores only built sets).
    func encoded() -> [UInt8]? {
        switch storage {
        case .none: return Array("[]".utf8)
        case .built(let lists): return JSONValue.array(lists.map { .array($0.map { $0.jsonValue() }) }).jsonBytes()
        case .stored: return nil
        }
    }

    /// The lists of a sources file; nil when it is not an array of arrays.
    static func decode(_ bytes: [UInt8]) -> [[JSONValue]]? {
        let value = try? JSONReader.read(bytes) { (reader) throws(JSONReadError) -> JSONValue in try reader.readValue() }
        guard case .array(let lists)? = value else { return nil }
        var decoded: [[JSONValue]] = []
        for list in lists {
            guard case .array(let sources) = list else { return nil }
            decoded.append(sources)
        }
        return decoded
    }
}

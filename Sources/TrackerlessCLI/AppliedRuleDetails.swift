import ContentRuleList
import Foundation
import TrackerlessCore

/// What `trackerless decide --explain` adds to each applied action: the file of its list, the
/// rule's JSON, and the input the rule was built from when `trackerless rules --sources` wrote it
/// beside the list (or `trackerless compile` beside the engine: ``EngineSources``).
struct AppliedRuleDetails {
    /// One list of the `--rules` files, in the order the engines number them.
    struct ListDetails {
        /// The file the list was read from.
        var path: String
        /// The list's rules; nil for a list inside a compiled engine, which keeps no rule text.
        var rules: [ContentRule]?
        /// The source of each rule, from `<list>.sources.json` beside a JSON list or
        /// `<engine>.sources.json` beside a compiled engine; nil without it.
        var sources: [JSONValue]?
    }

    let lists: [ListDetails]

    /// The details of every list of `inputs`; compiled engines count one entry per list they hold.
    ///
    /// - Throws: ``InputError`` for a sources file that is not a JSON array as long as its list,
    ///   or an engine's that ``EngineSources/read(beside:engine:listCount:)`` refuses.
    init(_ inputs: RuleInputs) throws(InputError) {
        var lists: [ListDetails] = []
        for file in inputs.files {
            switch file {
            case .ruleList(let list, let path):
                lists.append(ListDetails(path: path, rules: list.rules, sources: try Self.sources(beside: path, count: list.rules.count)))
            case .engine(let engine, let path):
                let bytes: [UInt8]
                do throws(FileError) {
                    bytes = try FileIO.read(path: path)
                } catch {
                    throw InputError("\(error)")
                }
                let sources = try EngineSources.read(beside: path, engine: bytes, listCount: engine.ruleListCount)
                lists += (0..<engine.ruleListCount).map { ListDetails(path: path, rules: nil, sources: sources?[$0]) }
            }
        }
        self.lists = lists
    }

    /// The sources file `trackerless rules --sources` wrote beside `path`, or nil when there is none.
    static func sources(beside path: String, count: Int) throws(InputError) -> [JSONValue]? {
        let sourcesPath = RulesCommand.sourcesPath(beside: path)
        guard FileManager.default.fileExists(atPath: sourcesPath) else { return nil }
        guard case .array(let sources) = try jsonValue(atPath: sourcesPath), sources.count == count else {
            throw InputError("\(sourcesPath): not a JSON array of one source per rule of \(path) (\(count) rules)")
        }
        return sources
    }

    /// The JSON of the file at `path`.
    ///
    /// - Throws: ``InputError`` naming the file when it cannot be read or is not JSON.
    static func jsonValue(atPath path: String) throws(InputError) -> JSONValue {
        do {
            let bytes = try FileIO.read(path: path)
            return try JSONReader.read(bytes) { (reader) throws(JSONReadError) -> JSONValue in try reader.readValue() }
        } catch {
            throw InputError("\(path): \(error)")
        }
    }

    /// `actions.jsonValue()` with, for each action that names its rule, `"file"`, `"ruleJSON"`
    /// (the rule as its list has it) and `"source"` where known.
    func jsonValue(_ actions: AppliedActions) -> JSONValue {
        let answer = actions.jsonValue()
        guard case .object(let members) = answer, case .array(let applied)? = members["actions"] else { return answer }
        let explained = applied.map { action -> JSONValue in
            guard case .object(var object) = action, case .number(let list)? = object["list"],
                case .number(let rule)? = object["rule"], let listIndex = Int(exactly: list), let ruleIndex = Int(exactly: rule),
                listIndex >= 0, listIndex < lists.count, ruleIndex >= 0
            else { return action }
            let details = lists[listIndex]
            object.append("file", .string(details.path))
            if let rules = details.rules, ruleIndex < rules.count, let json = Self.json(of: rules[ruleIndex]) {
                object.append("ruleJSON", json)
            }
            if let sources = details.sources, ruleIndex < sources.count { object.append("source", sources[ruleIndex]) }
            return .object(object)
        }
        return .object(JSONObject([("blocked", .bool(actions.isBlocked)), ("actions", .array(explained))]))
    }

    /// The rule as WebKit reads it: its list's encoding of that one rule.
    private static func json(of rule: ContentRule) -> JSONValue? {
        let encoded = RuleList([rule]).encoded()
        guard let value = try? JSONReader.read(encoded, { (reader) throws(JSONReadError) -> JSONValue in try reader.readValue() }),
            case .array(let rules) = value
        else { return nil }
        return rules.first
    }
}

import TrackerlessCore

/// The `{"rules": [...]}` entries of the privacy configuration's tracker allowlist and request
/// blocklist, read the same way: an entry that is not an object whose (last) `rules` is an array
/// is dropped, and each rule is read by its list, which drops it with a warning or keeps it.
enum SettingsEntryRules {
    /// The rules of the entry that comes next, with the warnings of those dropped; nil when it is
    /// not an object whose last `rules` member is an array. `rule` reads the rule that comes next
    /// at the given path, appending a warning when it drops it.
    static func read<Rule>(
        _ reader: inout JSONReader, at entryPath: JSONPath,
        rule: (inout JSONReader, JSONPath, inout [InputWarning]) throws(JSONReadError) -> Rule?
    ) throws(JSONReadError) -> ([Rule], [InputWarning])? {
        guard var members = try reader.enterObjectIfPresent() else { return nil }
        var result: ([Rule], [InputWarning])?
        while let key = try reader.nextKey(in: &members) {
            guard "rules" ~= key else {
                try reader.skipValue()
                continue
            }
            result = nil
            guard var elements = try reader.enterArrayIfPresent() else { continue }
            var rules: [Rule] = []
            var warnings: [InputWarning] = []
            var index = 0
            while try reader.nextElement(in: &elements) {
                if let read = try rule(&reader, entryPath.appending(key: "rules").appending(index: index), &warnings) {
                    rules.append(read)
                }
                index += 1
            }
            result = (rules, warnings)
        }
        return result
    }
}

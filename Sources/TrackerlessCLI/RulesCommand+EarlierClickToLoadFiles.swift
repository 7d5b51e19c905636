import Foundation
import TrackerlessCore

extension RulesCommand {
    /// Removes the Click-to-Load lists (and their sources) that an earlier run wrote beside
    /// `--output FILE` and this run did not: an action the blocklist no longer has, or a second
    /// list of an action that now fits in one. A host that installs every
    /// `FILE-stem.block-ctl-*` file beside FILE would otherwise keep blocking with rules the
    /// blocklist dropped. Only names this command gives (``clickToLoadPath(beside:fileName:)``
    /// and ``sourcesPath(beside:)`` of a Click-to-Load file name) are touched, and only regular
    /// files and links (never what a link points to). The paths removed, sorted.
    static func removeEarlierClickToLoadFiles(beside output: String, keeping written: Set<String>) throws(FileError) -> [String] {
        let url = URL(fileURLWithPath: output)
        let directory = url.deletingLastPathComponent().path
        let prefix = url.deletingPathExtension().lastPathComponent + ".block-ctl-"
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw FileError(path: directory, reason: "listing the directory of --output for earlier Click-to-Load lists failed")
        }
        var removed: [String] = []
        for name in names.sorted() where name.hasPrefix(prefix) {
            let path = URL(fileURLWithPath: directory).appendingPathComponent(name).path
            guard !written.contains(path), isEarlierClickToLoadFile(path, beside: output) else { continue }
            if try OutputFile.removeEarlierFile(at: path, what: "an earlier Click-to-Load list") {
                removed.append(path)
            }
        }
        return removed
    }

    /// Whether `path` is the name a Click-to-Load list beside `output`, or its sources, would have.
    static func isEarlierClickToLoadFile(_ path: String, beside output: String) -> Bool {
        let url = URL(fileURLWithPath: output)
        let stem = url.deletingPathExtension().lastPathComponent
        let suffix = url.pathExtension.isEmpty ? "" : "." + url.pathExtension
        let name = URL(fileURLWithPath: path).lastPathComponent
        guard name.hasPrefix(stem + ".") else { return false }
        let rest = String(name.dropFirst(stem.count + 1))
        // The list's own name (stem.part.suffix), or its sources' (by sourcesPath, from the list's).
        var parts: [String] = []
        if rest.hasSuffix(suffix) { parts.append(String(rest.dropLast(suffix.count))) }
        if rest.hasSuffix(".sources.json") {
            let listRest = String(rest.dropLast(".sources.json".count))
            parts.append(listRest)
            if listRest.hasSuffix(suffix) { parts.append(String(listRest.dropLast(suffix.count))) }
        }
        for part in parts where part.hasPrefix("block-ctl-") && isRuleListFileName("rules.\(part).json") {
            let list = clickToLoadPath(beside: output, fileName: "rules.\(part).json")
            if URL(fileURLWithPath: list).lastPathComponent == name
                || URL(fileURLWithPath: sourcesPath(beside: list)).lastPathComponent == name
            {
                return true
            }
        }
        return false
    }
}

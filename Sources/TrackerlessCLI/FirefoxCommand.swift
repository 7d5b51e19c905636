import DisconnectLists
import Foundation
import TrackerlessCore

/// `trackerless firefox`: Disconnect's lists to Firefox for iOS's content-blocker lists.
enum FirefoxCommand {
    static let help = """
    Usage: trackerless firefox --lists PATH [--entities FILE] [--output DIR] [--level standard|strict]

    Builds the ten WebKit rule lists of Firefox for iOS's tracking protection, named as Firefox
    names them (disconnect-block-advertising.json, disconnect-block-cookies-analytics.json, ...),
    with Firefox's faults fixed: right-anchored url-filters, owners found by parent domain, sorted
    and deterministic output, empty categories kept.
      --lists PATH      the normalized shavar lists (a directory holding ads-track-digest256.json
                        and the others, directly or in normalized-lists/), or disconnect-blacklist.json
                        (or a directory holding it)
      --entities FILE   disconnect-entitylist.json (default: the one beside the lists)
      --output DIR      write the ten lists into DIR (created if needed), each file atomically
      --level L         print the files of protection level L (standard or strict) in the order
                        Firefox compiles them, one per line
    At least one of --output and --level is needed.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try CommandLineArguments(arguments, valueOptions: ["lists", "entities", "output", "level"])
        if options.has("help") {
            Output.standardOutput(help)
            return 0
        }
        guard options.positionals.isEmpty else { throw UsageError("unexpected argument \"\(options.positionals[0])\"") }
        guard let lists = options["lists"] else { throw UsageError("firefox needs --lists PATH") }
        var level: ProtectionLevel?
        if let name = options["level"] {
            guard let parsed = ProtectionLevel(rawValue: name) else {
                throw UsageError("--level must be standard or strict, not \"\(name)\"")
            }
            level = parsed
        }
        let output = options["output"]
        guard output != nil || level != nil else { throw UsageError("firefox needs --output DIR, --level L or both") }

        let inputs = try FirefoxListInputs(lists: lists, entities: options["entities"])
        let builder = FirefoxRuleListBuilder(categoryLists: inputs.categoryLists, entityList: inputs.entityList)
        if let output {
            do {
                try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
            } catch {
                throw InputError("\(output): cannot create the directory")
            }
            for (blocklist, ruleList) in builder.ruleLists() {
                let bytes = ruleList.encoded()
                try FileIO.writeAtomically(bytes, to: (output as NSString).appendingPathComponent(blocklist.fileName))
                Output.standardError("\(blocklist.fileName): \(ruleList.rules.count) rules, \(bytes.count) bytes")
            }
        }
        if let level {
            for blocklist in level.blocklists {
                Output.standardOutput(output.map { ($0 as NSString).appendingPathComponent(blocklist.fileName) } ?? blocklist.fileName)
            }
        }
        return 0
    }
}

import DisconnectLists
import Foundation
import TrackerlessCore

/// `trackerless firefox`: Disconnect's lists to Firefox for iOS's content-blocker lists.
enum FirefoxCommand {
    static let help = """
    Usage: trackerless firefox --lists PATH [--entities FILE] [--output DIR] [--level standard|strict]
                               [--webkit TARGET]

    Builds the ten WebKit rule lists of Firefox for iOS's tracking protection, named as Firefox
    names them (disconnect-block-advertising.json, disconnect-block-cookies-analytics.json, ...),
    with Firefox's faults fixed: right-anchored url-filters, owners found by parent domain, sorted
    and deterministic output, empty categories kept.
      --lists PATH      the normalized shavar lists (a directory holding ads-track-digest256.json
                        and the others, directly or in normalized-lists/), or disconnect-blacklist.json
                        (or a directory holding it)
      --entities FILE   disconnect-entitylist.json (default: the one beside the lists)
      --output DIR      write the ten lists as one generation: DIR is a symbolic link to
                        .DIR.<content hash>/, switched by one rename; resolve DIR once (realpath)
                        and read all ten from the resolved directory, so that they come from one run.
                        Each list is first checked with the validator `validate` runs: one that
                        WebKit would refuse is an error naming it and the rule, and nothing is written
      --level L         print the files of protection level L (standard or strict) in the order
                        Firefox compiles them, one per line
    \(WebKitOption.help)
    At least one of --output and --level is needed.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try CommandLineArguments(arguments, valueOptions: ["lists", "entities", "output", "level", "webkit"])
        if options.has("help") {
            Output.standardOutput(help)
            return 0
        }
        guard options.positionals.isEmpty else { throw UsageError("unexpected argument \"\(options.positionals[0].excerpt())\"") }
        guard let lists = options["lists"] else { throw UsageError("firefox needs --lists PATH") }
        var level: ProtectionLevel?
        if let name = options["level"] {
            guard let parsed = ProtectionLevel(rawValue: name) else {
                throw UsageError("--level must be standard or strict, not \"\(name.excerpt())\"")
            }
            level = parsed
        }
        let output = options["output"]
        guard output != nil || level != nil else { throw UsageError("firefox needs --output DIR, --level L or both") }

        let inputs = try FirefoxListInputs(lists: lists, entities: options["entities"])
        let target = try WebKitOption.target(options)
        let builder = FirefoxRuleListBuilder(categoryLists: inputs.categoryLists, entityList: inputs.entityList, target: target)
        if let output {
            let lists = builder.ruleLists()
            try RulesCommand.checkValid(target: target, lists.map { (name: $0.blocklist.fileName, list: $0.ruleList) })
            let parent = (output.hasSuffix("/") ? String(output.dropLast()) : output) as NSString
            do {
                try FileManager.default.createDirectory(atPath: parent.deletingLastPathComponent.isEmpty ? "." : parent.deletingLastPathComponent,
                                                        withIntermediateDirectories: true)
            } catch {
                throw InputError("\(output): cannot create the directory it goes in")
            }
            let files = lists.map { (name: $0.blocklist.fileName, bytes: $0.ruleList.encoded()) }
            try FileSet.write(files, to: output, isOwnFile: Set(files.map(\.name)).contains)
            for (list, file) in zip(lists, files) {
                Output.standardError("\(file.name): \(list.ruleList.rules.count) rules, \(file.bytes.count) bytes")
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

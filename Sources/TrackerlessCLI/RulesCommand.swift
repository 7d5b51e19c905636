import ContentRuleList
import RuleBuilder
import TrackerData
import TrackerlessCore

/// `trackerless rules`: Tracker Radar data and a privacy configuration to WebKit rule list JSON.
enum RulesCommand {
    static let help = """
    Usage: trackerless rules [--tds FILE] [--privacy-config FILE] [--allowlist FILE] [--output FILE]
                             [--site-conditions if-top-url|if-domain] [--exact-path-matches]
                             [--max-rules N] [--report]

    Builds the WebKit content-blocker rule list whose meaning is the Tracker Radar resolver's.
      --tds FILE              Tracker Radar blocklist (tds.json); without it, the bundled sample
      --privacy-config FILE   DuckDuckGo privacy configuration (unprotected sites, allowlists, request blocklist)
      --allowlist FILE        user allowlist: a JSON array of sites where protection is off
      --output FILE           write the list here (atomically) instead of standard output; when the
                              rules need several lists, the others go to FILE.2.json, FILE.3.json, ...
      --site-conditions S     how page conditions are written: if-top-url (anchored, exact; default)
                              or if-domain (WebKit's own form, unanchored)
      --exact-path-matches    also match a rule's text where it appears in the path or query of a
                              tracker URL, as the resolver does (exact; about doubles WebKit's compile time)
      --max-rules N           most rules per list (default and maximum 150000)
      --report                print what was left out or approximated to standard error
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try CommandLineArguments(
            arguments,
            valueOptions: BlocklistInputs.optionNames.union(["output", "site-conditions", "max-rules"]),
            flagOptions: ["exact-path-matches", "report"]
        )
        if options.has("help") {
            Output.standardOutput(help)
            return 0
        }
        guard options.positionals.isEmpty else { throw UsageError("unexpected argument \"\(options.positionals[0])\"") }
        let builder = try makeBuilder(options)
        let build = builder.build()
        try write(build.ruleLists, to: options["output"])
        let report = build.report
        if options.has("report") {
            for note in report.skippedRules { Output.standardError("skipped: \(note)") }
            for note in report.approximations { Output.standardError("approximated: \(note)") }
        }
        if options["output"] != nil || options.has("report") {
            Output.standardError(
                "\(build.ruleCount) rules in \(build.ruleLists.count) list(s) for \(report.trackerCount) trackers; "
                    + "\(report.skippedRules.count) input rules skipped, \(report.approximations.count) approximated"
                    + (options.has("report") ? "" : " (--report lists them)"))
        }
        return 0
    }

    static func makeBuilder(_ options: CommandLineArguments) throws -> RuleListBuilder {
        let inputs = try BlocklistInputs(options)
        var settings = RuleListBuilder.Settings()
        if let style = options["site-conditions"] {
            guard let parsed = RuleListBuilder.Settings.SiteConditionStyle(rawValue: style) else {
                throw UsageError("--site-conditions must be if-top-url or if-domain, not \"\(style)\"")
            }
            settings.siteConditionStyle = parsed
        }
        settings.matchesRuleTextAfterHost = options.has("exact-path-matches")
        if let text = options["max-rules"] {
            guard let maximum = Int(text), maximum > 0, maximum <= RuleList.maximumRuleCount else {
                throw UsageError("--max-rules must be a number from 1 to \(RuleList.maximumRuleCount), not \"\(text)\"")
            }
            settings.maximumRulesPerList = maximum
        }
        return RuleListBuilder(trackerData: inputs.trackerData, configuration: inputs.configuration,
                               userAllowlist: inputs.userAllowlist, settings: settings)
    }

    /// Writes each list whole or not at all.
    static func write(_ lists: [RuleList], to output: String?) throws {
        guard let output else {
            guard lists.count == 1, let list = lists.first else {
                throw InputError("the rules need \(lists.count) lists; give --output FILE to write them all")
            }
            Output.write(list.encoded() + [0x0A])
            return
        }
        for (index, list) in lists.enumerated() {
            try FileIO.writeAtomically(list.encoded(), to: index == 0 ? output : numberedPath(output, index + 1))
        }
    }

    /// `rules.json` -> `rules.2.json`.
    static func numberedPath(_ path: String, _ number: Int) -> String {
        if path.hasSuffix(".json") { return String(path.dropLast(5)) + ".\(number).json" }
        return path + ".\(number)"
    }
}

import ContentRuleList
import Foundation
import RuleBuilder
import TrackerDataKit
import TrackerlessCore
import TrackerlessRuntime

/// `trackerless cookies`: the `block-cookies` rule list of third-party tracking-cookie protection.
enum CookiesCommand {
    static let help = """
    Usage: trackerless cookies [--tds FILE] [--privacy-config FILE] [--allowlist FILE] [--output FILE|DIR/]
                               [--site-conditions if-top-url|if-domain] [--max-rules N] [--max-bytes N] [--webkit TARGET]

    Builds the WebKit rule list of DuckDuckGo's third-party tracking-cookie protection: block-cookies
    on the loads whose cookies the protection strips (a tracker, found directly or through a CNAME,
    not first party by site or company, not in excludedCookieDomains, on a site where the
    privacy configuration's cookie feature is on). WebKit then sends them no Cookie and stores
    none of their Set-Cookie. Install it as a list of its own beside the blocking lists, never
    merged into them: it ends with ignore-previous-rules exceptions. With the feature off there
    is no list, as in the runtime's set: nothing is written (DIR/: an empty set), and standard
    error says so; a file an earlier run wrote at --output FILE is removed. The options mean
    what they mean for `rules`.
      --tds FILE              Tracker Radar blocklist (tds.json); without it, the bundled sample
      --privacy-config FILE   DuckDuckGo privacy configuration (the cookie feature and its settings)
      --allowlist FILE        user allowlist: a JSON array of sites where protection is off
      --output FILE|DIR/      write the list(s) as `rules --output` does: FILE replaced whole when one
                              list holds the rules, DIR/ as one set (see `trackerless rules --help`),
                              after checking each list with the validator `validate` runs: a list
                              WebKit would refuse is an error naming it and the rule, nothing written
      --site-conditions S     if-top-url (default) or if-domain
      --max-rules N           most rules per list (default and maximum 150000)
      --max-bytes N           most bytes of JSON per list (default: the target's budget)
    \(WebKitOption.help)
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try CommandLineArguments(
            arguments, valueOptions: ProtectionInputs.optionNames.union(ProtectionInputs.ruleListOptionNames).union(["output"]))
        if options.has("help") {
            Output.standardOutput(help)
            return 0
        }
        guard options.positionals.isEmpty else { throw UsageError("unexpected argument \"\(options.positionals[0])\"") }
        // The one build's cookie rule stage, with the same settings a host gives the runtime.
        let inputs = try ProtectionInputs.forRuleLists(options)
        // The blocklist's entity records, which no rule list reads, go before the build.
        let build = try ProtectionInputs.forCommand { () throws(ProtectionError) in
            let parsed = try inputs.parseWithoutEntityRecords()
            return try parsed.cookieRules()
        }
        if build.ruleLists.isEmpty, !(options["output"].map(RulesCommand.isSetPath) ?? false) {
            // The runtime installs no cookie list then either; a list that changes nothing would
            // still cost WebKit a look-up on every load.
            var message = "cookie protection is off in the privacy configuration: no cookie rules, nothing written"
            if let output = options["output"], try OutputFile.removeEarlierFile(at: output, what: "the earlier cookie list") {
                message += "; removed \(output), so that no earlier cookie list stays in use"
            }
            Output.standardError(message)
            return 0
        }
        try RulesCommand.write(build.ruleLists, to: options["output"], target: inputs.webKit)
        // What the rules leave out is never dropped in silence (an invalid host, an input WebKit
        // would refuse): rare, so always listed.
        for note in build.report.skippedRules { Output.standardError("skipped: \(note)") }
        if options["output"] != nil {
            Output.standardError("\(build.ruleCount) block-cookies rules in \(build.ruleLists.count) list(s)")
        }
        return 0
    }
}

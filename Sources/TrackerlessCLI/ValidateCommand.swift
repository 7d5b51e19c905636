import ContentRuleList
import TrackerlessCore

/// `trackerless validate FILE`: would WebKit accept this rule list?
enum ValidateCommand {
    static let help = """
    Usage: trackerless validate [--webkit TARGET] FILE

    Checks a content-blocker rule list the way WebKit's compiler does. Exit status 0 when WebKit
    would accept it (the rule count is printed); 1 with WebKit's own error message and the rule
    index when it would not. A trigger key that WebKit does not read (it ignores it, so the rule
    applies more widely) is a warning on standard error, naming the rule.
      --webkit TARGET         the WebKit to check for (default: newest, everything WebKit knows);
                              safari-15 … safari-26, webkitgtk-2.44 … webkitgtk-2.54, wpe-…
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try CommandLineArguments(arguments, valueOptions: ["webkit"])
        if options.has("help") {
            Output.standardOutput(help)
            return 0
        }
        guard options.positionals.count == 1, let path = options.positionals.first else {
            throw UsageError("validate takes exactly one FILE")
        }
        let target = options["webkit"] == nil ? WebKitTarget.newest : try WebKitOption.target(options)
        let bytes = try FileIO.read(path: path)
        do throws(RuleListError) {
            var warnings: [RuleListWarning] = []
            let list = try RuleList(parsing: bytes, for: target, warnings: &warnings)
            for warning in warnings { Output.standardError("\(path): warning: \(warning)") }
            let scope = target == .newest ? "" : " for \(target.displayName)"
            Output.standardOutput("\(path): valid\(scope), \(list.rules.count) rules")
            return 0
        } catch {
            Output.standardError("\(path): \(error)")
            return 1
        }
    }
}

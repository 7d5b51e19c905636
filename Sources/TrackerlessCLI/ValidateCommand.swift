import ContentRuleList
import TrackerlessCore

/// `trackerless validate FILE`: would WebKit accept this rule list?
enum ValidateCommand {
    static let help = """
    Usage: trackerless validate FILE

    Checks a content-blocker rule list the way WebKit's compiler does. Exit status 0 when WebKit
    would accept it (the rule count is printed); 1 with WebKit's own error message and the rule
    index when it would not.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try CommandLineArguments(arguments, valueOptions: [])
        if options.has("help") {
            Output.standardOutput(help)
            return 0
        }
        guard options.positionals.count == 1, let path = options.positionals.first else {
            throw UsageError("validate takes exactly one FILE")
        }
        let bytes = try FileIO.read(path: path)
        do throws(RuleListError) {
            let list = try RuleList(parsing: bytes)
            Output.standardOutput("\(path): valid, \(list.rules.count) rules")
            return 0
        } catch {
            Output.standardError("\(path): \(error)")
            return 1
        }
    }
}

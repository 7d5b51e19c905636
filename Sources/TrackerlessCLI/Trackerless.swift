import Foundation

/// `trackerless`: build, check and query WebKit content-blocker rule lists from Tracker Radar data.
@main
struct Trackerless {
    static let usage = """
    trackerless: tracker blocklists to WebKit content-blocker rule lists, and the decisions they make

    Usage: trackerless <command> [options]

    Commands:
      rules      Build the rule list from a Tracker Radar blocklist (tds.json) and a privacy configuration
      cookies    Build the block-cookies rule list of third-party tracking-cookie protection
      validate   Check a rule list as WebKit's compiler does
      decide     Which actions rule lists apply to requests (JSON lines in, JSON lines out)
      compile    Compile rule lists into the rule engine's file, which decide and bench load fast
      bench      Time the rule engine's decisions over a file of requests (one JSON line out)
      resolve    How the Tracker Radar resolver classifies requests (JSON lines in, JSON lines out)
      firefox    Build Firefox for iOS's tracking-protection lists from Disconnect's lists
      prefilter  Build the Bloom filter of Apple's URL filter and the inputs of its PIR server
      https      Whether requests are upgraded to HTTPS, from DuckDuckGo's Smarter Encryption filter files
      navigate   The URL and headers of each navigation: AMP links, tracking parameters, HTTPS, GPC, referrer
      stats      Privacy-dashboard statistics from recorded script messages (JSON snapshot, HTML dashboard)
      scripts    Render the user scripts (blocking, inference), rule list and surrogates for a web view
      fetch      Download the blocklist and privacy configuration into a directory (ETag, all or nothing)

    Run `trackerless <command> --help` for a command's options.
    A FILE a command writes (--output FILE, --html FILE, ...) is replaced whole: a temporary file, then a
    rename. A device or FIFO (/dev/null, /dev/stdout, a named pipe) is written directly instead.
    Exit status: 0 success, 1 bad input or an invalid list, 2 wrong usage.
    """

    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        guard let command = arguments.first else {
            Output.standardError(usage)
            exit(2)
        }
        arguments.removeFirst()
        let status: Int32
        do {
            switch command {
            case "rules": status = try RulesCommand.run(arguments)
            case "cookies": status = try CookiesCommand.run(arguments)
            case "validate": status = try ValidateCommand.run(arguments)
            case "decide": status = try DecideCommand.run(arguments)
            case "compile": status = try CompileCommand.run(arguments)
            case "bench": status = try BenchCommand.run(arguments)
            case "resolve": status = try ResolveCommand.run(arguments)
            case "firefox": status = try FirefoxCommand.run(arguments)
            case "prefilter": status = try PrefilterCommand.run(arguments)
            case "https": status = try HTTPSCommand.run(arguments)
            case "navigate": status = try NavigateCommand.run(arguments)
            case "stats": status = try StatsCommand.run(arguments)
            case "scripts": status = try ScriptsCommand.run(arguments)
            case "fetch": status = try FetchCommand.run(arguments)
            case "--help", "-h", "help":
                Output.standardOutput(usage)
                status = 0
            default:
                throw UsageError("unknown command \"\(command.excerpt())\"")
            }
        } catch let error as UsageError {
            Output.standardError("trackerless: \(error)\n\n\(usage)")
            status = 2
        } catch {
            Output.standardError("trackerless: \(error)")
            status = 1
        }
        exit(status)
    }
}

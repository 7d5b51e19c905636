import ContentRuleList
import RuleEngineKit
import TrackerlessCore

/// `trackerless compile`: rule lists to the rule engine's compiled file, which `decide` and
/// `bench` load without parsing JSON.
enum CompileCommand {
    static let help = """
    Usage: trackerless compile --rules FILE [--rules FILE ...] --output FILE

    Compiles WebKit rule lists (JSON) into one rule engine and writes its compiled form
    (versioned and checksummed) to FILE, whole or not at all. decide and bench accept the file in
    place of the lists. A summary (rules, lists, bytes, milliseconds) goes to standard error.
    When a list has sources beside it (LIST.sources.json, from trackerless rules --sources), they
    go to FILE.sources.json beside the engine, tied to its bytes, for decide --explain.
      --rules FILE    a WebKit rule list (JSON); repeat it to compile several lists into one engine
      --output FILE   where to write the compiled engine
    A compiled file that is truncated, corrupt or from another version of trackerless is refused
    by the commands that read it: compile the lists again.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try CommandLineArguments(arguments, valueOptions: ["rules", "output"])
        if options.has("help") {
            Output.standardOutput(help)
            return 0
        }
        guard options.positionals.isEmpty else { throw UsageError("unexpected argument \"\(options.positionals[0].excerpt())\"") }
        guard let paths = options.repeatedOptions["rules"], !paths.isEmpty else { throw UsageError("compile needs --rules FILE") }
        guard let output = options["output"] else { throw UsageError("compile needs --output FILE") }
        guard (options.repeatedOptions["output"]?.count ?? 0) == 1 else { throw UsageError("compile takes one --output FILE") }
        let inputs = try RuleInputs(paths: paths)
        if let compiled = inputs.compiledPaths.first {
            throw UsageError("compile takes JSON rule lists, and \(compiled) is already a compiled engine")
        }
        let (engines, compileDuration) = try inputs.engines()
        guard engines.engines.count == 1, let engine = engines.engines.first else {
            throw InputError("the lists made \(engines.engines.count) engines instead of one")  // not reached: JSON lists make one
        }
        var sources: [[JSONValue]?] = []
        for file in inputs.files {
            guard case .ruleList(let list, let path) = file else { continue }
            sources.append(try AppliedRuleDetails.sources(beside: path, count: list.rules.count))
        }
        let bytes = engine.compiled()
        do throws(FileError) {
            try OutputFile.write(bytes, to: output)
        } catch {
            throw InputError("\(error)")
        }
        try EngineSources.write(sources, engine: bytes, beside: output)
        Output.standardError(
            "\(output): \(inputs.jsonRuleCount) rules in \(engine.ruleListCount) list(s), \(bytes.count) bytes, "
                + "compiled in \(Milliseconds(compileDuration))")
        return 0
    }
}

/// Command-line arguments of one subcommand: `--name value` options, `--flag` switches and
/// positional arguments, with errors that say what is wrong.
struct CommandLineArguments {
    private(set) var options: [String: String] = [:]
    private(set) var repeatedOptions: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []

    /// Parses `arguments` given which options take a value and which are switches.
    init(_ arguments: some Sequence<String>, valueOptions: Set<String>, flagOptions: Set<String> = []) throws(UsageError) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            if argument == "--help" || argument == "-h" {
                flags.insert("help")
            } else if argument.hasPrefix("--") {
                var name = String(argument.dropFirst(2))
                var inlineValue: String?
                if let equals = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
                if valueOptions.contains(name) {
                    guard let value = inlineValue ?? iterator.next() else {
                        throw UsageError("option --\(name) needs a value")
                    }
                    options[name] = value
                    repeatedOptions[name, default: []].append(value)
                } else if flagOptions.contains(name), inlineValue == nil {
                    flags.insert(name)
                } else {
                    throw UsageError("unknown option --\(name)")
                }
            } else {
                positionals.append(argument)
            }
        }
    }

    subscript(option: String) -> String? { options[option] }

    func has(_ flag: String) -> Bool { flags.contains(flag) }
}

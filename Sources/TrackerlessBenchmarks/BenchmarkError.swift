/// Why the benchmarks cannot run; the message says what to do.
enum BenchmarkError: Error, CustomStringConvertible {
    /// `--help`: print the usage and stop without error.
    case help(String)
    /// Wrong command line: the text to print.
    case usage(String)
    /// A required input file is missing or unreadable.
    case missingInput(path: String, what: String, detail: String)
    /// An input does not parse.
    case invalidInput(path: String, detail: String)

    var description: String {
        switch self {
        case .help(let text), .usage(let text):
            return text
        case .missingInput(let path, let what, let detail):
            return "cannot read \(what) at \(path): \(detail)\n"
                + "Give its location with the option shown in --help (the defaults expect ../shared/data next to the package)."
        case .invalidInput(let path, let detail):
            return "\(path): \(detail)"
        }
    }
}

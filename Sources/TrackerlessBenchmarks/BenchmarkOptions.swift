import Foundation

/// What to measure and with which inputs, from the command line.
struct BenchmarkOptions: Sendable {
    static let usage = """
    Usage: swift run -c release TrackerlessBenchmarks [--tds FILE] [--ddg-rules FILE] [--requests FILE]
                                                      [--harness FILE] [--runs N] [--webkit-runs N] [--json]

      --tds FILE          Tracker Radar blocklist (default ../shared/data/tds/apple-tds.json)
      --ddg-rules FILE    DuckDuckGo's WebKit rule list built from the same tds
                          (default ../shared/data/tds/apple-tds.duckduckgo-rules.json)
      --requests FILE     adblock-rust's labelled requests, for decision throughput
                          (default ../shared/data/requests/matching-test-requests.json)
      --harness FILE      the WebKitGTK harness (default Tests/WebKitTests/harness/webkit_harness.py)
      --runs N            timed runs of each in-process measurement, after one warm-up (default 30)
      --webkit-runs N     WebKit compilations of each list (default 5; 0 skips WebKit)
      --json              print the figures as JSON instead of a table
    Relative defaults are taken from the package root, whatever the working directory.
    """

    /// The tds.json to build rules from.
    var trackerDataPath: String
    /// DuckDuckGo's rule list for the same tds.json.
    var duckDuckGoRulesPath: String
    /// The requests for the decision benchmarks.
    var requestsPath: String
    /// The WebKitGTK harness script.
    var harnessPath: String
    /// Timed runs of each in-process measurement.
    var runs = 30
    /// WebKit compilations of each list.
    var webKitRuns = 5
    /// Whether to print JSON rather than a table.
    var printsJSON = false
    /// The directory that holds the package (and `shared/`), for printing paths relative to it.
    var packageParent: String

    /// Options from `arguments` (without the program name); throws a message for the user.
    init(arguments: [String], packageRoot: String) throws(BenchmarkError) {
        packageParent = URL(fileURLWithPath: packageRoot).deletingLastPathComponent().path
        let shared = packageParent + "/shared/data/"
        trackerDataPath = shared + "tds/apple-tds.json"
        duckDuckGoRulesPath = shared + "tds/apple-tds.duckduckgo-rules.json"
        requestsPath = shared + "requests/matching-test-requests.json"
        harnessPath = packageRoot + "/Tests/WebKitTests/harness/webkit_harness.py"
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--json": printsJSON = true
            case "--help", "-h": throw .help(Self.usage)
            case "--tds": trackerDataPath = try Self.value(of: argument, from: &remaining)
            case "--ddg-rules": duckDuckGoRulesPath = try Self.value(of: argument, from: &remaining)
            case "--requests": requestsPath = try Self.value(of: argument, from: &remaining)
            case "--harness": harnessPath = try Self.value(of: argument, from: &remaining)
            case "--runs": runs = try Self.count(of: argument, from: &remaining, minimum: 1)
            case "--webkit-runs": webKitRuns = try Self.count(of: argument, from: &remaining, minimum: 0)
            default: throw .usage("unknown argument \"\(argument)\"\n\n\(Self.usage)")
            }
        }
    }

    /// `path` as the report prints it: relative to the package root when it lies beside it, so
    /// that no machine's directory layout ends up in BENCHMARKS.md.
    func displayPath(_ path: String) -> String {
        path.hasPrefix(packageParent + "/") ? ".." + path.dropFirst(packageParent.count) : path
    }

    /// The package root: three levels above this file, with symbolic links resolved so that a
    /// development package whose targets link here still finds the repository's neighbours.
    static func packageRoot(filePath: String = #filePath) -> String {
        URL(fileURLWithPath: filePath).resolvingSymlinksInPath()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .standardizedFileURL.path
    }

    private static func value(of option: String, from remaining: inout ArraySlice<String>) throws(BenchmarkError) -> String {
        guard let value = remaining.popFirst() else { throw .usage("\(option) needs a value") }
        return value
    }

    private static func count(of option: String, from remaining: inout ArraySlice<String>, minimum: Int) throws(BenchmarkError) -> Int {
        let text = try value(of: option, from: &remaining)
        guard let number = Int(text), number >= minimum, number <= 10_000 else {
            throw .usage("\(option) must be a whole number from \(minimum) to 10000, not \"\(text)\"")
        }
        return number
    }
}

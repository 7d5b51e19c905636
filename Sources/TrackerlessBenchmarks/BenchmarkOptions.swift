import ContentRuleList
import Foundation

/// What to measure and with which inputs, from the command line.
struct BenchmarkOptions: Sendable {
    static let usage = """
    Usage: swift run -c release TrackerlessBenchmarks [--tds FILE] [--ddg-rules FILE] [--requests FILE]
                                                      [--harness FILE] [--runs N] [--webkit-runs N] [--json]
                                                      [--engine-only] [--bloom-only] [--host-filter-only] [--passes N] [--scaling-sizes N,N,...|none]
                                                      [--peer-python FILE]
           swift run -c release TrackerlessBenchmarks --webkit-compile-only [--webkit-root DIR ...] [--no-machine-webkit]
                                                      [--webkit-tmpdir DIR] [--webkit-runs N] [--tds FILE] [--ddg-rules FILE]
                                                      [--harness FILE]

      --tds FILE          Tracker Radar blocklist (default ../shared/data/tds/apple-tds.json)
      --ddg-rules FILE    DuckDuckGo's WebKit rule list built from the same tds
                          (default ../shared/data/tds/apple-tds.duckduckgo-rules.json)
      --requests FILE     adblock-rust's labelled requests, for decision throughput
                          (default ../shared/data/requests/matching-test-requests.json)
      --harness FILE      the WebKitGTK harness (default Tests/WebKitTests/harness/webkit_harness.py)
      --runs N            timed runs of each in-process measurement, after one warm-up (default 30)
      --webkit-runs N     WebKit compilations of each list (default 5; 0 skips WebKit)
      --json              print the figures as JSON instead of a table
      --engine-only       run only the rule-engine sections (5-7)
      --bloom-only        run only the Bloom filter section
      --host-filter-only  run only the engine's host table with and without its Bloom filter
      --pipeline-only     run only the generation pipeline (section 1, without the builder variants); takes --tds, --runs, --json
      --scripts-only      (first argument) only the user scripts' render; takes --tds, --runs, --json
      --stats-only        (first argument) only the privacy statistics; takes --tds, --requests, --runs, --json
      --resolver-only     (first argument) only the tracker resolver's decisions; takes --tds, --requests, --runs, --json
      --long-filter-only  (first argument) only a 50,000-character url-filter on a long URL; takes --runs
      --runtime-only      (first argument) only the runtime: launch, update, site toggle; takes --tds, --runs
      --list-sizes-only   (first argument) only the lists of apple-tds and extension-tds, their sizes and
                          build times; takes --tds, --extension-tds, --runs
      --build-scaling-only  (first argument) the whole build per tracker at 1x, 10x, 100x the tds
                          (a child process each); takes --tds, --factors 1,10,100
      --configuration-scaling-only  (first argument) the whole build per configuration rule, 0, 1, 10,
                          100 units of 500; takes --tds, --factors 0,1,10,100
      --web-process-start-only  (first argument) only a WebKitGTK web process's start (navigation data
                          against tds.json and privacy configuration); takes --tds, --privacy-config, --runs
      --webkit-compile-only  only WebKit's compile time of our list (built for the target of the WebKit
                          measured, and for the oldest target) against DuckDuckGo's, on the machine's
                          WebKitGTK and in each --webkit-root; takes --tds, --ddg-rules, --harness, --webkit-runs
      --webkit-root DIR   also measure the WebKitGTK of this root (.ci/install-webkit-roots.sh), run in it
                          with bubblewrap; repeat it for several roots
      --no-machine-webkit with --webkit-compile-only, leave out the machine's own WebKitGTK
      --webkit-tmpdir DIR with --webkit-compile-only, the directory WebKit writes a temporary file in for
                          each automaton it converts, on every WebKit measured (its file system is part of
                          the time); default: a new directory in /dev/shm for the machine's WebKitGTK, a
                          root's own /tmp (a tmpfs) in a root, so that every WebKit writes to a tmpfs
      --passes N          timed passes over the requests for per-request decision times (default 5)
      --scaling-sizes L   rule counts of the synthetic lists (default 1000,10000,50000,150000; none skips)
      --peer-python FILE  the Python with PyPI adblock 0.6.0 for the adblock-rust peer
                          (default .build/adblock-venv/bin/python3 if present, else /usr/bin/python3)
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
    /// Whether to run only the rule-engine sections.
    var engineOnly = false
    /// Whether to run only the Bloom filter section.
    var bloomOnly = false
    /// Whether to run only the engine's host Bloom filter comparison.
    var hostFilterOnly = false
    /// Whether to run only the generation pipeline.
    var pipelineOnly = false
    /// Whether to run only WebKit's compile time on every WebKit.
    var webKitCompileOnly = false
    /// Roots whose WebKitGTK `--webkit-compile-only` measures too.
    var webKitRoots: [String] = []
    /// Whether `--webkit-compile-only` measures the machine's own WebKitGTK.
    var measuresMachineWebKit = true
    /// Where WebKit writes its temporary files while `--webkit-compile-only` measures; nil for
    /// a tmpfs on every WebKit (``WebKitVersionsCompileBenchmark``).
    var webKitTemporaryDirectory: String?
    /// Timed passes over the requests for per-request decision times.
    var passes = 5
    /// Rule counts of the synthetic lists for the scaling section.
    var scalingSizes = ScalingBenchmark.defaultSizes
    /// The Python that runs the adblock-rust peer script.
    var peerPythonPath: String
    /// The adblock-rust peer script.
    var peerScriptPath: String
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
        peerScriptPath = packageRoot + "/Scripts/adblock-rust-peer.py"
        let venvPython = packageRoot + "/.build/adblock-venv/bin/python3"
        peerPythonPath = FileManager.default.isExecutableFile(atPath: venvPython) ? venvPython : "/usr/bin/python3"
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
            case "--engine-only": engineOnly = true
            case "--bloom-only": bloomOnly = true
            case "--host-filter-only": hostFilterOnly = true
            case "--pipeline-only": pipelineOnly = true
            case "--webkit-compile-only": webKitCompileOnly = true
            case "--webkit-root": webKitRoots.append(try Self.value(of: argument, from: &remaining))
            case "--no-machine-webkit": measuresMachineWebKit = false
            case "--webkit-tmpdir": webKitTemporaryDirectory = try Self.value(of: argument, from: &remaining)
            case "--passes": passes = try Self.count(of: argument, from: &remaining, minimum: 1)
            case "--scaling-sizes": scalingSizes = try Self.sizes(of: argument, from: &remaining)
            case "--peer-python": peerPythonPath = try Self.value(of: argument, from: &remaining)
            default: throw .usage("unknown argument \"\(argument)\"\n\n\(Self.usage)")
            }
        }
        if !webKitCompileOnly && (!webKitRoots.isEmpty || !measuresMachineWebKit || webKitTemporaryDirectory != nil) {
            throw .usage("--webkit-root, --no-machine-webkit and --webkit-tmpdir go with --webkit-compile-only")
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

    private static func sizes(of option: String, from remaining: inout ArraySlice<String>) throws(BenchmarkError) -> [Int] {
        let text = try value(of: option, from: &remaining)
        if text == "none" { return [] }
        var sizes: [Int] = []
        for part in text.split(separator: ",") {
            guard let size = Int(part), size >= 1, size <= RuleList.maximumRuleCount else {
                throw .usage("\(option) takes rule counts from 1 to \(RuleList.maximumRuleCount) separated by commas, or none, not \"\(text)\"")
            }
            sizes.append(size)
        }
        return sizes
    }

    private static func count(of option: String, from remaining: inout ArraySlice<String>, minimum: Int) throws(BenchmarkError) -> Int {
        let text = try value(of: option, from: &remaining)
        guard let number = Int(text), number >= minimum, number <= 10_000 else {
            throw .usage("\(option) must be a whole number from \(minimum) to 10000, not \"\(text)\"")
        }
        return number
    }
}

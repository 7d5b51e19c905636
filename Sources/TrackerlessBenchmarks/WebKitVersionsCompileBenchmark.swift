import ContentRuleList
import Foundation
import RuleBuilder
import TrackerDataKit
import TrackerlessCore

/// WebKit's compile time of our list against DuckDuckGo's for the same tds, on every WebKit at
/// hand (`--webkit-compile-only`): the machine's WebKitGTK and each `--webkit-root`. For each one
/// harness process compiles DuckDuckGo's list, ours built for that WebKit's target and ours built
/// for ``WebKitTarget/oldest``, interleaved round by round after a warm-up.
struct WebKitVersionsCompileBenchmark: Sendable {
    /// One WebKit's figures.
    struct WebKitRun: Sendable {
        /// "2.50.6 (machine, WebKit2 4.1)".
        let webKit: String
        /// The lists' times (DuckDuckGo's first), or empty when the WebKit could not be measured.
        let lists: [ListTimes]
        /// Why this WebKit was not measured.
        let skipReason: String?
        /// Where WebKit wrote its temporary files ("/dev/shm (tmpfs)").
        var temporaryFiles = ""
    }

    /// One list's compile times on one WebKit.
    struct ListTimes: Sendable {
        /// ``WebKitCompileBenchmark/duckDuckGoName`` or our list's target name.
        let name: String
        /// Rules in all its lists.
        let ruleCount: Int
        /// How many lists (WebKit compiles each; the round's time is their sum).
        let listCount: Int
        /// Time per round, in milliseconds (empty when refused).
        let samples: Samples
        /// WebKit's message when it refused the list.
        let refusal: String?
        /// The harness's CPU time per round, in milliseconds (empty when refused or not reported).
        var cpu = Samples(milliseconds: [])
    }

    /// Every WebKit's figures.
    let runs: [WebKitRun]
    /// Rounds asked for.
    let rounds: Int
    /// Load before and after.
    let loadBefore: LoadAverage?, loadAfter: LoadAverage?

    /// Measures every WebKit `options` names.
    static func measure(options: BenchmarkOptions) throws(BenchmarkError) -> WebKitVersionsCompileBenchmark {
        let roots = try options.webKitRoots.map { (path) throws(BenchmarkError) in try WebKitRoot(path: path) }
        let loadBefore = LoadAverage.current()
        let tds = try BenchmarkInputs.read(options.trackerDataPath, what: "the tds.json")
        let trackerData: TrackerData
        do throws(TrackerDataError) {
            trackerData = try TrackerData(parsing: tds, file: options.trackerDataPath)
        } catch {
            throw .invalidInput(path: options.trackerDataPath, detail: "\(error)")
        }
        let duckDuckGoRules = try BenchmarkInputs.read(options.duckDuckGoRulesPath, what: "DuckDuckGo's rule list")
        let duckDuckGoRuleCount: Int
        do throws(RuleListError) {
            duckDuckGoRuleCount = try RuleList(parsing: duckDuckGoRules).rules.count
        } catch {
            throw .invalidInput(path: options.duckDuckGoRulesPath, detail: "\(error)")
        }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("trackerless-webkit-versions-\(ProcessInfo.processInfo.processIdentifier)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .missingInput(path: directory, what: "a temporary directory", detail: "\(error)")
        }
        // WebKit writes a temporary file for each automaton it converts: the machine's /tmp (a disk
        // other processes fill) would put that file system's cost in the machine's figures only,
        // so by default every WebKit writes to a tmpfs (a root's /tmp is one).
        var machineTemporaryDirectory = options.webKitTemporaryDirectory.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        var madeTemporaryDirectory = false
        if machineTemporaryDirectory == nil, options.measuresMachineWebKit {
            let shared = "/dev/shm/trackerless-webkit-tmp-\(ProcessInfo.processInfo.processIdentifier)"
            if (try? FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)) != nil {
                machineTemporaryDirectory = shared
                madeTemporaryDirectory = true
            }
        }
        defer { if madeTemporaryDirectory, let path = machineTemporaryDirectory { try? FileManager.default.removeItem(atPath: path) } }
        let warmUp = directory + "/warm-up.json"
        var built: [String: (paths: [String], rules: Int)] = [:]
        var runs: [WebKitRun] = []
        let machine: [WebKitRoot?] = options.measuresMachineWebKit ? [nil] : []
        for root in machine + roots.map({ Optional($0) }) {
            var harness = CompileHarness(scriptPath: options.harnessPath, root: root)
            harness.temporaryDirectory = root == nil || options.webKitTemporaryDirectory != nil ? machineTemporaryDirectory : nil
            let temporaryFiles = harness.temporaryDirectory.map { madeTemporaryDirectory ? "a new directory in /dev/shm (tmpfs)" : $0 }
                ?? (root == nil ? "TMPDIR or /tmp" : "the root's /tmp (tmpfs)")
            let place = root.map { "root " + URL(fileURLWithPath: $0.path).lastPathComponent } ?? "machine"
            let version: CompileHarness.Version
            do {
                version = try harness.version()
            } catch {
                runs.append(WebKitRun(webKit: root?.stampedVersion.map { "\($0) (\(place))" } ?? place, lists: [], skipReason: "\(error)"))
                continue
            }
            let name = "\(version) (\(place), WebKit2 \(version.api))"
            TrackerlessBenchmarks.progress("WebKit \(name): \(options.webKitRuns) rounds")
            let target = WebKitTarget.webKitGTK(major: version.major, minor: version.minor) ?? .oldest
            var lists: [(name: String, paths: [String], rules: Int)] = [
                (WebKitCompileBenchmark.duckDuckGoName, [options.duckDuckGoRulesPath], duckDuckGoRuleCount)
            ]
            do {
                for listTarget in target == .oldest ? [target] : [target, .oldest] {
                    if built[listTarget.name] == nil {
                        let build = RuleListBuilder(trackerData: trackerData, settings: .init(target: listTarget)).build()
                        var paths: [String] = []
                        for (index, list) in build.ruleLists.enumerated() {
                            let path = "\(directory)/\(listTarget.name).\(index + 1).json"
                            try FileIO.writeAtomically(list.encoded(), to: path)
                            paths.append(path)
                        }
                        built[listTarget.name] = (paths, build.ruleCount)
                    }
                    if let list = built[listTarget.name] { lists.append((listTarget.name, list.paths, list.rules)) }
                }
                try FileIO.writeAtomically(Array(#"[{"trigger":{"url-filter":"warm-up"},"action":{"type":"block"}}]"#.utf8), to: warmUp)
                let jobs = WebKitCompileBenchmark.interleavedJobs(lists.map { ($0.name, $0.paths) }, runs: options.webKitRuns, warmUp: warmUp)
                let outcomes = try harness.compile(jobs)
                let (times, refusals) = milliseconds(outcomes)
                let cpuTimes = milliseconds(outcomes, cpu: true).times
                runs.append(WebKitRun(
                    webKit: name,
                    lists: lists.map { list in
                        ListTimes(
                            name: list.name, ruleCount: list.rules, listCount: list.paths.count,
                            samples: Samples(milliseconds: refusals[list.name] == nil ? times[list.name] ?? [] : []),
                            refusal: refusals[list.name],
                            cpu: Samples(milliseconds: refusals[list.name] == nil ? cpuTimes[list.name] ?? [] : []))
                    },
                    skipReason: nil, temporaryFiles: temporaryFiles))
            } catch {
                runs.append(WebKitRun(webKit: name, lists: [], skipReason: "\(error)"))
            }
        }
        return WebKitVersionsCompileBenchmark(runs: runs, rounds: options.webKitRuns, loadBefore: loadBefore, loadAfter: LoadAverage.current())
    }

    /// Each list's time per round (its parts added up) in milliseconds, wall-clock or, with `cpu`,
    /// the harness's CPU time (no rounds when the harness did not report it), and WebKit's message
    /// for each list it refused.
    static func milliseconds(_ outcomes: [CompileHarness.Outcome], cpu: Bool = false) -> (times: [String: [Double]], refusals: [String: String]) {
        var perRound: [String: [Int: Double]] = [:]
        var refusals: [String: String] = [:]
        for outcome in outcomes where outcome.id != "warm-up" {
            let parts = outcome.id.split(separator: "#")
            guard parts.count == 3, let round = Int(parts[1]) else { continue }
            let name = String(parts[0])
            guard outcome.compiled else {
                if refusals[name] == nil { refusals[name] = "list \(Int(parts[2]).map { $0 + 1 } ?? 0): " + (outcome.error ?? "no error given") }
                continue
            }
            guard let seconds = cpu ? outcome.cpuSeconds : outcome.seconds else { return ([:], refusals) }
            perRound[name, default: [:]][round, default: 0] += seconds * 1_000
        }
        return (perRound.mapValues { rounds in rounds.keys.sorted().compactMap { rounds[$0] } }, refusals)
    }

    /// The table.
    func table(options: BenchmarkOptions) -> String {
        var lines = [
            "WebKit compile time on every WebKit: our apple-tds list against DuckDuckGo's for the same tds",
            "tds: \(options.displayPath(options.trackerDataPath)); DuckDuckGo's list: \(options.displayPath(options.duckDuckGoRulesPath))",
            "\(rounds) rounds per WebKit, its lists interleaved in one harness process after a warm-up; medians (minimum)",
            "CPU ratio: the same medians of the harness process's CPU time (every thread) over each compile",
            "WebKit's temporary files (one for each automaton): "
                + runs.filter { $0.skipReason == nil }.map { "\($0.webKit): \($0.temporaryFiles)" }.joined(separator: "; "),
            "load before: \(loadBefore.map { "\($0)" } ?? "unknown"); after: \(loadAfter.map { "\($0)" } ?? "unknown")",
            "",
            "| WebKit | our list's target | rules (lists) | ours s | DuckDuckGo's s | ratio | ratio per round: median (min-max) | CPU ratio |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for run in runs {
            if let reason = run.skipReason {
                lines.append("| \(run.webKit) | skipped: \(reason) | | | | | | |")
                continue
            }
            guard let duckDuckGo = run.lists.first(where: { $0.name == WebKitCompileBenchmark.duckDuckGoName }) else { continue }
            for list in run.lists where list.name != WebKitCompileBenchmark.duckDuckGoName {
                let rules = "\(Formatting.grouped(list.ruleCount)) (\(list.listCount))"
                let theirs = Self.seconds(duckDuckGo.samples)
                if let refusal = list.refusal {
                    lines.append("| \(run.webKit) | \(list.name) | \(rules) | refused: \(refusal) | \(theirs) | | | |")
                    continue
                }
                let ratio = duckDuckGo.samples.median > 0 ? Formatting.decimal(list.samples.median / duckDuckGo.samples.median, digits: 3) : "-"
                let perRound = zip(list.samples.milliseconds, duckDuckGo.samples.milliseconds).map { $0 / $1 }
                let perRoundText = perRound.isEmpty ? "-"
                    : Formatting.decimal(Samples(milliseconds: perRound).median, digits: 3) + " ("
                        + Formatting.decimal(perRound.min() ?? 0, digits: 3) + "-" + Formatting.decimal(perRound.max() ?? 0, digits: 3) + ")"
                let cpuRatio = duckDuckGo.cpu.milliseconds.isEmpty || list.cpu.milliseconds.isEmpty || duckDuckGo.cpu.median <= 0
                    ? "-" : Formatting.decimal(list.cpu.median / duckDuckGo.cpu.median, digits: 3)
                lines.append("| \(run.webKit) | \(list.name) | \(rules) | \(Self.seconds(list.samples)) | \(theirs) | \(ratio) | \(perRoundText) | \(cpuRatio) |")
            }
            if let refusal = duckDuckGo.refusal {
                lines.append("| \(run.webKit) | DuckDuckGo's list refused: \(refusal) | | | | | | |")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// "1.234 (1.100)" seconds from milliseconds.
    private static func seconds(_ samples: Samples) -> String {
        guard !samples.milliseconds.isEmpty else { return "-" }
        return Formatting.decimal(samples.median / 1_000, digits: 3) + " (" + Formatting.decimal(samples.minimum / 1_000, digits: 3) + ")"
    }
}

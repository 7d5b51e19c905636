#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ContentRuleList
import RuleEngineKit
import TrackerlessCore

/// `trackerless bench`: how long the rule engine takes per decision, timed in-process over a file
/// of requests.
enum BenchCommand {
    static let help = """
    Usage: trackerless bench --rules FILE [--rules FILE ...] --requests FILE [--passes N]
                             [--no-page-cache] [--reference] [--top URL]

    Decides every request of the requests file in file order (one warm-up pass, then N timed
    passes), timing each decision on its own with the monotonic clock, and prints one JSON line:
      {"requests", "passes", "page_cache", "decider", "median_ns", "p99_ns", "mean_ns", "min_ns",
       "timer_ns", "parse_ms", "compile_ms", "load_ms", "blocked", "memory_bytes", "lists", "rules"}
    median_ns, p99_ns, mean_ns and min_ns are over every timed decision and include one reading of
    the clock, whose own cost is timer_ns. parse_ms is the time to parse the JSON rule lists,
    compile_ms the time to build the engine from them, load_ms the time to load compiled engines
    (null when not applicable; reading files is never included). blocked is the number of requests
    a pass blocks (proof that the work was done); rules is null for compiled engines.
      --rules FILE      a WebKit rule list (JSON) or a compiled engine (trackerless compile); repeat
                        it to install several lists at once
      --requests FILE   a JSON array of {"url", "top", "type", "frame"?, "method"?}, or JSON lines of
                        them; adblock-rust's matching-test-requests.json (sourceUrl, type names xhr,
                        stylesheet, subdocument) is read as well
      --passes N        timed passes over the requests (default 5)
      --no-page-cache   a fresh page cache for every request instead of one for the whole file
      --reference       time the reference evaluator instead (JSON rule lists only)
      --top URL         the page of requests that name none or a placeholder such as "http://"
                        (default \(RequestFile.defaultTopURL))
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try CommandLineArguments(
            arguments, valueOptions: ["rules", "requests", "passes", "top"], flagOptions: ["no-page-cache", "reference"])
        if options.has("help") {
            Output.standardOutput(help)
            return 0
        }
        guard options.positionals.isEmpty else { throw UsageError("unexpected argument \"\(options.positionals[0].excerpt())\"") }
        guard let paths = options.repeatedOptions["rules"], !paths.isEmpty else { throw UsageError("bench needs --rules FILE") }
        guard let requestsPath = options["requests"] else { throw UsageError("bench needs --requests FILE") }
        var passes = 5
        if let text = options["passes"] {
            guard let count = Int(text), (1...1000).contains(count) else {
                throw UsageError("--passes must be a number from 1 to 1000, not \"\(text.excerpt())\"")
            }
            passes = count
        }
        let defaultTopURL = options["top"] ?? RequestFile.defaultTopURL
        guard let top = CanonicalURL(defaultTopURL), !top.host.isEmpty else {
            throw UsageError("--top must be a URL with a host, not \"\(defaultTopURL)\"")
        }
        let usesPageCache = !options.has("no-page-cache")
        let usesReference = options.has("reference")

        let inputs = try RuleInputs(paths: paths)
        if usesReference, let compiled = inputs.compiledPaths.first {
            throw UsageError("--reference needs JSON rule lists, and \(compiled) is a compiled engine; give the lists it was compiled from")
        }
        let requestBytes: [UInt8]
        do throws(FileError) {
            requestBytes = try FileIO.read(path: requestsPath)
        } catch {
            throw InputError("\(error)")
        }
        let requests = try RequestFile.requests(parsing: requestBytes, file: requestsPath, defaultTopURL: defaultTopURL)

        var report = JSONObject()
        report.append("requests", .number(Double(requests.count)))
        report.append("passes", .number(Double(passes)))
        report.append("page_cache", .bool(usesPageCache))
        report.append("decider", .string(usesReference ? "reference" : "engine"))
        let timing: Timing
        let compileDuration: UInt64?
        let memoryBytes: Int?
        let listCount: Int
        if usesReference {
            let clock = MonotonicClock()
            let start = clock.now
            let evaluator = try inputs.referenceEvaluator()
            compileDuration = clock.now - start
            memoryBytes = nil
            listCount = inputs.files.count
            var decider = ReferenceDecider(evaluator: evaluator)
            timing = measure(&decider, requests: requests, passes: passes)
        } else {
            let (engines, duration) = try inputs.engines()
            compileDuration = inputs.ruleLists.isEmpty ? nil : duration
            memoryBytes = engines.memoryFootprint
            listCount = engines.ruleListCount
            if engines.engines.count == 1, let engine = engines.engines.first {
                var decider = EngineDecider(engine: engine, usesPageCache: usesPageCache)
                timing = measure(&decider, requests: requests, passes: passes)
            } else {
                var decider = GroupDecider(engines: engines, usesPageCache: usesPageCache)
                timing = measure(&decider, requests: requests, passes: passes)
            }
        }
        if Set(timing.blockedPerPass).count > 1 {
            Output.standardError(
                "warning: the passes blocked different numbers of requests (\(timing.blockedPerPass.map(String.init).joined(separator: ", "))): the decisions are not repeatable")
        }
        let sorted = timing.nanoseconds.sorted()
        report.append("median_ns", .number(Double(percentile(sorted, 0.5))))
        report.append("p99_ns", .number(Double(percentile(sorted, 0.99))))
        let total = sorted.reduce(0.0) { $0 + Double($1) }
        report.append("mean_ns", .number(sorted.isEmpty ? 0 : (total / Double(sorted.count) * 10).rounded() / 10))
        report.append("min_ns", .number(Double(sorted.first ?? 0)))
        report.append("timer_ns", .number(Double(timerOverhead())))
        report.append("parse_ms", inputs.ruleLists.isEmpty ? .null : .number(Milliseconds(inputs.parseDuration).rounded))
        report.append("compile_ms", compileDuration.map { .number(Milliseconds($0).rounded) } ?? .null)
        report.append("load_ms", inputs.hasCompiledEngines ? .number(Milliseconds(inputs.loadDuration).rounded) : .null)
        report.append("blocked", .number(Double(timing.blockedPerPass.last ?? 0)))
        report.append("memory_bytes", memoryBytes.map { .number(Double($0)) } ?? .null)
        report.append("lists", .number(Double(listCount)))
        report.append("rules", inputs.hasCompiledEngines ? .null : .number(Double(inputs.jsonRuleCount)))
        var writer = JSONWriter()
        writer.write(.object(report))
        writer.writeRaw("\n")
        Output.write(writer.bytes)
        return 0
    }

    /// Every timed decision's nanoseconds, and the requests each pass blocked.
    struct Timing {
        var nanoseconds: [UInt64]
        var blockedPerPass: [Int]
    }

    /// One untimed warm-up pass, then `passes` passes timing each decision.
    static func measure<Decider: BenchDecider>(_ decider: inout Decider, requests: [Request], passes: Int) -> Timing {
        var timing = Timing(nanoseconds: [], blockedPerPass: [])
        timing.nanoseconds.reserveCapacity(requests.count * passes)
        decider.startPass()
        var warmUpBlocked = 0
        for request in requests where decider.isBlocked(request) { warmUpBlocked += 1 }
        timing.blockedPerPass.append(warmUpBlocked)
        for _ in 0..<passes {
            decider.startPass()
            var blocked = 0
            for request in requests {
                let start = now()
                let isBlocked = decider.isBlocked(request)
                let end = now()
                timing.nanoseconds.append(end &- start)
                if isBlocked { blocked += 1 }
            }
            timing.blockedPerPass.append(blocked)
        }
        return timing
    }

    /// The nearest-rank percentile of sorted samples; 0 without samples.
    static func percentile(_ sorted: [UInt64], _ fraction: Double) -> UInt64 {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// The median time between two consecutive clock readings: what timing costs by itself.
    static func timerOverhead() -> UInt64 {
        var samples: [UInt64] = []
        samples.reserveCapacity(100_000)
        for _ in 0..<100_000 {
            let start = now()
            let end = now()
            samples.append(end &- start)
        }
        samples.sort()
        return percentile(samples, 0.5)
    }

    /// The monotonic clock in nanoseconds (on Apple platforms the raw uptime clock, whose
    /// resolution is finer than CLOCK_MONOTONIC's microsecond).
    @inline(__always)
    static func now() -> UInt64 {
        var time = timespec()
        #if canImport(Darwin)
        clock_gettime(CLOCK_UPTIME_RAW, &time)
        #else
        clock_gettime(CLOCK_MONOTONIC, &time)
        #endif
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}

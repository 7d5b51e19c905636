import ContentRuleList
import Foundation
import RuleBuilder
import RuleEngineKit
import TrackerDataKit
import TrackerlessCore
import TrackerlessRuntime
import UserScripts

/// The runtime a host embeds, on a real blocklist: a cold build of the protection
/// set, a launch to protected with a warm cache (what a relaunch costs before WebKit's own
/// filter-store lookup) and until the statistics are ready, an update applied (read, hash, parse,
/// build, validate, swap; then the cache write), a site toggle, and the memory of one set. Goals: warm launch 50 ms including WebKit's work (not measured here),
/// update 150 ms, toggle 100 ms, one set 10 MB.
///
/// Each step is timed on the wall clock and in process CPU time (both cores), which the load of
/// the shared machine moves far less. Run with `TrackerlessBenchmarks --runtime-only [--tds FILE] [--runs N]`.
enum RuntimeBenchmark {
    /// The entry point of `--runtime-only`.
    static func run(
        arguments: [String], packageRoot: String = BenchmarkOptions.packageRoot(filePath: #filePath)
    ) throws(BenchmarkError) -> String {
        var runs = 10
        var path = URL(fileURLWithPath: packageRoot).deletingLastPathComponent().path + "/shared/data/tds/apple-tds.json"
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--tds":
                guard let value = remaining.popFirst() else { throw .usage("--tds needs a file") }
                path = value
            case "--runs":
                guard let text = remaining.popFirst(), let number = Int(text), number >= 1, number <= 1000 else {
                    throw .usage("--runs needs a number from 1 to 1000")
                }
                runs = number
            default: throw .usage("--runtime-only takes --tds FILE and --runs N, not \(argument)")
            }
        }
        let bytes: [UInt8]
        do {
            bytes = try FileIO.read(path: path)
        } catch {
            throw .missingInput(path: path, what: "the Tracker Radar blocklist", detail: "\(error)")
        }
        do {
            return try measure(trackerData: bytes, name: URL(fileURLWithPath: path).lastPathComponent, runs: runs)
        } catch {
            throw .invalidInput(path: path, detail: "\(error)")
        }
    }

    private static func measure(trackerData bytes: [UInt8], name: String, runs: Int) throws -> String {
        let directory = NSTemporaryDirectory() + "trackerless-runtime-bench-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let inputs = ProtectionInputs(trackerData: .bytes(bytes, name: name))
        // The same blocklist with one tracker more: other rules, so that an update builds and
        // checks every artifact (whitespace alone would leave every list as it was).
        let changed = ProtectionInputs(trackerData: .bytes(try withExtraTracker(bytes), name: name))

        let residentBefore = residentBytes()
        let (cold, set) = try Samples.timed { () throws(ProtectionError) in try ProtectionSet.load(inputs, cacheDirectory: directory) }
        _ = set.resolver
        let residentAfter = residentBytes()
        let warm = try Timing.measure(runs: runs) { () throws(ProtectionError) in
            try ProtectionSet.load(inputs, cacheDirectory: directory)
        }
        let warmOrigin = try ProtectionSet.load(inputs, cacheDirectory: directory).origin
        // The rule sources: not read by a launch; what the first question costs, and what reading
        // and checking the file would have added to each launch.
        let sourcesPath = FileSet.generation(of: directory + "/set") + "/engine.sources.json"
        let sourcesBytes = (try? FileIO.read(path: sourcesPath)) ?? []
        let firstSource = try Timing.measureBetweenMarks(runs: runs) { () throws(ProtectionError) in
            let loaded = try ProtectionSet.load(inputs, cacheDirectory: directory)
            let start = Timing.Mark()
            _ = loaded.ruleSource(list: 0, rule: 0)
            return (start, Timing.Mark())
        }
        let (sourcesCheck, _) = Samples.measure(runs: runs) {
            FileSet.verifiedFile(at: sourcesPath, claim: (sourcesBytes.count, XXH64.hexDigest(sourcesBytes)))
        }
        // Launch to protected: the runtime made (set from the cache, toggles read, statistics'
        // store opened); then until its statistics can classify (the blocklist parsed and the
        // resolver made in the background meanwhile).
        var ready = Timing()
        let launch = try Timing.measureBetweenMarks(runs: runs) { () throws(ProtectionError) in
            let start = Timing.Mark()
            let runtime = try ProtectionRuntime(inputs: inputs, cacheDirectory: directory)
            let protected = Timing.Mark()
            _ = runtime.stats.resolver
            ready.add(from: start, to: Timing.Mark())
            return (start, protected)
        }
        ready.dropFirst()  // the warm-up's
        let (parseOnly, _) = try Samples.measure(runs: runs) { () throws(ProtectionError) in
            try ProtectionSet.build(ProtectionInputs(trackerData: .bytes(Array(#"{"trackers":{},"entities":{},"domains":{}}"#.utf8), name: "empty")))
        }

        // The parts of a warm load and of an update.
        let (hashing, _) = Samples.measure(runs: runs) { SHA256.hexDigest(bytes) }
        let (checksum, _) = Samples.measure(runs: runs) { XXH64.digest(bytes) }
        let (parsing, trackerData) = try Samples.measure(runs: runs) { () throws(TrackerDataError) in
            try TrackerData(parsing: bytes, file: name)
        }
        let (resolving, _) = Samples.measure(runs: runs) { TrackerResolver(trackerData: trackerData) }

        // The parts of an update's build, each on one thread (the build runs them on two), in
        // the thread's CPU time: the wall clock of one thread on the loaded machine says little.
        let (building, blocking) = Timing.threadCPU(runs: runs) { RuleListBuilder(trackerData: trackerData).build() }
        let (buildingUnchecked, _) = Timing.threadCPU(runs: runs) { RuleListBuilder(trackerData: trackerData).build(checkingTriggers: false) }
        let (checking, _) = try Timing.threadCPU(runs: runs) { () throws(RuleListError) in
            for list in blocking.ruleLists { try list.validateTriggers() }
        }
        let (cookieBuilding, cookies) = Timing.threadCPU(runs: runs) { CookieRules(trackerData: trackerData).build() }
        let (cookieChecking, _) = try Timing.threadCPU(runs: runs) { () throws(RuleListError) in
            for list in cookies.ruleLists { try list.validateTriggers() }
        }
        let (compiling, _) = try Timing.threadCPU(runs: runs) { () throws(RuleListError) in try RuleEngine(ruleLists: blocking.ruleLists) }
        let (encoding, _) = Timing.threadCPU(runs: runs) { (blocking.ruleLists + cookies.ruleLists).map { $0.encoded() } }
        let renderer = try ScriptRenderer(settings: ScriptSettings())
        let (rendering, _) = Timing.threadCPU(runs: runs) { renderer.render(trackerData: trackerData) }
        let (parsingCPU, _) = try Timing.threadCPU(runs: runs) { () throws(TrackerDataError) in try TrackerData(parsing: bytes, file: name) }
        let (resolvingCPU, _) = Timing.threadCPU(runs: runs) { TrackerResolver(trackerData: trackerData) }

        let runtime = try ProtectionRuntime(inputs: inputs, cacheDirectory: directory)
        _ = runtime.stats
        let swapped = Locked(Timing.Mark())
        runtime.addObserver { _ in swapped.withLock { $0 = Timing.Mark() } }
        var useChanged = true
        var toSwap = Timing()
        let update = try Timing.measureBetweenMarks(runs: max(3, runs / 2), warmUps: 0) { () throws(ProtectionError) in
            defer { useChanged.toggle() }
            let start = Timing.Mark()
            _ = try runtime.updateOnCurrentThread(useChanged ? changed : inputs)
            toSwap.add(from: start, to: swapped.withLock { $0 })
            return (start, Timing.Mark())
        }
        var off = true
        let toggle = try Timing.measureBetweenMarks(runs: runs, warmUps: 0) { () throws(ProtectionError) in
            defer { off.toggle() }
            let start = Timing.Mark()
            try runtime.setProtection(!off, forSite: "news.example")
            return (start, Timing.Mark())
        }

        func cell(_ samples: Samples) -> String {
            Formatting.decimal(samples.median, digits: 1) + " (" + Formatting.decimal(samples.minimum, digits: 1) + ")"
        }
        func cells(_ timing: Timing) -> String {
            cell(timing.wall) + ", CPU " + Formatting.decimal(timing.cpu.median, digits: 1)
        }
        let lists = set.ruleLists.map { "\($0.kind.rawValue) \(Formatting.grouped($0.ruleCount)) rules" }.joined(separator: ", ")
        return [
            "Runtime: \(name), \(runs) runs; wall clock median (min) ms, process CPU median ms (both cores); "
                + "load average \(LoadAverage.current().map(\.description) ?? "unknown")",
            "  cold build (read, parse, rules, scripts, engine, validate, cache write): \(Formatting.decimal(cold, digits: 1)); \(lists)",
            "  launch to protected (runtime made: inputs read and hashed, set from the cache checked, toggles, statistics' store): \(cells(launch)); goal <= 50 incl. WebKit",
            "    statistics ready (blocklist parsed and resolver made in the background after it): \(cells(ready))",
            "  warm-cache ProtectionSet.load alone: \(cells(warm)); origin \(warmOrigin.rawValue)",
            "  rule sources (engine.sources.json, \(Formatting.grouped(sourcesBytes.count)) bytes): not read at launch; the first "
                + "ruleSource(list:rule:) of a warm set (read, XXH64 check, decode): \(cells(firstSource)); reading and checking "
                + "the file alone \(cell(sourcesCheck)), \(Formatting.decimal(100 * sourcesCheck.median / max(warm.wall.median, 0.001), digits: 1))% "
                + "of the warm load's median: what each launch would add if it read it",
            "    parts: SHA-256 of the tds \(cell(hashing)), XXH64 of the tds \(cell(checksum)), parsing the tds \(cell(parsing)), the resolver \(cell(resolving))",
            "    of which the fixed cost on an empty blocklist (build): \(cell(parseOnly))",
            "  update applied (read, hash, parse, build, validate, swap): \(cells(toSwap)); goal <= 150",
            "    its parts in one thread's CPU time, median (min): parsing the tds \(cell(parsingCPU)), blocking rules \(cell(buildingUnchecked)), their check \(cell(checking)) "
                + "(both in one call \(cell(building))), "
                + "cookie rules \(cell(cookieBuilding)), their check \(cell(cookieChecking)), the engine \(cell(compiling)), "
                + "the lists' JSON \(cell(encoding)), the scripts \(cell(rendering)), the resolver \(cell(resolvingCPU))",
            "    with the cache write after the swap: \(cells(update))",
            "  site toggle (save, classifying resolver): \(cells(toggle)); goal <= 100",
            "  one set: \(Formatting.grouped(set.byteCount)) bytes held (lists' JSON, scripts, engine tables); "
                + "resident growth of the first load \(Formatting.grouped(max(0, residentAfter - residentBefore))) bytes; goal <= 10 MB",
        ].joined(separator: "\n") + "\n"
    }

    /// Wall-clock and process CPU times of runs: the machine is shared, so the wall clock says
    /// what a user waits here and now, the CPU time what the work costs (both cores counted).
    private struct Timing {
        /// A moment on both clocks.
        struct Mark: Sendable {
            /// Nanoseconds on ``MonotonicClock``.
            let wall = MonotonicClock.now
            let cpu: Double = {
                var time = timespec()
                clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
                return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1_000_000
            }()
        }

        private(set) var wallTimes: [Double] = []
        private(set) var cpuTimes: [Double] = []
        var wall: Samples { Samples(milliseconds: wallTimes) }
        var cpu: Samples { Samples(milliseconds: cpuTimes) }

        mutating func add(from start: Mark, to end: Mark) {
            wallTimes.append(MonotonicClock.milliseconds(from: start.wall, to: end.wall))
            cpuTimes.append(end.cpu - start.cpu)
        }

        mutating func dropFirst() {
            wallTimes.removeFirst()
            cpuTimes.removeFirst()
        }

        /// `body` `runs` times after `warmUps` untimed calls, timed between the marks it returns.
        /// `body`'s CPU time on the calling thread, after one warm-up run.
        static func threadCPU<Result, Failure: Error>(
            runs: Int, _ body: () throws(Failure) -> Result
        ) throws(Failure) -> (Samples, Result) {
            var last = try body()
            var times: [Double] = []
            for _ in 0..<max(1, runs) {
                let start = BloomFilterBenchmark.threadCPUMilliseconds()
                last = try body()
                times.append(BloomFilterBenchmark.threadCPUMilliseconds() - start)
            }
            return (Samples(milliseconds: times), last)
        }

        static func measureBetweenMarks<Failure: Error>(
            runs: Int, warmUps: Int = 1, _ body: () throws(Failure) -> (Mark, Mark)
        ) throws(Failure) -> Timing {
            for _ in 0..<warmUps { _ = try body() }
            var timing = Timing()
            for _ in 0..<max(1, runs) {
                let (start, end) = try body()
                timing.add(from: start, to: end)
            }
            return timing
        }

        /// `body` `runs` times after `warmUps` untimed calls, each call timed whole.
        static func measure<Result, Failure: Error>(
            runs: Int, warmUps: Int = 1, _ body: () throws(Failure) -> Result
        ) throws(Failure) -> Timing {
            try measureBetweenMarks(runs: runs, warmUps: warmUps) { () throws(Failure) -> (Mark, Mark) in
                let start = Mark()
                _ = try body()
                return (start, Mark())
            }
        }
    }

    /// A value behind an `NSLock`, shared between threads (`Mutex` needs macOS 15 / iOS 18).
    private final class Locked<Value>: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Value

        init(_ value: Value) { self.value = value }

        func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
            lock.lock()
            defer { lock.unlock() }
            return body(&value)
        }
    }

    /// `bytes` (a tds) with one more tracker, inserted after the opening of `"trackers"`.
    private static func withExtraTracker(_ bytes: [UInt8]) throws(BenchmarkError) -> [UInt8] {
        let key = Array(#""trackers""#.utf8)
        guard let keyStart = (0...(bytes.count - key.count)).first(where: { bytes[$0..<$0 + key.count].elementsEqual(key) }),
            let brace = bytes[keyStart...].firstIndex(of: UInt8(ascii: "{"))
        else { throw .usage("the blocklist has no \"trackers\" object") }
        let tracker = #""bench-update.example": {"domain": "bench-update.example", "owner": {"name": "Bench Update", "displayName": "Bench Update"}, "prevalence": 0.01, "fingerprinting": 0, "cookies": 0, "categories": [], "default": "block"},"#
        return Array(bytes[...brace]) + Array(tracker.utf8) + Array(bytes[(brace + 1)...])
    }

    /// The process's resident memory, from /proc/self/statm; 0 where there is none.
    private static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

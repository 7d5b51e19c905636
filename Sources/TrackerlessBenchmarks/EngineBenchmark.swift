import ContentRuleList
import Dispatch
import Foundation
import RuleEngineKit
import TrackerlessCore

/// Our rule engine on one rule list (the apple-tds list built by `RuleListBuilder`): compile time,
/// memory, the compiled file's size and load time, and decision latency per request over
/// adblock-rust's labelled requests, with a page cache reused in file order and with a fresh one
/// per request.
struct EngineBenchmark: Sendable {
    /// Per-request decision times of one pass set, with the cost of the timing itself.
    struct Latencies: Sendable {
        /// Each timed decision, in nanoseconds, sorted.
        let nanoseconds: [Double]
        /// The median of the same timed loop around a call that does nothing: the clock reads and
        /// the call, which every figure above includes.
        let timerOverhead: Double
        /// Requests blocked in one pass (a check that the decisions did real work).
        let blockedCount: Int

        /// The median decision, timer included.
        var median: Double { Self.percentile(nanoseconds, 0.5) }
        /// The 99th percentile, timer included.
        var p99: Double { Self.percentile(nanoseconds, 0.99) }
        /// The median with the timer's cost taken off.
        var netMedian: Double { max(0, median - timerOverhead) }
        /// The 99th percentile with the timer's cost taken off.
        var netP99: Double { max(0, p99 - timerOverhead) }

        /// Decides every request once untimed, then `passes` times timing each call, and times
        /// the same loop around a call that does nothing.
        static func measure(requests: [Request], passes: Int, _ decide: (Request) -> Bool) -> Latencies {
            let blocked = requests.count { decide($0) }
            var times = timedCalls(requests: requests, passes: passes, decide)
            times.sort()
            var idle = timedCalls(requests: requests, passes: passes) { $0.url.isEmpty }
            idle.sort()
            return Latencies(nanoseconds: times, timerOverhead: percentile(idle, 0.5), blockedCount: blocked)
        }

        /// Each call's time, in nanoseconds, pass after pass in request order. Not inlined, so
        /// that the idle loop and the real one are the same code around a different call.
        @inline(never)
        private static func timedCalls(requests: [Request], passes: Int, _ decide: (Request) -> Bool) -> [Double] {
            var times: [Double] = []
            times.reserveCapacity(requests.count * passes)
            var sink = 0
            for _ in 0..<max(1, passes) {
                for request in requests {
                    let start = DispatchTime.now().uptimeNanoseconds
                    if decide(request) { sink &+= 1 }
                    let end = DispatchTime.now().uptimeNanoseconds
                    times.append(Double(end &- start))
                }
            }
            if sink < 0 { times.append(0) }
            return times
        }

        /// The value below which `fraction` of `sorted` lies (nearest rank); 0 without values.
        static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            if fraction == 0.5 {
                let middle = sorted.count / 2
                return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
            }
            return sorted[min(sorted.count - 1, Int(fraction * Double(sorted.count)))]
        }
    }

    /// Rules compiled.
    let ruleCount: Int
    /// `RuleEngine(ruleLists:)`, in milliseconds.
    let compile: Samples
    /// `engine.memoryFootprint`, in bytes.
    let memoryFootprint: Int
    /// `engine.compiled().count`, in bytes.
    let compiledByteCount: Int
    /// Loading the engine from its file, in milliseconds.
    struct Load: Sendable {
        /// Reading the file and `RuleEngine(compiled:)`.
        let total: Samples
        /// Reading the file alone.
        let read: Samples
        /// `RuleEngine(compiled:)` alone.
        let initialization: Samples
    }

    /// Reading the compiled file and `RuleEngine(compiled:)`, in milliseconds.
    let load: Load
    /// Whether the engine loaded from its file blocks the same requests as the compiled one.
    let loadedEngineAgrees: Bool
    /// Requests whose applied actions differ from the reference evaluator's (should be 0).
    let referenceDisagreements: Int
    /// Decisions with one page cache reused over the requests in file order.
    let reusedCache: Latencies
    /// Decisions with a fresh page cache per request (`decision(for:)`).
    let freshCache: Latencies
    /// Requests decided per pass.
    let requestCount: Int
    /// Timed passes over the requests.
    let passes: Int

    /// Measures the engine on `ruleLists`, with `runs` timed compilations and loads after a
    /// warm-up and `passes` timed passes over `samples` after a warm-up pass.
    static func measure(ruleLists: [RuleList], samples: [RequestSample], runs: Int, passes: Int) throws(BenchmarkError) -> EngineBenchmark {
        let (compile, engine) = try Samples.measure(runs: runs) { () throws(BenchmarkError) in try compiledEngine(ruleLists) }
        let compiled = engine.compiled()
        let (load, loaded) = try loadTimes(compiled, runs: runs)
        let requests = samples.map { Request(url: $0.url, topURL: $0.sourceURL, resourceType: $0.resourceType) }
        var cache = RuleEngine.PageCache()
        let reused = Latencies.measure(requests: requests, passes: passes) { engine.decision(for: $0, cache: &cache).isBlocked }
        let fresh = Latencies.measure(requests: requests, passes: passes) { engine.decision(for: $0).isBlocked }
        let loadedBlocked = requests.count { loaded.decision(for: $0).isBlocked }
        let reference = try referenceEvaluator(ruleLists)
        // Each action with its rule, as the reference evaluator names them (a plain decision's
        // actions carry no rule indices, so it would differ on every matched request).
        let disagreements = requests.count { engine.actions(for: $0) != reference.actions(for: $0) }
        return EngineBenchmark(
            ruleCount: ruleLists.reduce(0) { $0 + $1.rules.count }, compile: compile,
            memoryFootprint: engine.memoryFootprint, compiledByteCount: compiled.count, load: load,
            loadedEngineAgrees: loadedBlocked == fresh.blockedCount, referenceDisagreements: disagreements,
            reusedCache: reused, freshCache: fresh, requestCount: requests.count, passes: max(1, passes))
    }

    /// The engine for `ruleLists`; WebKit's error for a list it would reject.
    static func compiledEngine(_ ruleLists: [RuleList]) throws(BenchmarkError) -> RuleEngine {
        do throws(RuleListError) {
            return try RuleEngine(ruleLists: ruleLists)
        } catch {
            throw .invalidInput(path: "the benchmarked rule list", detail: "\(error)")
        }
    }

    private static func referenceEvaluator(_ ruleLists: [RuleList]) throws(BenchmarkError) -> ReferenceEvaluator {
        do throws(RuleListError) {
            return try ReferenceEvaluator(ruleLists: ruleLists)
        } catch {
            throw .invalidInput(path: "the benchmarked rule list", detail: "\(error)")
        }
    }

    /// Writes `compiled` to a temporary file, then times reading it back and loading the engine:
    /// the whole, the read alone and `init(compiled:)` alone, in the same runs.
    private static func loadTimes(_ compiled: [UInt8], runs: Int) throws(BenchmarkError) -> (Load, RuleEngine) {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("trackerless-engine-\(ProcessInfo.processInfo.processIdentifier).bin").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        do throws(FileError) {
            try FileIO.writeAtomically(compiled, to: path)
        } catch {
            throw .invalidInput(path: path, detail: "cannot write the compiled engine: \(error)")
        }
        var reads: [Double] = [], inits: [Double] = []
        var engine: RuleEngine?
        for run in 0...max(1, runs) {
            let (read, bytes) = try Samples.timed { () throws(BenchmarkError) in try BenchmarkInputs.read(path, what: "the compiled engine") }
            let (initialization, loaded) = try Samples.timed { () throws(BenchmarkError) in
                do throws(CompiledEngineError) {
                    return try RuleEngine(compiled: bytes)
                } catch {
                    throw .invalidInput(path: path, detail: "\(error)")
                }
            }
            engine = loaded
            if run > 0 {  // run 0 is the warm-up
                reads.append(read)
                inits.append(initialization)
            }
        }
        guard let engine else { throw .invalidInput(path: path, detail: "no engine loaded") }
        let load = Load(
            total: Samples(milliseconds: zip(reads, inits).map { $0 + $1 }), read: Samples(milliseconds: reads),
            initialization: Samples(milliseconds: inits))
        return (load, engine)
    }
}

import Foundation
import TrackerDataKit
import TrackerlessCore
import TrackerlessRuntime

/// The runtime a host embeds (issue 14), on a real blocklist: a cold build of the protection
/// set, a warm-cache load (what a relaunch costs before WebKit's own filter-store lookup), an
/// update applied (read, parse, build, validate, swap, cache write), a site toggle, and the
/// memory of one set. Goals: warm launch 50 ms including WebKit's work (not measured here),
/// update 150 ms, toggle 100 ms, one set 10 MB.
///
/// Run with `TrackerlessBenchmarks --runtime-only [--tds FILE] [--runs N]`.
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
        // The same blocklist with one more byte of whitespace: another identifier, so another build.
        let changed = ProtectionInputs(trackerData: .bytes(bytes + [0x0A], name: name))

        let residentBefore = residentBytes()
        let (cold, set) = try Samples.timed { () throws(ProtectionError) in try ProtectionSet.load(inputs, cacheDirectory: directory) }
        let residentAfter = residentBytes()
        let (warm, warmSet) = try Samples.measure(runs: runs) { () throws(ProtectionError) in
            try ProtectionSet.load(inputs, cacheDirectory: directory)
        }
        let (parseOnly, _) = try Samples.measure(runs: runs) { () throws(ProtectionError) in
            try ProtectionSet.build(ProtectionInputs(trackerData: .bytes(Array(#"{"trackers":{},"entities":{},"domains":{}}"#.utf8), name: "empty")))
        }

        // The parts of a warm load.
        let (hashing, _) = Samples.measure(runs: runs) { SHA256.hexDigest(bytes) }
        let (parsing, trackerData) = try Samples.measure(runs: runs) { () throws(TrackerDataError) in
            try TrackerData(parsing: bytes, file: name)
        }
        let (resolving, _) = Samples.measure(runs: runs) { TrackerResolver(trackerData: trackerData) }

        let runtime = try ProtectionRuntime(inputs: inputs, cacheDirectory: directory)
        var useChanged = true
        let (update, _) = try Samples.measure(runs: max(3, runs / 2), warmUps: 0) { () throws(ProtectionError) in
            defer { useChanged.toggle() }
            return try runtime.updateOnCurrentThread(useChanged ? changed : inputs)
        }
        var off = true
        let (toggle, _) = try Samples.measure(runs: runs, warmUps: 0) { () throws(ProtectionError) in
            defer { off.toggle() }
            try runtime.setProtection(!off, forSite: "news.example")
        }

        func cell(_ samples: Samples) -> String {
            Formatting.decimal(samples.median, digits: 1) + " (" + Formatting.decimal(samples.minimum, digits: 1) + ")"
        }
        let lists = set.ruleLists.map { "\($0.kind.rawValue) \(Formatting.grouped($0.ruleCount)) rules" }.joined(separator: ", ")
        return [
            "Runtime (issue 14): \(name), \(runs) runs, median (min) ms",
            "  cold build (read, parse, rules, scripts, engine, validate, cache write): \(Formatting.decimal(cold, digits: 1)); \(lists)",
            "  warm-cache load (read and parse the inputs, resolver, lists + scripts + engine from the cache, checksums): \(cell(warm)); goal <= 50 incl. WebKit; origin \(warmSet.origin.rawValue)",
            "    parts: SHA-256 of the tds \(cell(hashing)), parsing the tds \(cell(parsing)), the resolver \(cell(resolving))",
            "    of which the fixed cost on an empty blocklist (build): \(cell(parseOnly))",
            "  update applied (read, parse, build, validate, swap, cache write): \(cell(update)); goal <= 150",
            "  site toggle (save, classifying resolver): \(cell(toggle)); goal <= 100",
            "  one set: \(Formatting.grouped(set.byteCount)) bytes held (lists' JSON, scripts, engine tables); "
                + "resident growth of the first load \(Formatting.grouped(max(0, residentAfter - residentBefore))) bytes; goal <= 10 MB",
        ].joined(separator: "\n") + "\n"
    }

    /// The process's resident memory, from /proc/self/statm; 0 where there is none.
    private static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

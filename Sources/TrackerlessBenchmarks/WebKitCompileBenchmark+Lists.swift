import Foundation
import TrackerlessCore

extension WebKitCompileBenchmark {
    /// WebKit's compile time for each of `lists` (JSON in memory), `runs` rounds interleaved in
    /// one harness process after a warm-up compilation, like ``measure(duckDuckGoPath:duckDuckGoRuleCount:duckDuckGoByteCount:variants:harness:runs:)``.
    static func measure(lists: [(name: String, json: [UInt8], ruleCount: Int)], harness: CompileHarness, runs: Int) -> WebKitCompileBenchmark {
        guard runs > 0 else { return WebKitCompileBenchmark(lists: [], skipReason: "--webkit-runs 0") }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("trackerless-engine-webkit-\(ProcessInfo.processInfo.processIdentifier)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            var files: [(name: String, paths: [String])] = []
            for list in lists {
                let path = "\(directory)/\(list.name).json"
                try FileIO.writeAtomically(list.json, to: path)
                files.append((list.name, [path]))
            }
            let warmUp = "\(directory)/warm-up.json"
            try FileIO.writeAtomically(Array(#"[{"trigger":{"url-filter":"warm-up"},"action":{"type":"block"}}]"#.utf8), to: warmUp)
            let times = try milliseconds(harness.compile(interleavedJobs(files, runs: runs, warmUp: warmUp)))
            return WebKitCompileBenchmark(
                lists: lists.map { list in
                    ListTimes(name: list.name, samples: Samples(milliseconds: times[list.name] ?? []), ruleCount: list.ruleCount, byteCount: list.json.count)
                },
                skipReason: nil)
        } catch {
            return WebKitCompileBenchmark(lists: [], skipReason: "\(error)")
        }
    }
}

import RuleBuilder
import TrackerData
import TrackerlessCore

/// The whole generation pipeline on one tds.json, timed stage by stage: read the file, parse it
/// (JSON and the Tracker Radar model), build the rule list with the default settings, encode it.
struct PipelineBenchmark: Sendable {
    /// Timings of each stage and of the whole, in the same runs.
    struct Stages: Sendable {
        var read: Samples
        var parse: Samples
        var build: Samples
        var encode: Samples
        var total: Samples
    }

    /// The stage timings.
    let stages: Stages
    /// Rules in the lists built.
    let ruleCount: Int
    /// How many lists the rules needed (1 unless they exceed WebKit's 150,000).
    let listCount: Int
    /// Bytes of the encoded lists.
    let byteCount: Int
    /// Trackers in the tds.json.
    let trackerCount: Int

    /// Runs the pipeline once untimed, then `runs` timed times.
    static func measure(trackerDataPath path: String, runs: Int) throws(BenchmarkError) -> PipelineBenchmark {
        var read: [Double] = [], parse: [Double] = [], build: [Double] = [], encode: [Double] = []
        var output = try runOnce(path: path)
        for _ in 0..<runs {
            output = try runOnce(path: path)
            read.append(output.read)
            parse.append(output.parse)
            build.append(output.build)
            encode.append(output.encode)
        }
        let total = zip(zip(read, parse), zip(build, encode)).map { $0.0 + $0.1 + $1.0 + $1.1 }
        return PipelineBenchmark(
            stages: Stages(
                read: Samples(milliseconds: read), parse: Samples(milliseconds: parse),
                build: Samples(milliseconds: build), encode: Samples(milliseconds: encode),
                total: Samples(milliseconds: total)),
            ruleCount: output.ruleCount, listCount: output.encoded.count,
            byteCount: output.encoded.reduce(0) { $0 + $1.count }, trackerCount: output.trackerCount)
    }

    /// One pass: each stage's time in milliseconds, and what came out.
    private typealias Pass = (read: Double, parse: Double, build: Double, encode: Double, ruleCount: Int, trackerCount: Int, encoded: [[UInt8]])

    private static func runOnce(path: String) throws(BenchmarkError) -> Pass {
        let (readTime, bytes) = try Samples.timed { () throws(BenchmarkError) in try BenchmarkInputs.read(path, what: "the tds.json") }
        let (parseTime, trackerData) = try Samples.timed { () throws(BenchmarkError) in
            do throws(TrackerDataError) {
                return try TrackerData(parsing: bytes, file: path)
            } catch {
                throw .invalidInput(path: path, detail: "\(error)")
            }
        }
        let (buildTime, build) = Samples.timed { RuleListBuilder(trackerData: trackerData).build() }
        let (encodeTime, encoded) = Samples.timed { build.ruleLists.map { $0.encoded() } }
        return (readTime, parseTime, buildTime, encodeTime, build.ruleCount, trackerData.trackers.count, encoded)
    }
}

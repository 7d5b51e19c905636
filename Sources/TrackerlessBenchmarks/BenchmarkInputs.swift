import ContentRuleList
import TrackerDataKit
import TrackerlessCore

/// The files every benchmark reads, loaded once, with messages that say which file is wrong.
struct BenchmarkInputs: Sendable {
    /// The tds.json, parsed.
    let trackerData: TrackerData
    /// DuckDuckGo's rule list as JSON bytes.
    let duckDuckGoRules: [UInt8]
    /// The requests for the decision benchmarks.
    let requests: [RequestSample]

    /// Reads and parses the inputs named by `options`.
    init(options: BenchmarkOptions) throws(BenchmarkError) {
        let tds = try Self.read(options.trackerDataPath, what: "the tds.json")
        do throws(TrackerDataError) {
            trackerData = try TrackerData(parsing: tds, file: options.trackerDataPath)
        } catch {
            throw .invalidInput(path: options.trackerDataPath, detail: "\(error)")
        }
        duckDuckGoRules = try Self.read(options.duckDuckGoRulesPath, what: "DuckDuckGo's rule list")
        let requestBytes = try Self.read(options.requestsPath, what: "the requests")
        requests = try RequestSample.samples(parsing: requestBytes, file: options.requestsPath)
    }

    /// The bytes of the file at `path`; `what` names it in the error.
    static func read(_ path: String, what: String) throws(BenchmarkError) -> [UInt8] {
        do throws(FileError) {
            return try FileIO.read(path: path)
        } catch {
            throw .missingInput(path: path, what: what, detail: "\(error)")
        }
    }
}

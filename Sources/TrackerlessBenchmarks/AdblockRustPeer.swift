import Foundation
import TrackerlessCore

/// Brave's adblock-rust on the same blocklist and requests, measured in the same run by
/// `Scripts/adblock-rust-peer.py` (the Python binding, PyPI `adblock` 0.6.0): the tds.json written
/// as Adblock Plus filters, each request decided by one timed `check_network_urls` call, the
/// Python call's own cost measured on a no-op function and taken off.
struct AdblockRustPeer: Sendable {
    /// What the script printed.
    struct Figures: Sendable {
        /// Requests decided per pass.
        let requestCount: Int
        /// Filters the tds.json became, and how many of them are regex filters.
        let filterCount: Int, regexFilterCount: Int
        /// Building the engine (`FilterSet` + `Engine`), median, in milliseconds.
        let compileMilliseconds: Double
        /// Per call, in nanoseconds, Python call included.
        let medianNanoseconds: Double, p99Nanoseconds: Double
        /// The same timed call on a Python no-op with the same arguments (median).
        let overheadNanoseconds: Double
        /// `median - overhead` and `p99 - overhead`.
        let netMedianNanoseconds: Double, netP99Nanoseconds: Double
        /// The same call on an engine without filters (binding, URL parsing and request set-up,
        /// no matching), median; context only, not taken off.
        let emptyEngineMedianNanoseconds: Double?
        /// Requests adblock-rust blocks.
        let blockedCount: Int
        /// Timed passes over the requests.
        let passes: Int
        /// The binding's version.
        let version: String
    }

    /// The figures, or why there are none.
    let figures: Figures?
    /// Why adblock-rust was not measured.
    let unavailableReason: String?
    /// The interpreter that ran the script.
    let interpreter: String

    /// Runs `script` with `interpreter` on `trackerDataPath` and `requestsPath`.
    static func measure(interpreter: String, script: String, trackerDataPath: String, requestsPath: String, passes: Int) -> AdblockRustPeer {
        func unavailable(_ reason: String) -> AdblockRustPeer {
            AdblockRustPeer(figures: nil, unavailableReason: reason, interpreter: interpreter)
        }
        let files = FileManager.default
        guard files.isReadableFile(atPath: script) else { return unavailable("no peer script at \(script)") }
        guard files.isExecutableFile(atPath: interpreter) else { return unavailable("no Python at \(interpreter) (give one with --peer-python)") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: interpreter)
        process.arguments = [script, "--tds", trackerDataPath, "--requests", requestsPath, "--passes", String(passes)]
        let output = Pipe()
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            return unavailable("cannot start \(interpreter) \(script): \(error)")
        }
        let bytes = Array(output.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            return unavailable("the peer script exited with status \(process.terminationStatus) (its message is above)")
        }
        let line = bytes.split(separator: 0x0A).last.map(Array.init) ?? []
        // The figures and strings of the script's last line (a member's last occurrence counts).
        let read = try? JSONReader.read(line) { (reader) throws(JSONReadError) -> (numbers: [String: Double], strings: [String: String])? in
            guard var members = try reader.enterObjectIfPresent() else { return nil }
            var numbers: [String: Double] = [:], strings: [String: String] = [:]
            while let key = try reader.nextKey(in: &members) {
                let name = key.string
                switch try reader.nextKind() {
                case .number: (numbers[name], strings[name]) = (try reader.readDouble(at: .root), nil)
                case .string: (numbers[name], strings[name]) = (nil, try reader.readString(at: .root))
                default:
                    (numbers[name], strings[name]) = (nil, nil)
                    try reader.skipValue()
                }
            }
            return (numbers, strings)
        }
        guard let (numbers, strings) = read ?? nil else {
            return unavailable("unexpected output from the peer script: \(String(decoding: line, as: UTF8.self))")
        }
        if let reason = strings["unavailable"] { return unavailable(reason) }
        func number(_ key: String) -> Double? { numbers[key] }
        guard let requests = number("requests"), let filters = number("filters"), let compile = number("compile_ms"),
              let median = number("median_ns"), let p99 = number("p99_ns"), let overhead = number("overhead_ns"),
              let netMedian = number("net_median_ns"), let blocked = number("blocked")
        else {
            return unavailable("the peer script's output lacks a figure: \(String(decoding: line, as: UTF8.self))")
        }
        var version = "unknown"
        if let text = strings["adblock_version"] { version = text }
        let figures = Figures(
            requestCount: Int(requests), filterCount: Int(filters), regexFilterCount: Int(number("regex_filters") ?? 0),
            compileMilliseconds: compile, medianNanoseconds: median, p99Nanoseconds: p99, overheadNanoseconds: overhead,
            netMedianNanoseconds: netMedian, netP99Nanoseconds: number("net_p99_ns") ?? max(0, p99 - overhead),
            emptyEngineMedianNanoseconds: number("empty_engine_median_ns"),
            blockedCount: Int(blocked), passes: Int(number("passes") ?? Double(passes)), version: version)
        return AdblockRustPeer(figures: figures, unavailableReason: nil, interpreter: interpreter)
    }
}

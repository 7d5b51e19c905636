import Foundation
import NavigationProtections
import TrackerDataKit
import TrackerlessCore
import TrackerlessRuntime

/// What a WebKitGTK web process pays at its start for the navigation protections' headers:
/// before, it read and parsed tds.json and the privacy configuration and composed the
/// protections; now it reads and parses the set's navigation data (`ProtectionSet.navigationData`)
/// and composes the same protections. Both are timed in the same run, alternated, so the ratio
/// holds on a loaded machine. (WebKitGTK swaps processes across sites: every new site can start
/// a process.)
///
/// Run with `TrackerlessBenchmarks --web-process-start-only [--tds FILE] [--privacy-config FILE] [--runs N]`.
enum WebProcessStartBenchmark {
    /// The entry point of `--web-process-start-only`.
    static func run(
        arguments: [String], packageRoot: String = BenchmarkOptions.packageRoot(filePath: #filePath)
    ) throws(BenchmarkError) -> String {
        var runs = 20
        var tds = URL(fileURLWithPath: packageRoot).deletingLastPathComponent().path + "/shared/data/tds/apple-tds.json"
        var configuration = packageRoot + "/Examples/privacy-config.json"
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--tds":
                guard let value = remaining.popFirst() else { throw .usage("--tds needs a file") }
                tds = value
            case "--privacy-config":
                guard let value = remaining.popFirst() else { throw .usage("--privacy-config needs a file") }
                configuration = value
            case "--runs":
                guard let text = remaining.popFirst(), let number = Int(text), number >= 1, number <= 1000 else {
                    throw .usage("--runs needs a number from 1 to 1000")
                }
                runs = number
            default: throw .usage("--web-process-start-only takes --tds FILE, --privacy-config FILE and --runs N, not \(argument)")
            }
        }
        do {
            return try measure(tds: tds, configuration: configuration, runs: runs)
        } catch {
            throw .invalidInput(path: tds, detail: "\(error)")
        }
    }

    private static func measure(tds: String, configuration: String, runs: Int) throws -> String {
        let directory = NSTemporaryDirectory() + "trackerless-web-process-bench-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let set = try ProtectionSet.build(ProtectionInputs(trackerData: .file(tds), privacyConfiguration: .file(configuration)))
        let navigationPath = directory + "/navigation.json"
        try FileIO.writeAtomically(set.navigationData, to: navigationPath)

        // Before: the inputs parsed in the web process, as RequestHook did.
        func fromInputs() throws -> NavigationProtector {
            NavigationProtector(
                configuration: try PrivacyConfiguration(contentsOfFile: configuration), trackerData: try TrackerData(contentsOfFile: tds),
                gpcHeaderScope: .everyRequest)
        }
        // Now: the set's navigation data.
        func fromData() throws -> NavigationProtector {
            NavigationProtector(try NavigationProtectionData(parsing: try FileIO.read(path: navigationPath)), gpcHeaderScope: .everyRequest)
        }
        _ = try fromInputs()
        _ = try fromData()
        var before: [Double] = [], after: [Double] = []
        for _ in 0..<runs {
            before.append(try Samples.timed(fromInputs).0)
            after.append(try Samples.timed(fromData).0)
        }
        let inputBytes = (try FileIO.read(path: tds)).count + (try FileIO.read(path: configuration)).count
        let old = Samples(milliseconds: before), new = Samples(milliseconds: after)
        return """
            Web-process start: the navigation protections' headers (\(runs) alternated runs, milliseconds)
            \(URL(fileURLWithPath: tds).lastPathComponent) + \(URL(fileURLWithPath: configuration).lastPathComponent) parsed: \
            median \(format(old.median)), min \(format(old.minimum)) (\(inputBytes) bytes)
            the set's navigation data parsed: median \(format(new.median)), min \(format(new.minimum)) (\(set.navigationData.count) bytes)
            ratio (inputs / navigation data, medians): \(format(old.median / max(new.median, 0.001)))×

            """
    }

    private static func format(_ value: Double) -> String { String(format: "%.2f", value) }
}

import ContentRuleList
import Foundation
import RuleBuilder
import RuleEngineKit
import TrackerDataKit
import TrackerlessCore

/// The whole build (parse, rule lists, cookie lists, engine) of a blocklist
/// shaped like apple-tds.json scaled 1×, 10×, 100× (each copy's trackers, entities, domains and
/// CNAMEs renamed `s<i>-…`), per tracker: wall time and peak memory (VmHWM) of a child process
/// that does nothing else, so that sizes do not share a heap. Per-tracker figures flat from 1× to
/// 100× mean cost linear in the input.
///
/// `swift run -c release TrackerlessBenchmarks --build-scaling-only [--factors 1,10,100] [--tds FILE]`
enum BuildScalingBenchmark {
    static func run(arguments: [String]) throws(BenchmarkError) -> String {
        let (factors, _, document) = try inputs(arguments, mode: "--build-scaling-only", factors: [1, 10, 100], smallest: 1)
        let directory = NSTemporaryDirectory() + "trackerless-scaling-\(getpid())"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var lines = ["Whole build (parse, rule lists, cookie lists, engine) per tracker, one child process per size"]
        lines.append("factor  trackers  tds MB   wall s    CPU s   peak MB  CPU µs/tracker  kB/tracker  lists  rules")
        for factor in factors {
            let scaled = scaled(document, by: factor)
            let file = directory + "/tds-\(factor).json"
            var writer = JSONWriter()
            writer.write(scaled)
            _ = FileManager.default.createFile(atPath: file, contents: Data(writer.bytes))
            let figures = try child(file)
            let trackers = Double(figures.trackers)
            lines.append(String(
                format: "%5d×  %8d  %6.1f  %7.2f  %7.2f  %8.1f  %14.1f  %10.2f  %5d  %d", factor, figures.trackers,
                Double(writer.count) / 1e6, figures.seconds, figures.cpuSeconds, Double(figures.peakKB) / 1e3,
                figures.cpuSeconds * 1e6 / trackers,
                Double(figures.peakKB) / trackers, figures.lists, figures.rules))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The options of a scaling benchmark (`--factors`, each at least `smallest`, and `--tds`)
    /// and the tds they name, read.
    static func inputs(
        _ arguments: [String], mode: String, factors defaultFactors: [Int], smallest: Int
    ) throws(BenchmarkError) -> (factors: [Int], path: String, document: JSONValue) {
        var factors = defaultFactors
        var path = BenchmarkOptions.packageRoot() + "/../shared/data/tds/apple-tds.json"
        let example = defaultFactors.map(String.init).joined(separator: ",")
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            guard let value = remaining.popFirst() else { throw .usage("\(argument) needs a value") }
            switch argument {
            case "--factors":
                factors = value.split(separator: ",").compactMap { Int($0) }.filter { $0 >= smallest }
                guard !factors.isEmpty else { throw .usage("--factors needs numbers such as \(example)") }
            case "--tds": path = value
            default: throw .usage("unknown option \(argument) for \(mode) (--factors \(example), --tds FILE)")
            }
        }
        let bytes = try BenchmarkInputs.read(path, what: "a tds.json")
        do throws(JSONReadError) {
            let document = try JSONReader.read(bytes) { (reader) throws(JSONReadError) in try reader.readValue() }
            return (factors, path, document)
        } catch {
            throw .invalidInput(path: path, detail: "\(error)")
        }
    }

    /// The figures a child prints: `trackers seconds cpuSeconds peakKB lists rules`.
    struct ChildFigures {
        var trackers = 0, seconds = 0.0, cpuSeconds = 0.0, peakKB = 0, lists = 0, rules = 0
    }

    /// Runs this executable with `--build-scaling-child FILE [CONFIGURATION]` and reads its one line.
    static func child(_ file: String, configuration: String? = nil) throws(BenchmarkError) -> ChildFigures {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--build-scaling-child", file] + (configuration.map { [$0] } ?? [])
        let output = Pipe()
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            throw .invalidInput(path: CommandLine.arguments[0], detail: "cannot run itself: \(error)")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let fields = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard process.terminationStatus == 0, fields.count == 6, let trackers = Int(fields[0]), let seconds = Double(fields[1]),
              let cpu = Double(fields[2]), let peak = Int(fields[3]), let lists = Int(fields[4]), let rules = Int(fields[5])
        else { throw .invalidInput(path: file, detail: "the child process failed: \(String(decoding: data, as: UTF8.self))") }
        return ChildFigures(trackers: trackers, seconds: seconds, cpuSeconds: cpu, peakKB: peak, lists: lists, rules: rules)
    }

    /// The child's work: builds from `file` (and the privacy configuration `configurationFile`)
    /// as the runtime does and prints its figures.
    static func runChild(file: String, configurationFile: String? = nil) throws(BenchmarkError) -> String {
        let start = MonotonicClock.now
        let bytes = try BenchmarkInputs.read(file, what: "a tds.json")
        let trackerData: TrackerData
        var configuration: PrivacyConfiguration?
        do throws(TrackerDataError) {
            trackerData = try TrackerData(parsing: bytes, file: file)
            if let configurationFile {
                configuration = try PrivacyConfiguration(contentsOfFile: configurationFile)
            }
        } catch {
            throw .invalidInput(path: configurationFile ?? file, detail: "\(error)")
        }
        let build = RuleListBuilder(trackerData: trackerData, configuration: configuration).build()
        let cookies = CookieRules(trackerData: trackerData, configuration: configuration).build()
        var encoded = 0
        for list in build.ruleLists + cookies.ruleLists { encoded += list.encoded().count }
        let engine: RuleEngine
        do throws(RuleListError) {
            engine = try RuleEngine(ruleLists: build.ruleLists)
        } catch {
            throw .invalidInput(path: file, detail: "\(error)")
        }
        let seconds = MonotonicClock.milliseconds(since: start) / 1e3
        withExtendedLifetime(engine) {}
        precondition(encoded > 0)
        // CPU of all threads (the build runs some in parallel): wall time follows the machine's load.
        var usage = rusage()
        #if os(Linux)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        return "\(trackerData.trackers.count) \(seconds) \(cpu) \(peakKilobytes()) \(build.ruleLists.count) \(build.ruleCount)\n"
    }

    /// VmHWM of this process, in kB; 0 where /proc is absent.
    private static func peakKilobytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return 0 }
        return line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap { Int($0) } ?? 0
    }

    /// `document` with `factor` copies of its trackers, entities, domains and CNAMEs, copy `i > 0`
    /// renamed: domains and rules prefixed `s<i>-`, entity names suffixed ` <i>`.
    static func scaled(_ document: JSONValue, by factor: Int) -> JSONValue {
        guard case .object(let root) = document else { return document }
        var trackers = JSONObject(), entities = JSONObject(), domains = JSONObject(), cnames = JSONObject()
        for copy in 0..<factor {
            func host(_ name: String) -> String { copy == 0 ? name : "s\(copy)-\(name)" }
            func entity(_ name: String) -> String { copy == 0 ? name : "\(name) \(copy)" }
            if case .object(let object)? = root["trackers"] {
                for (key, value) in zip(object.keys, object.values) {
                    trackers.append(host(key), renamedTracker(value, host: host, entity: entity))
                }
            }
            if case .object(let object)? = root["entities"] {
                for (key, value) in zip(object.keys, object.values) {
                    entities.append(entity(key), mapped(value) { field, value in
                        guard field == "domains", case .array(let list) = value else { return value }
                        return .array(list.map { if case .string(let name) = $0 { .string(host(name)) } else { $0 } })
                    })
                }
            }
            if case .object(let object)? = root["domains"] {
                for (key, value) in zip(object.keys, object.values) {
                    domains.append(host(key), { if case .string(let name) = value { .string(entity(name)) } else { value } }())
                }
            }
            if case .object(let object)? = root["cnames"] {
                for (key, value) in zip(object.keys, object.values) {
                    cnames.append(host(key), { if case .string(let name) = value { .string(host(name)) } else { value } }())
                }
            }
        }
        return .object(JSONObject([
            ("trackers", .object(trackers)), ("entities", .object(entities)), ("domains", .object(domains)), ("cnames", .object(cnames)),
        ]))
    }

    private static func renamedTracker(_ value: JSONValue, host: (String) -> String, entity: (String) -> String) -> JSONValue {
        mapped(value) { field, value in
            switch (field, value) {
            case ("domain", .string(let domain)): .string(host(domain))
            case ("owner", _): mapped(value) { key, name in if key == "name", case .string(let text) = name { .string(entity(text)) } else { name } }
            case ("rules", .array(let rules)):
                .array(rules.map { rule in mapped(rule) { key, text in if key == "rule", case .string(let regex) = text { .string(host(regex)) } else { text } } })
            default: value
            }
        }
    }

    /// `value`'s members with `transform` applied to each, in order; `value` itself when not an object.
    private static func mapped(_ value: JSONValue, _ transform: (String, JSONValue) -> JSONValue) -> JSONValue {
        guard case .object(let object) = value else { return value }
        var result = JSONObject()
        for (key, member) in zip(object.keys, object.values) { result.append(key, transform(key, member)) }
        return .object(result)
    }
}

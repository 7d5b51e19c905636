import Foundation
import TrackerlessCore

/// The whole build (parse, rule lists, cookie lists, engine) of apple-tds.json with a privacy
/// configuration of 0×, 1×, 10×, 100× a unit of configuration rules, per configuration rule:
/// CPU time and peak memory above the build without any, in a child process per size (as
/// ``BuildScalingBenchmark``). A unit is 500 rules, about what DuckDuckGo's configuration carries:
/// 300 tracker-allowlist rules on the tds's own trackers (each for one site), 100 unprotected
/// sites and 100 content-blocking exceptions. Per-rule figures flat from 1× to 100× mean cost
/// linear in the configuration.
///
/// `swift run -c release TrackerlessBenchmarks --configuration-scaling-only [--factors 0,1,10,100] [--tds FILE]`
enum ConfigurationScalingBenchmark {
    /// Rules of each kind in one unit.
    static let allowlistRulesPerUnit = 300
    static let unprotectedSitesPerUnit = 100
    static let exceptionsPerUnit = 100

    static func run(arguments: [String]) throws(BenchmarkError) -> String {
        let (factors, path, document) = try BuildScalingBenchmark.inputs(
            arguments, mode: "--configuration-scaling-only", factors: [0, 1, 10, 100], smallest: 0)
        guard case .object(let root) = document, case .object(let object)? = root["trackers"], !object.keys.isEmpty else {
            throw .invalidInput(path: path, detail: "no trackers to allowlist rules on")
        }
        let trackers = object.keys
        let directory = NSTemporaryDirectory() + "trackerless-configuration-scaling-\(getpid())"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let unit = allowlistRulesPerUnit + unprotectedSitesPerUnit + exceptionsPerUnit
        var lines = ["Whole build of \(path) with a configuration of N × \(unit) rules, one child process per size;"]
        lines.append("per rule: CPU and peak above the first size's, divided by the rules added")
        lines.append("factor   rules  config KB    CPU s   peak MB  CPU µs/rule  kB/rule  lists  list rules")
        var base: BuildScalingBenchmark.ChildFigures?
        var baseRules = 0
        for factor in factors {
            let file = directory + "/configuration-\(factor).json"
            var writer = JSONWriter()
            writer.write(configuration(units: factor, trackers: trackers))
            _ = FileManager.default.createFile(atPath: file, contents: Data(writer.bytes))
            let figures = try BuildScalingBenchmark.child(path, configuration: file)
            let rules = factor * unit
            var perRule = "           –        –"
            if let base, rules > baseRules {
                let added = Double(rules - baseRules)
                perRule = String(format: "%12.2f  %7.3f", (figures.cpuSeconds - base.cpuSeconds) * 1e6 / added,
                                 Double(figures.peakKB - base.peakKB) / added)
            } else {
                base = figures
                baseRules = rules
            }
            lines.append(String(format: "%5d×  %6d  %9.1f  %7.2f  %8.1f  ", factor, rules, Double(writer.count) / 1e3,
                                figures.cpuSeconds, Double(figures.peakKB) / 1e3)
                + perRule + String(format: "  %5d  %d", figures.lists, figures.rules))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A privacy configuration with `units` units of rules, the allowlist's on `trackers` in turn.
    static func configuration(units: Int, trackers: [String]) -> JSONValue {
        var allowlisted = JSONObject()
        var rulesByTracker: [String: [JSONValue]] = [:]
        var order: [String] = []
        var unprotected: [JSONValue] = [], exceptions: [JSONValue] = []
        for unit in 0..<units {
            for index in 0..<allowlistRulesPerUnit {
                let tracker = trackers[(unit * allowlistRulesPerUnit + index) % trackers.count]
                if rulesByTracker[tracker] == nil { order.append(tracker) }
                rulesByTracker[tracker, default: []].append(.object(JSONObject([
                    ("rule", .string("\(tracker)/allowed-\(unit)-\(index)/")),
                    ("domains", .array([.string("site-\(unit)-\(index).example")])),
                    ("reason", .string("benchmark")),
                ])))
            }
            for index in 0..<unprotectedSitesPerUnit {
                unprotected.append(.object(JSONObject([("domain", .string("unprotected-\(unit)-\(index).example")), ("reason", .string(""))])))
            }
            for index in 0..<exceptionsPerUnit {
                exceptions.append(.object(JSONObject([("domain", .string("exception-\(unit)-\(index).example")), ("reason", .string(""))])))
            }
        }
        for tracker in order { allowlisted.append(tracker, .object(JSONObject([("rules", .array(rulesByTracker[tracker] ?? []))]))) }
        return .object(JSONObject([
            ("unprotectedTemporary", .array(unprotected)),
            ("features", .object(JSONObject([
                ("contentBlocking", .object(JSONObject([("state", .string("enabled")), ("exceptions", .array(exceptions))]))),
                ("trackerAllowlist", .object(JSONObject([
                    ("state", .string("enabled")),
                    ("settings", .object(JSONObject([("allowlistedTrackers", .object(allowlisted))]))),
                ]))),
            ]))),
        ]))
    }
}

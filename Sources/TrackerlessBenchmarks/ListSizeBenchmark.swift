import ContentRuleList
import RuleBuilder
import RuleEngineKit
import TrackerDataKit
import TrackerlessCore

/// The lists of DuckDuckGo's two blocklists side by side — their count, rules
/// and JSON bytes, the build's CPU time, the engine compiled from them — with an entity's lists of
/// its own (the default) and without (`minimumBytesSavedByEntityList = Int.max` and
/// `entityListsForMostSiteEntries = 0`, every tracker's
/// first-party exception naming all its owner's sites, as before). Blocklists are measured in
/// turn within each run, so that their ratio comes from one run.
///
/// `swift run -c release TrackerlessBenchmarks --list-sizes-only [--runs N] [--tds FILE] [--extension-tds FILE]`
enum ListSizeBenchmark {
    /// One blocklist built one way.
    struct Figures {
        var blockingLists = 0, blockingRules = 0, blockingBytes = 0, largestBlockingList = 0
        var cookieLists = 0, cookieRules = 0, cookieBytes = 0
        var engineBytes = 0
        /// Thread CPU milliseconds of each run: `build()` (with its trigger check), the encoding of
        /// its lists, `CookieRules.build()`, and `RuleEngine(ruleLists:)` of the blocking lists.
        var build: [Double] = [], encode: [Double] = [], cookieBuild: [Double] = [], engine: [Double] = []
    }

    static func run(arguments: [String]) throws(BenchmarkError) -> String {
        var runs = 10
        let root = BenchmarkOptions.packageRoot()
        var files = [
            ("apple-tds.json", root + "/../shared/data/tds/apple-tds.json"),
            ("extension-tds.json", root + "/../shared/data/tds/extension-tds.json"),
        ]
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            guard let value = remaining.popFirst() else { throw .usage("\(argument) needs a value") }
            switch argument {
            case "--runs":
                guard let number = Int(value), number > 0 else { throw .usage("--runs needs a positive number") }
                runs = number
            case "--tds": files[0] = (fileName(value), value)
            case "--extension-tds": files[1] = (fileName(value), value)
            default: throw .usage("unknown option \(argument) for --list-sizes-only (--runs N, --tds FILE, --extension-tds FILE)")
            }
        }
        var trackerData: [TrackerData] = []
        for (_, path) in files {
            let bytes = try BenchmarkInputs.read(path, what: "a tds.json")
            do throws(TrackerDataError) {
                trackerData.append(try TrackerData(parsing: bytes, file: path))
            } catch {
                throw .invalidInput(path: path, detail: "\(error)")
            }
        }
        let ways: [(name: String, separates: Bool)] = [("entity lists (default)", true), ("no entity lists (before)", false)]
        var figures = Array(repeating: Array(repeating: Figures(), count: files.count), count: ways.count)
        for run in 0...runs {
            for (wayIndex, way) in ways.enumerated() {
                for (fileIndex, data) in trackerData.enumerated() {
                    // The warm-up (run 0) fills in the sizes; its times are dropped.
                    measure(data, separatingEntities: way.separates, into: &figures[wayIndex][fileIndex], timed: run > 0)
                }
            }
        }
        var lines = [
            "Rule lists of both blocklists: thread CPU ms, median of \(runs) runs after a warm-up",
            "",
            Formatting.padded("", 54) + ["lists", "rules", "JSON", "largest", "build", "encode", "engine", "compiled"]
                .map { Formatting.padded($0, 11, right: true) }.joined(),
        ]
        for (wayIndex, way) in ways.enumerated() {
            for (fileIndex, (name, _)) in files.enumerated() {
                let figure = figures[wayIndex][fileIndex]
                lines.append(Formatting.padded("\(name), \(way.name), blocking", 54) + [
                    Formatting.grouped(figure.blockingLists), Formatting.grouped(figure.blockingRules),
                    Formatting.megabytes(figure.blockingBytes), Formatting.megabytes(figure.largestBlockingList),
                    Formatting.decimal(Samples(milliseconds: figure.build).median, digits: 1),
                    Formatting.decimal(Samples(milliseconds: figure.encode).median, digits: 1),
                    Formatting.decimal(Samples(milliseconds: figure.engine).median, digits: 1),
                    Formatting.megabytes(figure.engineBytes),
                ].map { Formatting.padded($0, 11, right: true) }.joined())
                lines.append(Formatting.padded("\(name), \(way.name), cookies", 54) + [
                    Formatting.grouped(figure.cookieLists), Formatting.grouped(figure.cookieRules),
                    Formatting.megabytes(figure.cookieBytes), "",
                    Formatting.decimal(Samples(milliseconds: figure.cookieBuild).median, digits: 1),
                ].map { Formatting.padded($0, 11, right: true) }.joined())
            }
        }
        if files.count == 2 {
            let (apple, other) = (figures[0][0], figures[0][1])
            func ratio(_ a: Double, _ b: Double) -> String { Formatting.decimal(b > 0 ? a / b : .nan, digits: 2) }
            lines += [
                "",
                "\(files[1].0) / \(files[0].0), entity lists, same runs (goal: JSON ≤ 2.5, update ≤ 2):",
                "  blocking JSON \(ratio(Double(other.blockingBytes), Double(apple.blockingBytes)))"
                    + ", cookie JSON \(ratio(Double(other.cookieBytes), Double(apple.cookieBytes)))"
                    + ", all lists \(ratio(Double(other.blockingBytes + other.cookieBytes), Double(apple.blockingBytes + apple.cookieBytes)))"
                    + ", build \(ratio(Samples(milliseconds: other.build).median, Samples(milliseconds: apple.build).median))"
                    + ", build + encode + cookies + engine \(ratio(total(other), total(apple)))",
            ]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The last component of `path`, for the table's labels.
    private static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// The median CPU time of everything an update does with the lists here.
    private static func total(_ figure: Figures) -> Double {
        [figure.build, figure.encode, figure.cookieBuild, figure.engine].reduce(0) { $0 + Samples(milliseconds: $1).median }
    }

    private static func measure(_ data: TrackerData, separatingEntities: Bool, into figure: inout Figures, timed: Bool) {
        var settings = RuleListBuilder.Settings()
        if !separatingEntities {
            settings.minimumBytesSavedByEntityList = .max
            settings.entityListsForMostSiteEntries = 0
        }
        var start = BloomFilterBenchmark.threadCPUMilliseconds()
        func lap(_ samples: inout [Double]) {
            let now = BloomFilterBenchmark.threadCPUMilliseconds()
            if timed { samples.append(now - start) }
            start = now
        }
        let build = RuleListBuilder(trackerData: data, settings: settings).build()
        lap(&figure.build)
        let encoded = build.ruleLists.map { $0.encoded() }
        lap(&figure.encode)
        let cookies = CookieRules(trackerData: data, settings: settings).build()
        lap(&figure.cookieBuild)
        let engine = try? RuleEngine(ruleLists: build.ruleLists)
        lap(&figure.engine)
        guard !timed else { return }
        figure.blockingLists = build.ruleLists.count
        figure.blockingRules = build.ruleCount
        figure.blockingBytes = encoded.reduce(0) { $0 + $1.count }
        figure.largestBlockingList = encoded.map(\.count).max() ?? 0
        figure.cookieLists = cookies.ruleLists.count
        figure.cookieRules = cookies.ruleCount
        figure.cookieBytes = cookies.ruleLists.reduce(0) { $0 + $1.encoded().count }
        figure.engineBytes = engine?.compiled().count ?? 0
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TrackerDataKit
import TrackerlessCore

/// The Tracker Radar resolver alone: nanoseconds a decision over adblock-rust's 8,276 labelled
/// request URLs, each decided once a pass (no caching anywhere), from a third-party site and from
/// a mix of sites. Pre-parsed URLs are how ``PrivacyStats`` calls it; the string form parses
/// both URLs each call. Times are thread CPU time (the machine is shared); the median of the runs
/// is the figure. Goal: <= 1.5 us a decision, ideally < 1 us.
///
/// Run with `TrackerlessBenchmarks --resolver-only [--tds FILE] [--requests FILE] [--runs N] [--json]`.
struct ResolverBenchmark: Sendable {
    let trackerDataPath: String
    let runs: Int
    let requestCount: Int
    /// Resolver construction (every rule regex compiled), milliseconds.
    let setUp: Samples
    // The decision figures below hold nanoseconds a decision in `Samples.milliseconds`.
    /// Nanoseconds a decision, pre-parsed URLs, site `https://news.example/`.
    let parsedThirdParty: Samples
    /// Nanoseconds a decision, pre-parsed URLs, each request from each of ``sites`` in turn.
    let parsedMixedSites: Samples
    /// Nanoseconds a decision through the string API (both URLs parsed each call).
    let strings: Samples
    /// Trackers among the decisions of one pass, for scale.
    let trackerCount: Int

    static let sites = [
        "https://news.example/", "https://www.google.com/search", "https://www.facebook.com/",
        "https://www.bbc.co.uk/news", "https://shop.example.co.uk/cart",
    ]

    /// The blocklist and the labelled requests, read.
    static func inputs(trackerDataPath: String, requestsPath: String) throws(BenchmarkError) -> (TrackerData, [RequestSample]) {
        do {
            return (
                try TrackerData(contentsOfFile: trackerDataPath),
                try RequestSample.samples(parsing: FileIO.read(path: requestsPath), file: requestsPath))
        } catch let error as BenchmarkError {
            throw error
        } catch {
            throw .invalidInput(path: trackerDataPath, detail: "\(error)")
        }
    }

    /// `[--tds FILE] [--requests FILE] [--runs N] [--json]` read as the other sections read them
    /// (default 15 runs), both inputs checked to exist.
    static func options(arguments: [String]) throws(BenchmarkError) -> BenchmarkOptions {
        let arguments = arguments.contains("--runs") ? arguments : arguments + ["--runs", "15"]
        let options = try BenchmarkOptions(arguments: arguments, packageRoot: BenchmarkOptions.packageRoot())
        for (path, what) in [(options.trackerDataPath, "the Tracker Radar blocklist"), (options.requestsPath, "the labelled requests")]
        where !FileManager.default.fileExists(atPath: path) {
            throw .missingInput(path: path, what: what, detail: "no such file")
        }
        return options
    }

    static func measure(trackerDataPath: String, requestsPath: String, runs: Int) throws(BenchmarkError) -> ResolverBenchmark {
        let (trackerData, samples) = try inputs(trackerDataPath: trackerDataPath, requestsPath: requestsPath)
        let (setUp, resolver) = Samples.measure(runs: max(3, runs / 3)) { TrackerResolver(trackerData: trackerData) }
        let requests = samples.compactMap { sample in CanonicalURL(sample.url).map { ($0, sample.requestType) } }
        // Apart, so that the timed loops pass array elements without copying tuples.
        let urls = requests.map(\.0)
        let types = requests.map(\.1)
        let topURLs = sites.compactMap(CanonicalURL.init)
        let thirdParty = topURLs[0]

        var trackers = 0
        for (url, type) in requests where resolver.decision(forRequestURL: url, topURL: thirdParty, type: type).isTracker {
            trackers += 1
        }
        let parsedThirdParty = nanosecondsPerCall(runs: runs, count: urls.count) { index in
            resolver.decision(forRequestURL: urls[index], topURL: thirdParty, type: types[index]).isBlocked
        }
        let parsedMixed = nanosecondsPerCall(runs: runs, count: urls.count) { index in
            resolver.decision(forRequestURL: urls[index], topURL: topURLs[index % topURLs.count], type: types[index]).isBlocked
        }
        let strings = nanosecondsPerCall(runs: runs, count: samples.count) { index in
            resolver.decision(forRequestURL: samples[index].url, topURL: sites[0], type: samples[index].requestType)?.isBlocked
                == true
        }
        return ResolverBenchmark(
            trackerDataPath: trackerDataPath, runs: runs, requestCount: requests.count, setUp: setUp,
            parsedThirdParty: parsedThirdParty, parsedMixedSites: parsedMixed, strings: strings, trackerCount: trackers)
    }

    /// The entry point of `--resolver-only`: `[--tds FILE] [--requests FILE] [--runs N] [--json]`, read
    /// as the other sections read them (default 15 runs).
    static func run(arguments: [String]) throws(BenchmarkError) -> String {
        let options = try options(arguments: arguments)
        let report = try measure(trackerDataPath: options.trackerDataPath, requestsPath: options.requestsPath, runs: options.runs)
        return options.printsJSON ? report.json : report.table
    }

    /// The figures as a table.
    var table: String {
        func nanoseconds(_ samples: Samples) -> String {
            "\(Formatting.grouped(Int(samples.median.rounded()))) ns (best \(Formatting.grouped(Int(samples.minimum.rounded()))))"
        }
        return """
            Tracker resolver: \(URL(fileURLWithPath: trackerDataPath).lastPathComponent), \
            \(Formatting.grouped(requestCount)) request URLs (\(Formatting.grouped(trackerCount)) trackers), \(runs) runs, \
            thread CPU time, median a decision
              pre-parsed URLs, third-party site:   \(nanoseconds(parsedThirdParty)); goal <= 1,500 ns
              pre-parsed URLs, \(Self.sites.count) sites in turn:    \(nanoseconds(parsedMixedSites))
              strings (both URLs parsed per call): \(nanoseconds(strings))
              resolver set-up (rules compiled):    \(Formatting.decimal(setUp.median, digits: 2)) ms

            """
    }

    /// The figures as one JSON object.
    var json: String {
        JSONValue.object(JSONObject([
            ("tds", .string(trackerDataPath)), ("runs", .number(Double(runs))), ("requests", .number(Double(requestCount))),
            ("parsed_third_party_ns_median", .number(parsedThirdParty.median.rounded())),
            ("parsed_third_party_ns_best", .number(parsedThirdParty.minimum.rounded())),
            ("parsed_mixed_sites_ns_median", .number(parsedMixedSites.median.rounded())),
            ("strings_ns_median", .number(strings.median.rounded())),
            ("set_up_ms_median", .number(setUp.median)),
        ])).jsonString() + "\n"
    }

    /// Nanoseconds a call of `body` over indices `0..<count`, each of `runs` passes after one
    /// warm-up timed in thread CPU time.
    static func nanosecondsPerCall(runs: Int, count: Int, _ body: (Int) -> Bool) -> Samples {
        var passes: [Double] = []
        var start = timespec()
        var end = timespec()
        var trueCount = 0
        for pass in 0...runs {
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start)
            for index in 0..<count where body(index) { trueCount += 1 }
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &end)
            if pass > 0 { passes.append((Double(end.tv_sec - start.tv_sec) * 1e9 + Double(end.tv_nsec - start.tv_nsec)) / Double(count)) }
        }
        if trueCount == -1 { print(trueCount) }
        return Samples(milliseconds: passes)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import PrivacyStatsKit
import TrackerDataKit
import TrackerlessCore

/// The privacy-dashboard statistics: how fast ``PrivacyStats`` ingests the scripts'
/// messages, classification by the resolver included; how long a dashboard snapshot takes; how
/// much memory a tab holds at its cap.
///
/// The workload: `pages` pages on 50 sites, each receiving `eventsPerPage` request events (in
/// messages of 200) drawn from adblock-rust's 8,276 labelled request URLs, half of them loaded
/// and half failed, the way the inference script reports them. Times are thread CPU time, since
/// the machine is shared. Goals: ingest >= 500,000 requests/s on one core; a snapshot of a page
/// with 500 trackers <= 1 ms.
///
/// Also `trackerless stats`'s replay of a recording with 40,000 open tabs (it once took
/// 58 s when each message scanned every tab), parsing included.
///
/// Run with `TrackerlessBenchmarks --stats-only [--tds FILE] [--requests FILE] [--runs N] [--json]`.
struct StatsBenchmark: Sendable {
    let trackerDataPath: String
    let runs: Int
    let requestCount: Int
    /// Resolver decisions per second over every request URL (one site).
    let resolverDecisionsPerSecond: Double
    /// Events per second through `receive(.json(...))`: decode, checks, classification, aggregation.
    let ingestJSON: Throughput
    /// Events per second through `receive(ScriptMessage)`: classification and aggregation only.
    let ingestDecoded: Throughput
    /// Events per second through `receive(.json(...))` when every request is new to the page,
    /// the site and the statistics: the resolver runs for nearly every event (the worst case).
    let ingestCold: Throughput
    /// Snapshot of a page with `snapshotTrackers` distinct tracker hosts, milliseconds.
    let snapshot: Samples
    let snapshotTrackers: Int
    /// Resident bytes one tab adds when filled to ``PrivacyStats/Limits/maxRequestsPerPage``.
    let bytesPerFullTab: Int
    let requestsPerFullTab: Int
    /// Milliseconds to read and replay a recording of `replayTabs` tabs, each navigated once
    /// and sent one message, all open at the end.
    let replay: Samples
    let replayTabs: Int

    struct Throughput: Sendable {
        /// Events per second, median and best run.
        var median: Double
        var best: Double
        var events: Int
    }

    static let secret = ScriptSecret(hex: "5ca1ab1e5ca1ab1e5ca1ab1e5ca1ab1e")!

    static func measure(
        trackerDataPath: String, requestsPath: String, runs: Int, pages: Int = 200, eventsPerPage: Int = 500
    ) throws(BenchmarkError) -> StatsBenchmark {
        let trackerData: TrackerData
        do {
            trackerData = try TrackerData(contentsOfFile: trackerDataPath)
        } catch {
            throw .invalidInput(path: trackerDataPath, detail: "\(error)")
        }
        let requests = try loadRequests(requestsPath)
        let resolver = TrackerResolver(trackerData: trackerData)

        // Memory: tabs filled to the per-page cap with distinct URLs.
        let limits = PrivacyStats.Limits.default
        let tabs = 20
        let before = residentBytes()
        var stats: PrivacyStats? = PrivacyStats(resolver: resolver, secrets: [secret])
        for tab in 0..<tabs {
            let url = "https://www.flood\(tab).example/"
            stats?.didCommitNavigation(tab: TabID("\(tab)"), url: url)
            var sequence = 0
            for start in stride(from: 0, to: limits.maxRequestsPerPage + 1000, by: 200) {
                let events = (start..<start + 200).map { index -> ObservedEvent in
                    let request = requests[index % requests.count]
                    return .request(url: request.url + "?flood=\(index)", type: request.type, state: .loaded)
                }
                let message = ScriptMessage(
                    secret: secret.value, script: .inference, page: .init(id: "f100d0000000000\(tab % 10)", url: url, frame: url, isTopFrame: true),
                    sequence: sequence, events: events)
                sequence += 1
                _ = stats?.receive(message, tab: TabID("\(tab)"))
            }
        }
        let after = residentBytes()
        let held = stats?.snapshot(tab: "0").requests.observed ?? 0
        stats = nil

        // The resolver alone, for reference.
        let parsed = requests.compactMap { request in CanonicalURL(request.url).map { ($0, request.type) } }
        let site = CanonicalURL("https://news.example/")!
        let resolverTimes = (0..<max(1, runs)).map { _ in
            cpuTime { for (url, type) in parsed { blackHole(resolver.decision(forRequestURL: url, topURL: site, type: type).isBlocked) } }
        }
        let resolverRate = Double(parsed.count) / (Samples(milliseconds: resolverTimes).median / 1000)

        let browsing = workload(requests: requests, pages: pages, sites: 20, poolPerSite: 400, eventsPerPage: eventsPerPage)
        let cold = workload(requests: requests, pages: pages, sites: pages, poolPerSite: requests.count, eventsPerPage: eventsPerPage)
        let jsonRate = throughput(ingest(browsing, json: true, resolver: resolver, runs: runs), events: pages * eventsPerPage)
        let decodedRate = throughput(ingest(browsing, json: false, resolver: resolver, runs: runs), events: pages * eventsPerPage)
        let coldRate = throughput(ingest(cold, json: true, resolver: resolver, runs: runs), events: pages * eventsPerPage)

        // A page with 500 distinct trackers.
        let trackerDomains = trackerData.trackers.keys.sorted().prefix(500)
        var page = PageStats(url: "https://news.example/", resolver: resolver)
        for domain in trackerDomains {
            page.record(.request(url: "https://\(domain)/t.js", type: .script, state: .failed))
        }
        let (snapshotSamples, last) = Samples.measure(runs: max(runs, 100)) { page.snapshot() }
        let snapshotTrackers = last.trackers.blocked + last.trackers.allowed

        let replayTabs = 40_000
        let recording = openTabsRecording(tabs: replayTabs, requests: requests)
        let replayTimes = try (0...min(max(1, runs), 3)).map { _ throws(BenchmarkError) in
            let stats = PrivacyStats(resolver: resolver, secrets: [secret])
            var pages = 0
            var failure: StatsRecordingError?
            let time = cpuTime {
                do throws(StatsRecordingError) {
                    pages = try StatsRecording(parsing: recording, file: "tabs.jsonl").replay(into: stats).pages.count
                } catch {
                    failure = error
                }
            }
            if let failure { throw .invalidInput(path: "tabs.jsonl", detail: "\(failure)") }
            guard pages == replayTabs else { throw .invalidInput(path: "tabs.jsonl", detail: "\(pages) pages replayed") }
            return time
        }.dropFirst()

        return StatsBenchmark(
            trackerDataPath: trackerDataPath, runs: runs, requestCount: requests.count,
            resolverDecisionsPerSecond: resolverRate, ingestJSON: jsonRate, ingestDecoded: decodedRate, ingestCold: coldRate,
            snapshot: snapshotSamples, snapshotTrackers: snapshotTrackers,
            bytesPerFullTab: max(0, after - before) / tabs, requestsPerFullTab: held,
            replay: Samples(milliseconds: Array(replayTimes)), replayTabs: replayTabs)
    }

    /// The entry point of `--stats-only`: `[--tds FILE] [--requests FILE] [--runs N] [--json]`.
    static func run(
        arguments: [String], packageRoot: String = StatsBenchmark.packageRoot()
    ) throws(BenchmarkError) -> String {
        var runs = 5
        var printsJSON = false
        let shared = URL(fileURLWithPath: packageRoot).deletingLastPathComponent().path + "/shared/data/"
        var trackerDataPath = shared + "tds/apple-tds.json"
        var requestsPath = shared + "requests/matching-test-requests.json"
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--json": printsJSON = true
            case "--tds", "--requests":
                guard let value = remaining.popFirst() else { throw .usage("\(argument) needs a file") }
                if argument == "--tds" { trackerDataPath = value } else { requestsPath = value }
            case "--runs":
                guard let text = remaining.popFirst(), let number = Int(text), (1...1000).contains(number) else {
                    throw .usage("--runs needs a number from 1 to 1000")
                }
                runs = number
            default: throw .usage("--stats-only takes --tds FILE, --requests FILE, --runs N and --json, not \(argument)")
            }
        }
        for (path, what) in [(trackerDataPath, "the Tracker Radar blocklist"), (requestsPath, "the labelled requests")]
        where !FileManager.default.fileExists(atPath: path) {
            throw .missingInput(path: path, what: what, detail: "no such file")
        }
        let report = try measure(trackerDataPath: trackerDataPath, requestsPath: requestsPath, runs: runs)
        return printsJSON ? report.json : report.table
    }

    /// The figures as a table.
    var table: String {
        func rate(_ value: Double) -> String { Formatting.grouped(Int(value.rounded())) + "/s" }
        return """
            Privacy statistics: \(URL(fileURLWithPath: trackerDataPath).lastPathComponent), \
            \(Formatting.grouped(requestCount)) request URLs, \(runs) runs, thread CPU time
              resolver alone: \(rate(resolverDecisionsPerSecond)) decisions
              ingest, browsing (200 pages on 20 sites, 500 requests a page from a pool of 400 per site), JSON bodies: \
            \(rate(ingestJSON.median)) requests (best \(rate(ingestJSON.best))); goal >= 500,000/s
              ingest, browsing, decoded messages: \(rate(ingestDecoded.median)) requests (best \(rate(ingestDecoded.best)))
              ingest, cold (every request new to its page and its site; the 8,276 URLs recur across sites), JSON bodies: \(rate(ingestCold.median)) requests \
            (best \(rate(ingestCold.best)))
              snapshot of a page with \(snapshotTrackers) trackers: \(Formatting.decimal(snapshot.median, digits: 3)) ms \
            (min \(Formatting.decimal(snapshot.minimum, digits: 3))); goal <= 1 ms
              memory of a tab at its cap (\(Formatting.grouped(requestsPerFullTab)) requests): \
            \(Formatting.grouped(bytesPerFullTab)) bytes
              trackerless stats's replay of \(Formatting.grouped(replayTabs)) open tabs (a navigation and a message each): \
            \(Formatting.decimal(replay.median, digits: 0)) ms (min \(Formatting.decimal(replay.minimum, digits: 0)))

            """
    }

    /// The figures as one JSON object.
    var json: String {
        JSONValue.object(JSONObject([
            ("tds", .string(trackerDataPath)), ("runs", .number(Double(runs))),
            ("resolver_decisions_per_s", .number(resolverDecisionsPerSecond.rounded())),
            ("ingest_json_requests_per_s", .number(ingestJSON.median.rounded())),
            ("ingest_json_requests_per_s_best", .number(ingestJSON.best.rounded())),
            ("ingest_decoded_requests_per_s", .number(ingestDecoded.median.rounded())),
            ("ingest_cold_json_requests_per_s", .number(ingestCold.median.rounded())),
            ("snapshot_500_trackers_median_ms", .number(snapshot.median)),
            ("snapshot_trackers", .number(Double(snapshotTrackers))),
            ("bytes_per_full_tab", .number(Double(bytesPerFullTab))),
            ("requests_per_full_tab", .number(Double(requestsPerFullTab))),
            ("replay_open_tabs", .number(Double(replayTabs))),
            ("replay_open_tabs_median_ms", .number(replay.median)),
        ])).jsonString() + "\n"
    }

    // MARK: - Workloads

    /// One page's navigation URL and its messages, both as values and as JSON text.
    struct PageWorkload {
        var url: String
        var messages: [ScriptMessage]
        var bodies: [String]
    }

    /// `pages` pages spread over `sites` sites; each site draws its requests from a pool of
    /// `poolPerSite` URLs, so the pages of one site share most of their requests, as pages of a
    /// real site load the same scripts, pixels and fonts.
    static func workload(
        requests: [(url: String, type: RequestType)], pages: Int, sites: Int, poolPerSite: Int, eventsPerPage: Int
    ) -> [PageWorkload] {
        var generator = ScalingBenchmark.SplitMix64(seed: 0x5eed)
        let pools: [[Int]] = (0..<sites).map { _ in
            (0..<min(poolPerSite, requests.count)).map { _ in Int(generator.next() % UInt64(requests.count)) }
        }
        return (0..<pages).map { page in
            let site = page % sites
            let url = "https://www.site\(site).example/article/\(page)"
            let document = String(format: "%016llx", UInt64(page) &* 0x9E37_79B9_7F4A_7C15)
            let pool = pools[site]
            let events: [ObservedEvent] = (0..<eventsPerPage).map { index in
                let request = requests[pool[Int(generator.next() % UInt64(pool.count))]]
                return .request(url: request.url, type: request.type, state: index % 2 == 0 ? .loaded : .failed)
            }
            let messages = stride(from: 0, to: events.count, by: 200).enumerated().map { sequence, start in
                ScriptMessage(
                    secret: secret.value, script: .inference,
                    page: .init(id: document, url: url, frame: url, isTopFrame: true), sequence: sequence,
                    events: Array(events[start..<min(start + 200, events.count)]))
            }
            return PageWorkload(url: url, messages: messages, bodies: messages.map { $0.jsonValue().jsonString() })
        }
    }

    /// A `trackerless stats` recording of `tabs` tabs that all stay open: each navigates to its
    /// own page, then each sends one inference message of three requests.
    static func openTabsRecording(tabs: Int, requests: [(url: String, type: RequestType)]) -> [UInt8] {
        var lines: [String] = []
        lines.reserveCapacity(tabs * 2)
        func page(_ tab: Int) -> String { "https://www.site\(tab % 500).example/\(tab)" }
        for tab in 0..<tabs {
            lines.append(JSONValue.object(JSONObject([("tab", .string("\(tab)")), ("navigate", .string(page(tab)))])).jsonString())
        }
        for tab in 0..<tabs {
            let events = (0..<3).map { index -> ObservedEvent in
                let request = requests[(tab * 3 + index) % requests.count]
                return .request(url: request.url, type: request.type, state: .failed)
            }
            let message = ScriptMessage(
                secret: secret.value, script: .inference,
                page: .init(id: String(format: "%016llx", UInt64(tab)), url: page(tab), frame: page(tab), isTopFrame: true),
                sequence: 0, events: events)
            lines.append(JSONValue.object(JSONObject([("tab", .string("\(tab)")), ("message", message.jsonValue())])).jsonString())
        }
        return Array(lines.joined(separator: "\n").utf8)
    }

    /// Thread CPU milliseconds of each run (after a warm-up) feeding the workload to a new
    /// ``PrivacyStats`` over 8 tabs.
    static func ingest(_ pages: [PageWorkload], json: Bool, resolver: TrackerResolver, runs: Int) -> [Double] {
        (0...max(1, runs)).map { _ in
            let stats = PrivacyStats(resolver: resolver, secrets: [secret])
            return cpuTime {
                for (index, page) in pages.enumerated() {
                    let tab = TabID("\(index % 8)")
                    stats.didCommitNavigation(tab: tab, url: page.url)
                    if json {
                        for body in page.bodies { blackHole(stats.receive(.json(body), tab: tab).isAccepted) }
                    } else {
                        for message in page.messages { blackHole(stats.receive(message, tab: tab).isAccepted) }
                    }
                }
            }
        }.dropFirst().map { $0 }
    }

    static func throughput(_ times: [Double], events: Int) -> Throughput {
        let samples = Samples(milliseconds: times)
        return Throughput(
            median: Double(events) / (samples.median / 1000), best: Double(events) / (samples.minimum / 1000), events: events)
    }

    // MARK: - Helpers

    static func packageRoot(filePath: String = #filePath) -> String {
        URL(fileURLWithPath: filePath).resolvingSymlinksInPath()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    /// adblock-rust's labelled requests as (URL, tds type).
    private static func loadRequests(_ path: String) throws(BenchmarkError) -> [(url: String, type: RequestType)] {
        let types: [String: RequestType] = [
            "script": .script, "image": .image, "stylesheet": .stylesheet, "sub_frame": .subdocument,
            "xmlhttprequest": .xmlhttprequest, "font": .font, "media": .media, "websocket": .websocket, "ping": .ping,
            "object": .object,
        ]
        let bytes: [UInt8]
        do {
            bytes = try FileIO.read(path: path)
        } catch {
            throw .invalidInput(path: path, detail: "\(error)")
        }
        let requests: [(url: String, type: RequestType)]?
        do throws(JSONReadError) {
            requests = try JSONReader.read(bytes) { (reader) throws(JSONReadError) -> [(url: String, type: RequestType)]? in
                guard var elements = try reader.enterArrayIfPresent() else { return nil }
                var requests: [(url: String, type: RequestType)] = []
                while try reader.nextElement(in: &elements) {
                    // Elements that are not objects with a string url are left out.
                    guard try reader.nextKind() == .object else {
                        try reader.skipValue()
                        continue
                    }
                    let item = try reader.readStringMembers(["url", "type"], at: .root)
                    guard case .string(let url)? = item["url"] else { continue }
                    var type = RequestType.other
                    if case .string(let name)? = item["type"] { type = types[name] ?? .other }
                    requests.append((url, type))
                }
                return requests
            }
        } catch {
            throw .invalidInput(path: path, detail: "\(error)")
        }
        guard let requests else { throw .invalidInput(path: path, detail: "expected an array") }
        return requests
    }

    /// Thread CPU milliseconds `body` takes.
    private static func cpuTime(_ body: () -> Void) -> Double {
        var start = timespec()
        var end = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start)
        body()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &end)
        return Double(end.tv_sec - start.tv_sec) * 1000 + Double(end.tv_nsec - start.tv_nsec) / 1e6
    }

    /// The resident set size (`/proc/self/statm`); 0 where it is not available. Taken before
    /// anything else runs, its growth is what the tabs allocate.
    private static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
            let pages = text.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    @inline(never)
    private static func blackHole(_ value: Bool) {
        if value && Int.random(in: 0..<Int.max) == -1 { print(value) }
    }
}

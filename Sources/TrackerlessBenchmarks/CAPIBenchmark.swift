#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ContentRuleList
import Foundation
import RuleBuilder
import RuleEngineKit
import TrackerDataKit
import TrackerlessCore

/// A decision through the C API, as a C host makes it: `libTrackerlessC` opened with `dlopen`,
/// `tl_engine_decide` called through its C symbol with C strings, over adblock-rust's 8,276
/// labelled requests on the rule lists built from the blocklist; beside it, the Swift engine on
/// the same loads with its own page cache, a pass of each in turn. Thread CPU time, median of the
/// runs. Goal: 1 µs or less a decision.
///
/// Run with `swift build -c release --product TrackerlessC` first, then
/// `TrackerlessBenchmarks --capi-only [--tds FILE] [--requests FILE] [--runs N]`.
enum CAPIBenchmark {
    typealias NewFromRuleLists = @convention(c) (
        UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<UInt>?, UInt, UnsafeMutablePointer<OpaquePointer?>?,
        UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    ) -> Int32
    typealias Decide = @convention(c) (
        OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?,
        UnsafeMutablePointer<UInt32>?
    ) -> Int32
    typealias Free = @convention(c) (OpaquePointer?) -> Void

    /// `tl_resource_type` of each WebKit resource type the samples use.
    static let typeIndex: [ResourceType: Int32] = [
        .childDocument: 1, .image: 2, .styleSheet: 3, .script: 4, .font: 5, .media: 7, .fetch: 10, .other: 13,
    ]

    static func run(arguments: [String]) throws(BenchmarkError) -> String {
        let arguments = arguments.contains("--runs") ? arguments : arguments + ["--runs", "15"]
        let options = try BenchmarkOptions(arguments: arguments, packageRoot: BenchmarkOptions.packageRoot())
        let library = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("libTrackerlessC.so").path
        guard let handle = dlopen(library, RTLD_NOW) else {
            throw .missingInput(path: library, what: "the C API library", detail: "build it: swift build -c release --product TrackerlessC")
        }
        // Never closed: the library registers Swift type metadata with the runtime, which must
        // stay mapped for as long as the process runs (as in a host).
        func symbol<T>(_ name: String, as type: T.Type) throws(BenchmarkError) -> T {
            guard let pointer = dlsym(handle, name) else { throw .missingInput(path: library, what: name, detail: "no such symbol") }
            return unsafeBitCast(pointer, to: type)
        }
        let newEngine = try symbol("tl_engine_new_from_rule_lists", as: NewFromRuleLists.self)
        let decide = try symbol("tl_engine_decide", as: Decide.self)
        let freeEngine = try symbol("tl_engine_free", as: Free.self)

        let trackerData: TrackerData
        let samples: [RequestSample]
        do {
            trackerData = try TrackerData(contentsOfFile: options.trackerDataPath)
            samples = try RequestSample.samples(parsing: FileIO.read(path: options.requestsPath), file: options.requestsPath)
        } catch let error as BenchmarkError {
            throw error
        } catch {
            throw .invalidInput(path: options.trackerDataPath, detail: "\(error)")
        }
        let lists = RuleListBuilder(trackerData: trackerData).build().ruleLists
        let encoded = lists.map { $0.encoded() }

        // The engine through the C API, from the lists' JSON.
        var engine: OpaquePointer?
        let status = withCStrings(encoded) { pointers in
            let lengths = encoded.map { UInt($0.count) }
            return newEngine(pointers, lengths, UInt(encoded.count), &engine, nil)
        }
        guard status == 0, let engine else { throw .invalidInput(path: options.trackerDataPath, detail: "tl_engine_new_from_rule_lists: \(status)") }
        defer { freeEngine(engine) }

        // C strings made once, as a C host has them: one after the other in one buffer, as a host
        // reading them from a file would hold them.
        let site = "https://news.example/"
        let text = samples.map(\.url).joined(separator: "\u{0}") + "\u{0}" + site + "\u{0}"
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: text.utf8.count)
        var offsets: [Int] = []
        var position = 0
        for byte in text.utf8 {
            if position == 0 || buffer[position - 1] == 0 { offsets.append(position) }
            buffer[position] = CChar(bitPattern: byte)
            position += 1
        }
        defer { buffer.deallocate() }
        let urls = offsets.dropLast().map { UnsafePointer(buffer + $0) }
        let top = UnsafePointer(buffer + offsets[offsets.count - 1])
        let types = samples.map { typeIndex[$0.resourceType] ?? 13 }
        var flags: UInt32 = 0
        let swiftEngine: RuleEngine
        do throws(RuleListError) { swiftEngine = try RuleEngine(ruleLists: lists) } catch {
            throw .invalidInput(path: options.trackerDataPath, detail: "\(error)")
        }
        let loads = samples.map { Request(url: $0.url, topURL: site, resourceType: $0.resourceType) }
        var cache = RuleEngine.PageCache()
        // Interleaved: a pass through C, then a pass in Swift, so that both see the same load of
        // the machine; each pass after its own warm-up pass.
        var cTimes: [Double] = [], swiftTimes: [Double] = []
        for _ in 0..<options.runs {
            cTimes += ResolverBenchmark.nanosecondsPerCall(runs: 1, count: samples.count) { index in
                decide(engine, urls[index], top, nil, types[index], nil, &flags) == 0 && flags & 2 != 0
            }.milliseconds
            swiftTimes += ResolverBenchmark.nanosecondsPerCall(runs: 1, count: loads.count) { index in
                swiftEngine.decision(for: loads[index], cache: &cache).isBlocked
            }.milliseconds
        }
        let throughC = Samples(milliseconds: cTimes), inSwift = Samples(milliseconds: swiftTimes)
        let blocked = (0..<samples.count).count { decide(engine, urls[$0], top, nil, types[$0], nil, &flags) == 0 && flags & 2 != 0 }
        return """
            C API (dlopen \(URL(fileURLWithPath: library).lastPathComponent)): \(URL(fileURLWithPath: options.trackerDataPath).lastPathComponent), \
            \(Formatting.grouped(samples.count)) requests (\(Formatting.grouped(blocked)) blocked), \(options.runs) runs, \
            interleaved, thread CPU time, median a decision
              tl_engine_decide (C strings, per-thread page cache): \(Formatting.decimal(throughC.median, digits: 0)) ns \
            (best \(Formatting.decimal(throughC.minimum, digits: 0))); goal <= 1,000 ns
              RuleEngine.decision in Swift, same loads:            \(Formatting.decimal(inSwift.median, digits: 0)) ns \
            (best \(Formatting.decimal(inSwift.minimum, digits: 0)))
              C API / Swift:                                       \(Formatting.decimal(throughC.median / inSwift.median, digits: 2))x

            """
    }

    /// Calls `body` with C strings of `buffers` (each NUL-terminated), valid during the call.
    private static func withCStrings<R>(_ buffers: [[UInt8]], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        let copies = buffers.map { bytes -> UnsafeMutablePointer<CChar> in
            let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            bytes.withUnsafeBytes { raw in
                if let base = raw.baseAddress { UnsafeMutableRawPointer(pointer).copyMemory(from: base, byteCount: bytes.count) }
            }
            pointer[bytes.count] = 0
            return pointer
        }
        defer { copies.forEach { $0.deallocate() } }
        let pointers = copies.map { UnsafePointer<CChar>?($0) }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}

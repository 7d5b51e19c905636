import CWebKitGTK
import Foundation
import TrackerlessCore
import TrackerlessRuntime
import TrackerlessWebKitGTK

// `trackerless-browser-benchmarks`: the page-load cost of the scripts in a real WebKitGTK web
// view. Needs a display (xvfb-run -a) and python3 for the loopback site proxy; every request
// goes to 127.0.0.1. See BENCHMARKS.md.
let usage = """
    Usage: xvfb-run -a trackerless-browser-benchmarks [--modes | --launch | --style-text [--style-nodes N]] [--tds FILE] [--rounds N] [--warm-up N]

    Loads Tests/Sites/bench.example (30 subresources, three of them trackers) through the loopback
    site proxy in four web views, interleaved: rule lists and both scripts, the same with the
    blocking script deciding unload beacons (blockKeepalive, as trackerless-browser runs it), the
    same rule lists without scripts, and nothing. Prints each variant's median load time and the median of the
    per-round differences.
      --modes       instead, two views: trackerless-browser's rules mode (content filters) and
                    engine mode (the compiled engine in the web-process extension), interleaved;
                    prints the median of the per-round differences and ratios (goal: within 5%)
      --launch      instead, launch to protected with a warm cache, WebKit's part included: a new
                    runtime from the cache, every rule list found in the content filter store by
                    identifier, the lists, both scripts and the handler added to a user content
                    manager; --rounds of them after one that fills the cache and the store (goal: 50 ms)
      --style-text  instead, Tests/Sites/bench.example/style-text.html (page script appends text
                    nodes one by one to one <style>) in five views, interleaved: script mode
                    (blockInScript: the blocking script checks the style's text at each append)
                    with the page's nodes and with its last node only, rules mode (lists and both
                    scripts), nothing with the page's nodes and with one; prints the medians, the
                    medians of the per-round differences and ratios, and each view's loads of the
                    page's tracker image (script mode must start none)
      --style-nodes N  the text nodes the style-text page appends (default 200)
      --tds FILE    the blocklist (default: ../shared/data/tds/apple-tds.json, else the bundled sample)
      --rounds N    measured rounds (default 40)
      --warm-up N   rounds run first and not counted (default 5)
    """

/// Says why on standard error and ends the process with `status` (2: bad arguments, 1: a failure).
func fail(_ message: String, status: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data("\(message)\n".utf8))
    exit(status)
}

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let repositoryRoot = packageRoot.deletingLastPathComponent().deletingLastPathComponent()
var tdsPath: String? = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/data/tds/apple-tds.json").path
if !FileManager.default.fileExists(atPath: tdsPath!) { tdsPath = nil }
var rounds = 40
var warmUp = 5
var modes = false
var launch = false
var styleText = false
var styleNodes = 200
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    func number() -> Int {
        guard let text = arguments.popFirst(), let value = Int(text), value >= 0 else {
            fail("\(argument) needs a number\n\n\(usage)", status: 2)
        }
        return value
    }
    switch argument {
    case "--tds":
        guard let path = arguments.popFirst() else { fail("--tds needs a file", status: 2) }
        tdsPath = path
    case "--modes": modes = true
    case "--launch": launch = true
    case "--style-text": styleText = true
    case "--style-nodes": styleNodes = max(1, number())
    case "--rounds": rounds = max(1, number())
    case "--warm-up": warmUp = number()
    case "--help", "-h":
        print(usage)
        exit(0)
    default:
        fail("unknown argument \(argument.prefix(200))\n\n\(usage)", status: 2)
    }
}

/// The loopback site proxy (Tests/Support/site_proxy.py), serving Tests/Sites.
let proxy = Process()
proxy.executableURL = URL(fileURLWithPath: "/usr/bin/env")
proxy.arguments = ["python3", packageRoot.appendingPathComponent("Tests/Support/site_proxy.py").path,
                   packageRoot.appendingPathComponent("Tests/Sites").path]
let proxyOutput = Pipe()
/// The proxy serves until its standard input closes: at our exit.
let proxyInput = Pipe()
proxy.standardOutput = proxyOutput
proxy.standardInput = proxyInput
proxy.standardError = FileHandle.nullDevice
do { try proxy.run() } catch { fail("could not start the site proxy: \(error)") }
var firstLine = Data()
while !firstLine.contains(UInt8(ascii: "\n")) {
    let chunk = proxyOutput.fileHandleForReading.availableData
    if chunk.isEmpty { break }
    firstLine.append(chunk)
}
guard let object = try? JSONSerialization.jsonObject(with: firstLine.prefix(while: { $0 != UInt8(ascii: "\n") })) as? [String: Any],
    let port = object["port"] as? Int
else { fail("the site proxy did not say its port") }
// Its request log is not needed: read and drop it, so that the pipe never fills.
proxyOutput.fileHandleForReading.readabilityHandler = { _ = $0.availableData }

let cache = FileManager.default.temporaryDirectory.appendingPathComponent("trackerless-page-load-\(UUID().uuidString)").path
defer { try? FileManager.default.removeItem(atPath: cache) }
var inputs = ProtectionInputs.sample
if let tdsPath { inputs.trackerData = .file(tdsPath) }
inputs.webKit = .runningWebKitGTK
/// A runtime for `inputs` with its cache in `directory`; the process ends if it cannot be made.
func makeRuntime(_ inputs: ProtectionInputs, cacheDirectory directory: String) -> ProtectionRuntime {
    do { return try ProtectionRuntime(inputs: inputs, cacheDirectory: directory) } catch { fail("\(error)") }
}
let runtime = makeRuntime(inputs, cacheDirectory: cache)

setenv("GTK_A11Y", "none", 0)   // no accessibility bus under Xvfb
gtk_init()
let loop = g_main_loop_new(nil, 0)
func session() -> NetworkSession {
    let session = NetworkSession.ephemeral()
    session.useProxy(host: "127.0.0.1", port: port)
    session.ignoreCertificateErrors()
    return session
}
let store = ContentFilterStore(directory: cache + "/webkit-content-filters")
var status: Int32 = 0

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func present(_ widgets: [UnsafeMutablePointer<GtkWidget>]) -> [UnsafeMutablePointer<GtkWidget>] {
    widgets.map { widget in
        let window = gtk_window_new()!
        gtk_window_set_default_size(tl_gtk_window(window), 1000, 800)
        gtk_window_set_child(tl_gtk_window(window), widget)
        gtk_window_present(tl_gtk_window(window))
        return window
    }
}

if launch {
    print("launch benchmark: warm cache to protected (runtime, filter store look-up, scripts added), \(rounds) rounds")
    print("blocklist: \(tdsPath ?? "bundled sample"); rule lists: \(runtime.currentSet.ruleLists.count)")
    let launchCache = cache + "-launch"
    let benchmark = LaunchBenchmark(
        inputs: inputs, cacheDirectory: launchCache, store: ContentFilterStore(directory: launchCache + "/webkit-content-filters"),
        rounds: rounds
    ) { times, compiled, failures in
        for failure in failures.prefix(10) { FileHandle.standardError.write(Data("launch failed: \(failure)\n".utf8)) }
        if !failures.isEmpty || times.count < rounds { status = 1 }
        print(String(format: "  launch to protected: median %.2f ms (min %.2f, max %.2f, %d launches); lists compiled in them: %d (goal: 50 ms or less)",
                     median(times), times.min() ?? .nan, times.max() ?? .nan, times.count, compiled))
        g_main_loop_quit(loop)
    }
    benchmark.start()
    g_main_loop_run(loop)
    withExtendedLifetime(benchmark) {}
    proxy.terminate()
    for directory in [launchCache, cache] { try? FileManager.default.removeItem(atPath: directory) }
    exit(status)
}

if modes {
    print("mode benchmark: https://bench.example/ (30 subresources), \(rounds) rounds after \(warmUp) warm-up rounds")
    print("blocklist: \(tdsPath ?? "bundled sample"); engine: \(runtime.currentSet.engine.ruleCount) rules")
    let benchmark: ModeBenchmark
    do {
        benchmark = try ModeBenchmark(
            runtime: runtime, store: store, session: session, extensionDirectory: cache + "/web-process-extension",
            page: "https://bench.example/", warmUpRounds: warmUp, rounds: rounds
        ) { times, failures in
            for failure in failures.prefix(10) { FileHandle.standardError.write(Data("load failed: \(failure)\n".utf8)) }
            if !failures.isEmpty { status = 1 }
            for (label, values) in zip(ModeBenchmark.labels, times) {
                print("  " + label.padding(toLength: 36, withPad: " ", startingAt: 0)
                    + String(format: " median %7.2f ms  (min %.2f, max %.2f, %d loads)", median(values), values.min() ?? .nan,
                             values.max() ?? .nan, values.count))
            }
            let pairs = zip(times[1], times[0])
            print(String(format: "  engine - rules, median of per-round differences: %+.2f ms", median(pairs.map { $0 - $1 })))
            print(String(format: "  engine / rules - 1, median of per-round ratios: %+.1f%% (goal: within 5%%)",
                         100 * median(pairs.map { $0 / $1 - 1 })))
            g_main_loop_quit(loop)
        }
    } catch {
        fail("\(error)")
    }
    let windows = present(benchmark.widgets)
    benchmark.start()
    g_main_loop_run(loop)
    withExtendedLifetime((benchmark, windows)) {}
    proxy.terminate()
    exit(status)
}

if styleText {
    let page = "https://bench.example/style-text.html"
    print("style-text benchmark: \(page) (\(styleNodes) text nodes appended one by one to one <style>), \(rounds) rounds after \(warmUp) warm-up rounds")
    print("blocklist: \(tdsPath ?? "bundled sample")")
    var scriptInputs = inputs
    scriptInputs.scriptSettings.blockInScript = true
    let scriptCache = cache + "-script-mode"
    let scriptRuntime = makeRuntime(scriptInputs, cacheDirectory: scriptCache)
    let benchmark = StyleTextBenchmark(
        scriptMode: ProtectedWebView(runtime: scriptRuntime, store: store, tab: "script-mode", session: session()),
        scriptModeOneNode: ProtectedWebView(runtime: scriptRuntime, store: store, tab: "script-mode-one-node", session: session()),
        rulesMode: ProtectedWebView(runtime: runtime, store: store, tab: "rules-mode", session: session()),
        bare: WebView(session: session()), bareOneNode: WebView(session: session()),
        page: page, nodes: styleNodes, warmUpRounds: warmUp, rounds: rounds
    ) { times, failures in
        for failure in failures.prefix(10) { FileHandle.standardError.write(Data("load failed: \(failure)\n".utf8)) }
        if !failures.isEmpty { status = 1 }
        typealias View = StyleTextBenchmark.View
        for view in View.allCases {
            let values = times[view.rawValue]
            print("  " + view.label(nodes: styleNodes).padding(toLength: 40, withPad: " ", startingAt: 0)
                + String(format: " median %7.2f ms  (min %.2f, max %.2f, %d loads)", median(values), values.min() ?? .nan,
                         values.max() ?? .nan, values.count))
        }
        /// The medians of the per-round differences and ratios of two views.
        func compare(_ a: View, _ b: View) -> String {
            let pairs = zip(times[a.rawValue], times[b.rawValue])
            return String(format: "%+.2f ms, ratio %.2f", median(pairs.map { $0 - $1 }), median(pairs.map { $0 / $1 }))
        }
        print("  medians of the per-round differences and ratios:")
        print("    script mode - rules mode:   " + compare(.scriptMode, .rulesMode))
        print("    script mode - nothing:      " + compare(.scriptMode, .nothing))
        print("    the appends (\(styleNodes) nodes - 1 node), script mode: " + compare(.scriptMode, .scriptModeOneNode))
        print("    the appends (\(styleNodes) nodes - 1 node), nothing:     " + compare(.nothing, .nothingOneNode))
        let appends = zip(zip(times[View.scriptMode.rawValue], times[View.scriptModeOneNode.rawValue]),
                          zip(times[View.nothing.rawValue], times[View.nothingOneNode.rawValue]))
        print(String(format: "    script mode's checks of the appends (script mode's appends - nothing's): %+.2f ms",
                     median(appends.map { ($0.0 - $0.1) - ($1.0 - $1.1) })))
        g_main_loop_quit(loop)
    }
    let windows = present(benchmark.widgets)
    benchmark.start()
    g_main_loop_run(loop)
    withExtendedLifetime((benchmark, windows)) {}
    let seen = zip(StyleTextBenchmark.View.allCases, benchmark.trackerLoads).map { "\($0.label(nodes: styleNodes)) \($1)" }
    print("  loads of \(StyleTextBenchmark.trackerHost) started, warm-up included: " + seen.joined(separator: ", "))
    if benchmark.trackerLoads[0] != 0 || benchmark.trackerLoads[1] != 0 {
        FileHandle.standardError.write(Data("script mode let the tracker image of the style's text load: its checks did not run\n".utf8))
        status = 1
    }
    proxy.terminate()
    for directory in [scriptCache, cache] { try? FileManager.default.removeItem(atPath: directory) }
    exit(status)
}

let protected = ProtectedWebView(runtime: runtime, store: store, tab: "bench", session: session())
// The same protection with unload beacons decided in the blocking script: its own runtime.
var keepaliveInputs = inputs
keepaliveInputs.scriptSettings.blockKeepalive = true
let keepaliveRuntime = makeRuntime(keepaliveInputs, cacheDirectory: cache + "-keepalive")
defer { try? FileManager.default.removeItem(atPath: cache + "-keepalive") }
let protectedKeepalive = ProtectedWebView(runtime: keepaliveRuntime, store: store, tab: "bench-keepalive", session: session())
let listsOnly = WebView(session: session())
let bare = WebView(session: session())
let windows = present([protected.webView.widget, protectedKeepalive.webView.widget, listsOnly.widget, bare.widget])

let set = runtime.currentSet
print("page-load benchmark: https://bench.example/ (30 subresources), \(rounds) rounds after \(warmUp) warm-up rounds")
print("blocklist: \(tdsPath ?? "bundled sample"); rule lists: \(set.ruleLists.count) (\(set.ruleLists.map(\.ruleCount).reduce(0, +)) rules)")
func blockingScriptBytes(_ set: ProtectionSet) -> Int { set.scripts.filter(\.isBlocking).map(\.source.utf8.count).reduce(0, +) }
print("blocking script: \(blockingScriptBytes(set)) bytes; with blockKeepalive: \(blockingScriptBytes(keepaliveRuntime.currentSet)) bytes")
let benchmark = PageLoadBenchmark(
    protected: protected, protectedKeepalive: protectedKeepalive, store: store, lists: set.ruleLists, listsOnly: listsOnly, bare: bare, page: "https://bench.example/",
    warmUpRounds: warmUp, rounds: rounds
) { times, failures in
    for failure in failures.prefix(10) { FileHandle.standardError.write(Data("load failed: \(failure)\n".utf8)) }
    if !failures.isEmpty { status = 1 }
    for variant in PageLoadBenchmark.Variant.allCases {
        let values = times[variant] ?? []
        let label = variant.label.padding(toLength: 32, withPad: " ", startingAt: 0)
        print("  " + label + String(format: " median %7.2f ms  (min %.2f, max %.2f, %d loads)", median(values),
                                   values.min() ?? .nan, values.max() ?? .nan, values.count))
    }
    func difference(_ a: PageLoadBenchmark.Variant, _ b: PageLoadBenchmark.Variant) -> Double {
        median(zip(times[a] ?? [], times[b] ?? []).map { $0 - $1 })
    }
    print(String(format: "  scripts' cost (lists + scripts - lists only), median of per-round differences: %+.2f ms (goal: 10 ms or less)",
                 difference(.listsAndScripts, .listsOnly)))
    print(String(format: "  whole protection (lists + scripts - nothing), median of per-round differences: %+.2f ms",
                 difference(.listsAndScripts, .nothing)))
    print(String(format: "  blockKeepalive's cost (its scripts - both scripts), median of per-round differences: %+.2f ms",
                 difference(.listsAndKeepaliveScripts, .listsAndScripts)))
    print(String(format: "  scripts' cost with blockKeepalive (its scripts - lists only), median of per-round differences: %+.2f ms",
                 difference(.listsAndKeepaliveScripts, .listsOnly)))
    g_main_loop_quit(loop)
}
benchmark.start()
g_main_loop_run(loop)
withExtendedLifetime((benchmark, windows)) {}
proxy.terminate()
exit(status)

import CWebKitGTK
import Foundation
import PrivacyStatsKit
import TrackerlessRuntime
import RequestHookKit
import TrackerlessWebKitGTK

/// `trackerless-browser`: the WebKitGTK browser of Integrations/WebKitGTK/README.md.
func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data((message.hasSuffix("\n") ? message : message + "\n").utf8))
    exit(status)
}

let options: BrowserOptions
do {
    options = try BrowserOptions(Array(CommandLine.arguments.dropFirst()))
} catch let error as BrowserOptions.UsageError {
    if error.description.isEmpty {
        print(BrowserOptions.usage)
        exit(0)
    }
    fail("trackerless-browser: \(error)\n\n\(BrowserOptions.usage)", status: 2)
}

let runtime: ProtectionRuntime
do {
    runtime = try ProtectionRuntime(inputs: options.inputs, cacheDirectory: options.cacheDirectory)
} catch {
    fail("trackerless-browser: \(error)", status: 1)
}

gtk_init()
let loop = g_main_loop_new(nil, 0)
let store = ContentFilterStore(directory: options.cacheDirectory + "/webkit-content-filters")
// A persistent session: WebKit sends the console messages of an ephemeral session's pages
// nowhere, and the content filters' word of each load they blocked is one of them.
let session = NetworkSession.persistent(
    dataDirectory: options.cacheDirectory + "/network-session/data", cacheDirectory: options.cacheDirectory + "/network-session/cache")
if let proxy = options.proxy {
    session.useProxy(host: proxy.host, port: proxy.port)
    session.ignoreCertificateErrors()
}
let extensionDirectory = options.cacheDirectory + "/web-process-extension"
do {
    try WebProcessExtension.install(
        libraryPath: options.extensionPath, directory: extensionDirectory,
        sandboxPaths: []
    ) {
        RequestHookConfiguration.current(of: runtime, blocksRequests: options.mode == .webProcessExtension, directory: extensionDirectory + "/data")
    }
} catch {
    fail("trackerless-browser: \(error)", status: 1)
}
let view = ProtectedWebView(runtime: runtime, store: store, tab: "1", session: session)
view.requestBlocking = options.mode
// Web processes already running get a new configuration when the set or the site toggles change.
var sentConfiguration: RequestHookConfiguration?
view.willLoad = { _ in
    let configuration = RequestHookConfiguration.current(
        of: runtime, blocksRequests: options.mode == .webProcessExtension, directory: extensionDirectory + "/data")
    if let sent = sentConfiguration, sent != configuration { WebProcessExtension.broadcast(configuration) }
    sentConfiguration = configuration
}
let window = gtk_window_new()!
gtk_window_set_default_size(tl_gtk_window(window), 1200, 800)
var status: Int32 = 0

if options.headless {
    gtk_window_set_child(tl_gtk_window(window), view.webView.widget)
    gtk_window_present(tl_gtk_window(window))
    let run = HeadlessRun(
        runtime: runtime, view: view, urls: options.urls, toggles: options.toggles, clicks: options.clicks,
        snapshotsPath: options.snapshotsPath!
    ) { result in
        status = result
        g_main_loop_quit(loop)
    }
    run.start()
    g_main_loop_run(loop)
    withExtendedLifetime(run) {}
} else {
    for toggle in options.toggles.values.joined() {
        do {
            try runtime.setProtection(toggle.enabled, forSite: toggle.site)
        } catch {
            fail("trackerless-browser: --protection-\(toggle.enabled ? "on" : "off") \(toggle.site): \(error)", status: 1)
        }
    }
    let browser = BrowserWindow(window: window, runtime: runtime, view: view) { g_main_loop_quit(loop) }
    browser.open(options.urls.first ?? "https://duckduckgo.com/")
    g_main_loop_run(loop)
    withExtendedLifetime(browser) {}
}
// Quitting: the statistics' last counts to disk (between pages the runtime saves them itself).
do {
    try runtime.saveStatistics()
} catch {
    // Protection was not affected: said, not made the run's failure.
    FileHandle.standardError.write(Data("trackerless-browser: warning: \(error)\n".utf8))
}
exit(status)

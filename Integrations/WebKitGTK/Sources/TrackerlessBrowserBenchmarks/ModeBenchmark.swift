import CWebKitGTK
import Foundation
import RequestHookKit
import TrackerlessRuntime
import TrackerlessWebKitGTK

/// `--modes`: page-load time of `trackerless-browser --mode engine` against `--mode rules`, in
/// two views loaded in turn (``InterleavedPageLoads``). Each view is in a web context of its own,
/// because the extension's configuration is per context: the rules view's extension sets
/// headers only (as in `--mode rules`), the engine view's decides every request.
final class ModeBenchmark {
    static let labels = ["rules mode (content filters)", "engine mode (web-process extension)"]

    private let views: [ProtectedWebView]
    private let loads: InterleavedPageLoads

    /// Installs the extension in both contexts and makes the two views; `done` gets the rules
    /// view's and the engine view's load times.
    init(
        runtime: ProtectionRuntime, store: ContentFilterStore, session: () -> NetworkSession, extensionDirectory: String,
        page: String, warmUpRounds: Int, rounds: Int, done: @escaping ([[Double]], [String]) -> Void
    ) throws {
        let library = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent(WebProcessExtension.libraryName).path
        let engineContext = WebContext.separate()
        for (context, blocks) in [(WebContext.default, false), (engineContext, true)] {
            try WebProcessExtension.install(
                libraryPath: library, directory: extensionDirectory, sandboxPaths: [],
                context: context
            ) { RequestHookConfiguration.current(of: runtime, blocksRequests: blocks, directory: extensionDirectory + "/data") }
        }
        let rules = ProtectedWebView(runtime: runtime, store: store, tab: "rules", session: session())
        let engine = ProtectedWebView(runtime: runtime, store: store, tab: "engine", session: session(), context: engineContext)
        engine.requestBlocking = .webProcessExtension
        views = [rules, engine]
        loads = InterleavedPageLoads(
            contestants: zip(Self.labels, views).map { label, view in .init(label: label, webView: view.webView, load: { view.load($0) }) },
            page: page, warmUpRounds: warmUpRounds, rounds: rounds, done: done)
    }

    /// The views' widgets, to put in windows.
    var widgets: [UnsafeMutablePointer<GtkWidget>] { views.map(\.webView.widget) }

    func start() { loads.start() }
}

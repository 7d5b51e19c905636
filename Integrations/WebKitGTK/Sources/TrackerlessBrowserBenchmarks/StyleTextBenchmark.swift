import CWebKitGTK
import Foundation
import TrackerlessRuntime
import TrackerlessWebKitGTK

/// `--style-text`: the cost of script mode's checks of a `<style>`'s text, on a page whose
/// script appends text nodes one by one to one `<style>` (`bench.example/style-text.html`, 200
/// nodes unless `?nodes=N`), loaded in five views in turn (``InterleavedPageLoads``):
///
/// - script mode (`blockInScript`, no content filter: the blocking script checks the style's
///   whole text at each append), with the page's nodes and with its one last node only;
/// - rules mode (content filters and both scripts, which leave a style's text alone);
/// - nothing, with the page's nodes and with its last node only.
///
/// So the appends' cost is seen apart from the rest of script mode (its larger script, its start):
/// script mode's difference between the two pages against the unprotected view's.
///
/// The page's last text names a tracker's image that an element uses: each view's loads of
/// ``trackerHost`` are counted, and script mode must start none (else its checks did not run and
/// the figure would mean nothing).
final class StyleTextBenchmark {
    /// The views, in the order `done` gets their load times.
    enum View: Int, CaseIterable {
        case scriptMode, scriptModeOneNode, rulesMode, nothing, nothingOneNode

        func label(nodes: Int) -> String {
            switch self {
            case .scriptMode: "script mode, \(nodes) nodes"
            case .scriptModeOneNode: "script mode, 1 node"
            case .rulesMode: "rules mode (lists + scripts), \(nodes) nodes"
            case .nothing: "no protection, \(nodes) nodes"
            case .nothingOneNode: "no protection, 1 node"
            }
        }
    }

    /// The host of the tracker image the page's last text names.
    static let trackerHost = "www.hotjar.com"

    private let views: [WebView]
    private let loads: InterleavedPageLoads
    /// Each view's loads of ``trackerHost`` started, in ``View``'s order (warm-up rounds included).
    private(set) var trackerLoads: [Int]

    /// - Parameters:
    ///   - scriptMode, scriptModeOneNode: views whose runtime has `blockInScript` set; their
    ///     `requestBlocking` is set to script mode here.
    ///   - rulesMode: a view in rules mode (the default).
    ///   - bare, bareOneNode: views without protection.
    ///   - nodes: how many text nodes the page appends in the views not marked one node.
    ///   - done: gets the views' load times in ``View``'s order, and the load failures.
    init(
        scriptMode: ProtectedWebView, scriptModeOneNode: ProtectedWebView, rulesMode: ProtectedWebView, bare: WebView, bareOneNode: WebView,
        page: String, nodes: Int, warmUpRounds: Int, rounds: Int, done: @escaping ([[Double]], [String]) -> Void
    ) {
        for view in [scriptMode, scriptModeOneNode] { view.requestBlocking = .blockingScript }
        let views = [scriptMode.webView, scriptModeOneNode.webView, rulesMode.webView, bare, bareOneNode]
        self.views = views
        trackerLoads = views.map { _ in 0 }
        // InterleavedPageLoads adds "?round=N": the node count goes before it.
        func withNodes(_ count: Int, _ url: String) -> String { url.replacingOccurrences(of: "?", with: "?nodes=\(count)&") }
        let loaders: [(String) -> Void] = [
            { scriptMode.load(withNodes(nodes, $0)) }, { scriptModeOneNode.load(withNodes(1, $0)) }, { rulesMode.load(withNodes(nodes, $0)) },
            { bare.load(withNodes(nodes, $0)) }, { bareOneNode.load(withNodes(1, $0)) },
        ]
        loads = InterleavedPageLoads(
            contestants: View.allCases.map { view in
                .init(label: view.label(nodes: nodes), webView: views[view.rawValue], load: loaders[view.rawValue])
            },
            page: page, warmUpRounds: warmUpRounds, rounds: rounds, done: done)
        for (index, view) in views.enumerated() {
            view.onResourceLoadStarted = { [weak self] load in
                if URLComponents(string: load.url)?.host == Self.trackerHost { self?.trackerLoads[index] += 1 }
            }
        }
    }

    /// The views' widgets, to put in windows.
    var widgets: [UnsafeMutablePointer<GtkWidget>] { views.map(\.widget) }

    func start() { loads.start() }
}

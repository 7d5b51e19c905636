import CWebKitGTK
import Foundation
import TrackerlessRuntime
import TrackerlessWebKitGTK

/// Page-load time of one page in four web views, interleaved (``InterleavedPageLoads``): the
/// rule lists and both scripts (`ProtectedWebView`), the same with the blocking script deciding
/// unload beacons (`blockKeepalive`: the blocking script carries every tracker), the same rule
/// lists without scripts, and nothing.
final class PageLoadBenchmark {
    enum Variant: Int, CaseIterable {
        case listsAndScripts, listsAndKeepaliveScripts, listsOnly, nothing

        var label: String {
            switch self {
            case .listsAndScripts: "rule lists + both scripts"
            case .listsAndKeepaliveScripts: "lists + scripts, blockKeepalive"
            case .listsOnly: "rule lists, no script"
            case .nothing: "no protection"
            }
        }
    }

    private let store: ContentFilterStore
    private let lists: [EncodedRuleList]
    private let listsOnly: WebView
    private var loads: InterleavedPageLoads!

    /// - Parameters:
    ///   - protected: the view with the runtime's lists and scripts.
    ///   - protectedKeepalive: the same, from a runtime whose scripts decide unload beacons.
    ///   - listsOnly: a view whose user content gets `lists` from `store`, and nothing else.
    ///   - bare: a view without protection.
    init(
        protected: ProtectedWebView, protectedKeepalive: ProtectedWebView, store: ContentFilterStore, lists: [EncodedRuleList], listsOnly: WebView, bare: WebView,
        page: String, warmUpRounds: Int, rounds: Int, done: @escaping ([Variant: [Double]], [String]) -> Void
    ) {
        self.store = store
        self.lists = lists
        self.listsOnly = listsOnly
        let contestants = Variant.allCases.map { variant -> InterleavedPageLoads.Contestant in
            switch variant {
            case .listsAndScripts: .init(label: variant.label, webView: protected.webView, load: { protected.load($0) })
            case .listsAndKeepaliveScripts:
                .init(label: variant.label, webView: protectedKeepalive.webView, load: { protectedKeepalive.load($0) })
            case .listsOnly: .init(label: variant.label, webView: listsOnly, load: { listsOnly.load($0) })
            case .nothing: .init(label: variant.label, webView: bare, load: { bare.load($0) })
            }
        }
        loads = InterleavedPageLoads(contestants: contestants, page: page, warmUpRounds: warmUpRounds, rounds: rounds) { times, failures in
            var byVariant: [Variant: [Double]] = [:]
            for variant in Variant.allCases where !times[variant.rawValue].isEmpty { byVariant[variant] = times[variant.rawValue] }
            done(byVariant, failures)
        }
    }

    func start() { addLists(lists[...]) }

    /// The lists for the lists-only view, compiled (or found in the store) one after the other.
    private func addLists(_ remaining: ArraySlice<EncodedRuleList>) {
        guard let list = remaining.first else { return loads.start() }
        store.filter(identifier: list.identifier, source: { list.json }) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let (filter, _)):
                self.listsOnly.userContent.add(filter)
                self.addLists(remaining.dropFirst())
            case .failure(let error):
                self.loads.fail("\(list.identifier): \(error)")
            }
        }
    }
}

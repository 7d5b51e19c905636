import CWebKitGTK
import Foundation
import TrackerlessRuntime
import TrackerlessWebKitGTK

/// Page-load time of one page in three web views, interleaved: the rule lists and both scripts
/// (`ProtectedWebView`), the same rule lists without scripts, and nothing. Each round loads the
/// page once in each view, in a rotating order; a load is timed from the call that starts it to
/// WebKit's load-finished event.
final class PageLoadBenchmark {
    enum Variant: Int, CaseIterable {
        case listsAndScripts, listsOnly, nothing

        var label: String {
            switch self {
            case .listsAndScripts: "rule lists + both scripts"
            case .listsOnly: "rule lists, no script"
            case .nothing: "no protection"
            }
        }
    }

    private let protected: ProtectedWebView
    private let store: ContentFilterStore
    private let lists: [EncodedRuleList]
    private let listsOnly: WebView
    private let bare: WebView
    private let page: String
    private let warmUpRounds: Int
    private let rounds: Int
    private let done: ([Variant: [Double]], [String]) -> Void
    private var round = 0
    private var queue: [Variant] = []
    private var started = DispatchTime.now()
    private var current: Variant?
    private(set) var times: [Variant: [Double]] = [:]
    private var failures: [String] = []

    /// - Parameters:
    ///   - protected: the view with the runtime's lists and scripts.
    ///   - listsOnly: a view whose user content gets `lists` from `store`, and nothing else.
    ///   - bare: a view without protection.
    init(
        protected: ProtectedWebView, store: ContentFilterStore, lists: [EncodedRuleList], listsOnly: WebView, bare: WebView,
        page: String, warmUpRounds: Int, rounds: Int, done: @escaping ([Variant: [Double]], [String]) -> Void
    ) {
        self.protected = protected
        self.store = store
        self.lists = lists
        self.listsOnly = listsOnly
        self.bare = bare
        self.page = page
        self.warmUpRounds = warmUpRounds
        self.rounds = rounds
        self.done = done
        for variant in Variant.allCases {
            let view = webView(variant)
            let previous = view.onLoadEvent
            view.onLoadEvent = { [weak self] event in
                previous?(event)
                if event == .finished { self?.finished(variant) }
            }
            view.onLoadFailure = { [weak self] url, domain, code, message in
                self?.failures.append("\(variant.label): \(url): \(domain) \(code): \(message)")
            }
        }
    }

    private func webView(_ variant: Variant) -> WebView {
        switch variant {
        case .listsAndScripts: protected.webView
        case .listsOnly: listsOnly
        case .nothing: bare
        }
    }

    func start() { addLists(lists[...]) }

    /// The lists for the lists-only view, compiled (or found in the store) one after the other.
    private func addLists(_ remaining: ArraySlice<EncodedRuleList>) {
        guard let list = remaining.first else { return nextRound() }
        store.filter(identifier: list.identifier, source: { list.json }) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let (filter, _)):
                self.listsOnly.userContent.add(filter)
                self.addLists(remaining.dropFirst())
            case .failure(let error):
                self.failures.append("\(list.identifier): \(error)")
                self.done([:], self.failures)
            }
        }
    }

    private func nextRound() {
        guard round < warmUpRounds + rounds else { return done(times, failures) }
        let all = Variant.allCases
        queue = (0..<all.count).map { all[($0 + round) % all.count] }
        round += 1
        nextLoad()
    }

    private func nextLoad() {
        guard !queue.isEmpty else { return nextRound() }
        let variant = queue.removeFirst()
        current = variant
        let url = page + "?round=\(round)"
        started = .now()
        switch variant {
        case .listsAndScripts: protected.load(url)
        case .listsOnly: listsOnly.load(url)
        case .nothing: bare.load(url)
        }
    }

    private func finished(_ variant: Variant) {
        guard variant == current else { return }
        current = nil
        let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1_000_000
        if round > warmUpRounds { times[variant, default: []].append(milliseconds) }
        // Let the page's late work (the scripts' batched reports) end before the next load.
        MainContext.after(milliseconds: 50) { [weak self] in self?.nextLoad() }
    }
}

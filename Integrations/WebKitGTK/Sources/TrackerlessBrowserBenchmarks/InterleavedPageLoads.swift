import Foundation
import TrackerlessWebKitGTK

/// One page loaded in several web views, interleaved: each round loads it once in each view, in
/// an order that rotates from round to round; a load is timed from the call that starts it to
/// WebKit's load-finished event.
final class InterleavedPageLoads {
    /// A view under test: its label, its web view, and how to start a load in it.
    struct Contestant {
        var label: String
        var webView: WebView
        var load: (String) -> Void
    }

    private let contestants: [Contestant]
    private let page: String
    private let warmUpRounds: Int
    private let rounds: Int
    private let done: ([[Double]], [String]) -> Void
    private var round = 0
    private var queue: [Int] = []
    private var started = DispatchTime.now()
    private var current: Int?
    private var times: [[Double]]
    private var failures: [String] = []

    /// `done` gets each contestant's load times in milliseconds (measured rounds only, in round
    /// order) and the load failures.
    init(contestants: [Contestant], page: String, warmUpRounds: Int, rounds: Int, done: @escaping ([[Double]], [String]) -> Void) {
        self.contestants = contestants
        self.page = page
        self.warmUpRounds = warmUpRounds
        self.rounds = rounds
        self.done = done
        times = contestants.map { _ in [] }
        for (index, contestant) in contestants.enumerated() {
            let view = contestant.webView
            let previous = view.onLoadEvent
            view.onLoadEvent = { [weak self] event in
                previous?(event)
                if event == .finished { self?.finished(index) }
            }
            view.onLoadFailure = { [weak self] url, domain, code, message in
                self?.failures.append("\(contestant.label): \(url): \(domain) \(code): \(message)")
            }
        }
    }

    /// Records a failure that happened before the loads (a list that did not compile).
    func fail(_ failure: String) {
        failures.append(failure)
        done(times, failures)
    }

    func start() { nextRound() }

    private func nextRound() {
        guard round < warmUpRounds + rounds else { return done(times, failures) }
        let count = contestants.count
        queue = (0..<count).map { ($0 + round) % count }
        round += 1
        nextLoad()
    }

    private func nextLoad() {
        guard !queue.isEmpty else { return nextRound() }
        let index = queue.removeFirst()
        current = index
        let url = page + "?round=\(round)"
        started = .now()
        contestants[index].load(url)
    }

    private func finished(_ index: Int) {
        guard index == current else { return }
        current = nil
        let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1_000_000
        if round > warmUpRounds { times[index].append(milliseconds) }
        // Let the page's late work (the scripts' batched reports) end before the next load.
        MainContext.after(milliseconds: 50) { [weak self] in self?.nextLoad() }
    }
}

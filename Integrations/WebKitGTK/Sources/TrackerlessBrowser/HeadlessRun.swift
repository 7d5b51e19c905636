import CWebKitGTK
import Foundation
import PrivacyStatsKit
import TrackerlessCore
import TrackerlessRuntime
import TrackerlessWebKitGTK

/// `--headless`: each URL in turn in one web view; one dashboard snapshot per page the tab
/// committed, in order, each written once the page has ended (the next page committed and
/// settled, or the run ended): a page that navigated itself away has its own, and a page's
/// snapshot holds what it reported while going away (its unload beacons).
final class HeadlessRun {
    /// A page is settled this long after the last load ended or message arrived...
    static let quietMilliseconds = 600
    /// ...and no sooner than this after its load finished (two batch intervals of the scripts).
    static let afterFinishMilliseconds = 300
    /// A page that never settles is cut off here, counted from the start of its load (not from
    /// the call to load it: a first launch compiles the rule lists before that).
    static let pageLimitMilliseconds = 20_000

    private let runtime: ProtectionRuntime
    private let view: ProtectedWebView
    private let urls: [String]
    private let toggles: [Int: [(enabled: Bool, site: String)]]
    private let clicks: [Int: [String]]
    /// The current page's clicks still to make, each once the page has settled.
    private var pendingClicks: [String] = []
    private let snapshotsPath: String
    private let done: (Int32) -> Void
    private var index = -1
    private var lines: [String] = []
    private var failures: [String] = []
    private var lastActivity = DispatchTime.now()
    private var finishedAt: DispatchTime?
    /// Whether ``poll()`` runs for the current URL (one loop, however many loads finish).
    private var isPolling = false
    private var pageStarted = DispatchTime.now()
    /// The pages that ended (another committed after them), not written yet: their numbers in
    /// the statistics, and their dashboards as they ended, for a page the statistics no longer keep.
    private var endedPages: [(number: Int, snapshot: PageSnapshot)] = []

    init(
        runtime: ProtectionRuntime, view: ProtectedWebView, urls: [String], toggles: [Int: [(enabled: Bool, site: String)]],
        clicks: [Int: [String]] = [:], snapshotsPath: String, done: @escaping (Int32) -> Void
    ) {
        self.clicks = clicks
        self.runtime = runtime
        self.view = view
        self.urls = urls
        self.toggles = toggles
        self.snapshotsPath = snapshotsPath
        self.done = done
        view.webView.onLoadEvent = { [weak self] event in
            guard let self else { return }
            if event == .started {
                // A page that navigates itself away (`location.href`) is waited for: the page it
                // leads to loads and settles before the next URL.
                self.pageStarted = .now()
                self.finishedAt = nil
                self.lastActivity = .now()
            }
            if event == .committed, let url = self.view.webView.url {
                if let number = self.runtime.stats.pageNumber(tab: self.view.tab) {
                    self.endedPages.append((number, self.runtime.stats.snapshot(tab: self.view.tab)))
                }
                self.runtime.didCommitNavigation(tab: self.view.tab, url: url)
            }
            if event == .finished, self.finishedAt == nil {
                self.finishedAt = .now()
                if !self.isPolling {
                    self.isPolling = true
                    self.poll()
                }
            }
        }
        view.webView.onLoadFailure = { [weak self] url, domain, code, message in
            guard let self, self.index >= 0, self.index < self.urls.count else { return }
            self.failures.append("\(self.urls[self.index]): \(domain) \(code): \(message) (\(url))")
        }
        view.webView.onResourceLoadEnded = { [weak self] _ in self?.lastActivity = .now() }
        view.onMessage = { [weak self] _ in self?.lastActivity = .now() }
        view.onObservation = { [weak self] _ in self?.lastActivity = .now() }
        view.onFilterError = { [weak self] error in
            self?.failures.append("\(error)")
            self?.finish()
        }
    }

    func start() { next() }

    private func next() {
        index += 1
        for toggle in toggles[index] ?? [] {
            do {
                try runtime.setProtection(toggle.enabled, forSite: toggle.site)
            } catch {
                failures.append("--protection-\(toggle.enabled ? "on" : "off") \(toggle.site): \(error)")
                return finish()
            }
        }
        guard index < urls.count else { return finish() }
        finishedAt = nil
        pendingClicks = clicks[index] ?? []
        lastActivity = .now()
        pageStarted = .now()
        view.load(urls[index])
    }

    private func poll() {
        let now = DispatchTime.now()
        func elapsed(since start: DispatchTime) -> Int { Int((now.uptimeNanoseconds - start.uptimeNanoseconds) / 1_000_000) }
        let settled = finishedAt.map { elapsed(since: $0) >= Self.afterFinishMilliseconds } ?? false
            && elapsed(since: lastActivity) >= Self.quietMilliseconds
        if settled, !pendingClicks.isEmpty {
            let selector = pendingClicks.removeFirst()
            lastActivity = .now()
            view.webView.click(selector: selector) { [weak self] failure in
                guard let self else { return }
                if let failure { self.failures.append("\(self.urls[self.index]): \(failure)") }
                self.lastActivity = .now()
                self.poll()
            }
            return
        }
        if settled || elapsed(since: pageStarted) >= Self.pageLimitMilliseconds {
            if !settled { failures.append("\(urls[index]): did not settle within \(Self.pageLimitMilliseconds) ms") }
            isPolling = false
            writeEndedPages()
            next()
        } else {
            MainContext.after(milliseconds: 100) { [weak self] in self?.poll() }
        }
    }

    /// The snapshots of the pages that ended, each with what its documents reported since.
    private func writeEndedPages() {
        for (number, snapshot) in endedPages {
            lines.append((runtime.stats.snapshot(tab: view.tab, page: number) ?? snapshot).jsonString())
        }
        endedPages = []
    }

    private func finish() {
        writeEndedPages()
        if runtime.stats.pageNumber(tab: view.tab) != nil { lines.append(runtime.stats.snapshot(tab: view.tab).jsonString()) }
        FileHandle.standardError.write(Data("trackerless-browser: rule lists: \(view.compiledListCount) compiled, \(view.foundListCount) found in the store\n".utf8))
        let rejected = runtime.stats.rejections().filter { $0.value > 0 }.sorted { $0.key.rawValue < $1.key.rawValue }
        if !rejected.isEmpty {
            let counts = rejected.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
            FileHandle.standardError.write(Data("trackerless-browser: messages rejected: \(counts)\n".utf8))
        }
        for failure in failures { FileHandle.standardError.write(Data("trackerless-browser: \(failure)\n".utf8)) }
        do {
            try FileIO.writeAtomically(Array(lines.map { $0 + "\n" }.joined().utf8), to: snapshotsPath)
        } catch {
            FileHandle.standardError.write(Data("trackerless-browser: \(error)\n".utf8))
            return done(1)
        }
        // The store's removals of a replaced set's lists end before the process does.
        let status: Int32 = failures.isEmpty ? 0 : 1
        view.whenStoreSettled { [done] in done(status) }
    }
}

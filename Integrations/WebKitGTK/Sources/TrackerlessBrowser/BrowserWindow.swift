import CWebKitGTK
import Foundation
import PrivacyStatsKit
import TrackerlessCore
import TrackerlessRuntime
import TrackerlessWebKitGTK

/// The browser's window: an address bar, a protection switch for the current site, the web view,
/// and the current tab's privacy dashboard, updated as the page loads.
final class BrowserWindow {
    private let window: UnsafeMutablePointer<GtkWidget>
    private let runtime: ProtectionRuntime
    private let view: ProtectedWebView
    private let address: UnsafeMutablePointer<GtkWidget>
    private let protection: UnsafeMutablePointer<GtkWidget>
    private let dashboard: WebView
    private var dashboardRefreshPending = false
    /// Set while the switch is moved by code, so that its signal is not taken for the user's.
    private var updatingSwitch = false

    init(window: UnsafeMutablePointer<GtkWidget>, runtime: ProtectionRuntime, view: ProtectedWebView, onClose: @escaping () -> Void) {
        self.window = window
        self.runtime = runtime
        self.view = view
        address = gtk_entry_new()
        protection = gtk_switch_new()
        dashboard = WebView()

        let bar = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        gtk_widget_set_hexpand(address, 1)
        gtk_box_append(tl_gtk_box(bar), address)
        gtk_box_append(tl_gtk_box(bar), gtk_label_new("Protection"))
        gtk_box_append(tl_gtk_box(bar), protection)
        let paned = gtk_paned_new(GTK_ORIENTATION_HORIZONTAL)!
        gtk_widget_set_vexpand(paned, 1)
        gtk_paned_set_start_child(tl_gtk_paned(paned), view.webView.widget)
        gtk_paned_set_end_child(tl_gtk_paned(paned), dashboard.widget)
        gtk_paned_set_position(tl_gtk_paned(paned), 820)
        let column = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_box_append(tl_gtk_box(column), bar)
        gtk_box_append(tl_gtk_box(column), paned)
        gtk_window_set_child(tl_gtk_window(window), column)
        gtk_window_set_title(tl_gtk_window(window), "Trackerless")

        let activate: @convention(c) (gpointer?, gpointer?) -> Void = { _, data in
            guard let browser = CallbackBox<WeakBrowser>.peek(data).browser else { return }
            browser.open(String(cString: gtk_editable_get_text(tl_gtk_editable(UnsafeMutableRawPointer(browser.address)))))
        }
        connectSignal(UnsafeMutableRawPointer(address), "activate", activate, data: CallbackBox(WeakBrowser(self)).retained())
        let toggled: @convention(c) (gpointer?, gboolean, gpointer?) -> gboolean = { _, state, data in
            guard let browser = CallbackBox<WeakBrowser>.peek(data).browser, !browser.updatingSwitch else { return 0 }
            browser.setProtection(state != 0)
            return 0
        }
        connectSignal(UnsafeMutableRawPointer(protection), "state-set", toggled, data: CallbackBox(WeakBrowser(self)).retained())
        let close: @convention(c) (gpointer?, gpointer?) -> gboolean = { _, data in
            CallbackBox<() -> Void>.peek(data)()
            return 0
        }
        connectSignal(UnsafeMutableRawPointer(window), "close-request", close, data: CallbackBox(onClose).retained())

        let previousEvent = view.webView.onLoadEvent
        view.webView.onLoadEvent = { [weak self] event in
            previousEvent?(event)
            self?.pageChanged()
        }
        view.webView.onResourceLoadEnded = { [weak self] _ in self?.refreshDashboard() }
        view.onMessage = { [weak self] _ in self?.refreshDashboard() }
        view.onObservation = { [weak self] _ in self?.refreshDashboard() }
        gtk_window_present(tl_gtk_window(window))
    }

    /// Loads what the user typed (a URL, or a host to which https:// is added).
    func open(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return }
        view.load(trimmed.contains("://") ? trimmed : "https://" + trimmed)
    }

    private func setProtection(_ enabled: Bool) {
        guard let url = view.webView.url, let host = CanonicalURL(url)?.host, !host.isEmpty else { return }
        do {
            try runtime.setProtection(enabled, forSite: host)
            view.load(url)  // in effect at the next navigation: reload now
        } catch {
            FileHandle.standardError.write(Data("trackerless-browser: \(error)\n".utf8))
        }
    }

    private func pageChanged() {
        let url = view.webView.url ?? ""
        gtk_editable_set_text(tl_gtk_editable(UnsafeMutableRawPointer(address)), url)
        updatingSwitch = true
        gtk_switch_set_active(tl_gtk_switch(UnsafeMutableRawPointer(protection)), runtime.navigationPlan(for: url).isProtected ? 1 : 0)
        updatingSwitch = false
        refreshDashboard()
    }

    /// Redraws the dashboard at most every 250 ms.
    private func refreshDashboard() {
        guard !dashboardRefreshPending else { return }
        dashboardRefreshPending = true
        MainContext.after(milliseconds: 250) { [weak self] in
            guard let self else { return }
            self.dashboardRefreshPending = false
            self.dashboard.loadHTML(DashboardHTML.render(self.runtime.stats.snapshot(tab: self.view.tab)), baseURL: "about:blank")
        }
    }
}

/// A weak reference handed to GLib.
private final class WeakBrowser {
    weak var browser: BrowserWindow?
    init(_ browser: BrowserWindow) { self.browser = browser }
}

import CWebKitGTK
import Foundation

/// A click of the user's own, made through the X server's XTest extension: the pointer moves over
/// an element and its first button goes down and up, so WebKit receives real input events and the
/// page sees a click with `isTrusted` true, which a script's `click()` never gives. GTK 4 has no
/// public way to inject an event, so this is how a test (or the headless mode's `--click`)
/// clicks as a person would. It needs GTK's X11 backend (Xvfb) and libXtst; it fails with a
/// reason otherwise (Wayland has no such extension).
enum UserClick {
    /// Why a click could not be made.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private typealias GetXDisplay = @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?
    private typealias GetXID = @convention(c) (UnsafeMutableRawPointer?) -> UInt
    private typealias DefaultRootWindow = @convention(c) (UnsafeMutableRawPointer?) -> UInt
    private typealias TranslateCoordinates = @convention(c) (
        UnsafeMutableRawPointer?, UInt, UInt, Int32, Int32, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?,
        UnsafeMutablePointer<UInt>?
    ) -> Int32
    private typealias FakeMotion = @convention(c) (UnsafeMutableRawPointer?, Int32, Int32, Int32, UInt) -> Int32
    private typealias FakeButton = @convention(c) (UnsafeMutableRawPointer?, UInt32, Int32, UInt) -> Int32
    private typealias Flush = @convention(c) (UnsafeMutableRawPointer?) -> Int32

    private static func symbol<T>(_ handle: UnsafeMutableRawPointer?, _ name: String, as type: T.Type) throws(Failure) -> T {
        guard let pointer = dlsym(handle, name) else { throw Failure(description: "\(name) not found") }
        return unsafeBitCast(pointer, to: type)
    }

    /// Clicks the point (`x`, `y`) of `widget`, in its own coordinates.
    static func click(widget: UnsafeMutablePointer<GtkWidget>, x: Double, y: Double) throws(Failure) {
        guard let display = gdk_display_get_default(),
            String(cString: g_type_name_from_instance(UnsafeMutableRawPointer(display).assumingMemoryBound(to: GTypeInstance.self))) == "GdkX11Display"
        else { throw Failure(description: "not on GTK's X11 backend") }
        guard let native = gtk_widget_get_native(widget), let surface = gtk_native_get_surface(native) else {
            throw Failure(description: "the web view is not in a window")
        }
        var windowX = 0.0, windowY = 0.0
        guard gtk_widget_translate_coordinates(widget, tl_gtk_widget(UnsafeMutableRawPointer(native)), x, y, &windowX, &windowY) != 0 else {
            throw Failure(description: "the web view is not in its window's tree")
        }
        var shadowX = 0.0, shadowY = 0.0
        gtk_native_get_surface_transform(native, &shadowX, &shadowY)
        let own = dlopen(nil, RTLD_NOW)
        guard let xtst = dlopen("libXtst.so.6", RTLD_NOW) else { throw Failure(description: "libXtst.so.6 is not installed") }
        let xDisplay = try symbol(own, "gdk_x11_display_get_xdisplay", as: GetXDisplay.self)(UnsafeMutableRawPointer(display))
        let xid = try symbol(own, "gdk_x11_surface_get_xid", as: GetXID.self)(UnsafeMutableRawPointer(surface))
        let root = try symbol(own, "XDefaultRootWindow", as: DefaultRootWindow.self)(xDisplay)
        var rootX: Int32 = 0, rootY: Int32 = 0
        var child: UInt = 0
        guard try symbol(own, "XTranslateCoordinates", as: TranslateCoordinates.self)(
            xDisplay, xid, root, Int32((windowX + shadowX).rounded()), Int32((windowY + shadowY).rounded()), &rootX, &rootY, &child) != 0
        else { throw Failure(description: "the window is on another screen") }
        let motion = try symbol(xtst, "XTestFakeMotionEvent", as: FakeMotion.self)
        let button = try symbol(xtst, "XTestFakeButtonEvent", as: FakeButton.self)
        let flush = try symbol(own, "XFlush", as: Flush.self)
        guard motion(xDisplay, -1, rootX, rootY, 0) != 0, button(xDisplay, 1, 1, 10) != 0, button(xDisplay, 1, 0, 10) != 0 else {
            throw Failure(description: "the X server has no XTEST extension")
        }
        _ = flush(xDisplay)
    }
}

extension WebView {
    /// Clicks, as the user would (``UserClick``), the middle of the first element of the main
    /// frame that matches the CSS `selector`, scrolled into view first; `completion` gets nil or
    /// why it could not.
    public func click(selector: String, completion: @escaping (String?) -> Void) {
        let quoted = String(decoding: (try? JSONSerialization.data(withJSONObject: [selector])) ?? Data("[\"\"]".utf8), as: UTF8.self)
        // In an isolated world of its own, so that nothing of the page's runs or sees it.
        let script = """
            (function () { var e = document.querySelector(\(quoted)[0]); if (!e) return ""; e.scrollIntoView({block: "center", inline: "center"});
              var r = e.getBoundingClientRect(); return (r.left + r.width / 2) + " " + (r.top + r.height / 2); })()
            """
        let box = CallbackBox((WeakWebView(self), selector, completion))
        let callback: GAsyncReadyCallback = { source, result, data in
            let (weak, selector, completion) = CallbackBox<(WeakWebView, String, (String?) -> Void)>.take(data)
            var error: UnsafeMutablePointer<GError>?
            let value = webkit_web_view_evaluate_javascript_finish(
                UnsafeMutableRawPointer(source)?.assumingMemoryBound(to: WebKitWebView.self), result, &error)
            defer { if let value { g_object_unref(UnsafeMutableRawPointer(value)) } }
            if let error { g_error_free(error) }
            guard let webView = weak.webView, let value, jsc_value_is_string(value) != 0, let text = jsc_value_to_string(value) else {
                return completion("no page to click \(selector) in")
            }
            let point = String(cString: text).split(separator: " ").compactMap { Double($0) }
            g_free(text)
            guard point.count == 2 else { return completion("no element matches \(selector)") }
            // One frame for the scroll to be laid out and drawn before the pointer moves there.
            MainContext.after(milliseconds: 100) {
                do throws(UserClick.Failure) {
                    try UserClick.click(widget: webView.widget, x: point[0], y: point[1])
                    completion(nil)
                } catch {
                    completion("could not click \(selector): \(error)")
                }
            }
        }
        webkit_web_view_evaluate_javascript(view, script, -1, "trackerless-user-click", nil, nil, callback, box.retained())
    }
}

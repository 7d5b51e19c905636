import CWebKitGTK

final class Box { var loop: OpaquePointer? }
let box = Box()
gtk_init()
let loop = g_main_loop_new(nil, 0)
box.loop = loop
let widget = webkit_web_view_new()!
let window = gtk_window_new()!
gtk_window_set_child(tl_gtk_window(window), widget)
let loadChanged: @convention(c) (UnsafeMutableRawPointer?, WebKitLoadEvent, UnsafeMutableRawPointer?) -> Void = { _, event, data in
    let box = Unmanaged<Box>.fromOpaque(data!).takeUnretainedValue()
    print("load-changed", event.rawValue)
    if event == WEBKIT_LOAD_FINISHED { g_main_loop_quit(box.loop) }
}
g_signal_connect_data(UnsafeMutableRawPointer(widget), "load-changed", unsafeBitCast(loadChanged, to: GCallback.self), Unmanaged.passUnretained(box).toOpaque(), nil, GConnectFlags(rawValue: 0))
let webView = WEBKIT_WEB_VIEW(widget)
webkit_web_view_load_html(webView, "<p>hello</p>", "http://127.0.0.1/")
gtk_window_present(tl_gtk_window(window))
g_main_loop_run(loop)
print("done")

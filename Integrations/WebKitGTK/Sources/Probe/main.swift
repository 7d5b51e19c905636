import CWebKitGTK
import TrackerlessWebKitGTK

final class Box { var loop: OpaquePointer? }
let box = Box()
gtk_init()
let loop = g_main_loop_new(nil, 0)
box.loop = loop
let store = ContentFilterStore(directory: "/tmp/probe-store")
let content = UserContent()
let rules = #"[{"trigger":{"url-filter":"blocked"},"action":{"type":"block"}}]"#
content.addScript("window.webkit.messageHandlers.t.postMessage({hello: 'page', n: 1})", world: nil)
content.addScript("window.webkit.messageHandlers.t.postMessage({hello: 'isolated'})", world: "trackerless")
print("handler", content.registerMessageHandler(name: "t", worlds: [nil, "trackerless"]) { print("message:", $0) })
store.filter(identifier: "probe-1", source: { Array(rules.utf8) }) { result in
    switch result {
    case .success(let (filter, compiled)):
        print("filter", filter.identifier, "compiled:", compiled)
        content.add(filter)
        store.identifiers { print("stored:", $0) }
        let widget = tl_web_view_new(OpaquePointer(content.pointerForProbe), nil)!
        let window = gtk_window_new()!
        gtk_window_set_child(tl_gtk_window(window), widget)
        let loadChanged: @convention(c) (UnsafeMutableRawPointer?, WebKitLoadEvent, UnsafeMutableRawPointer?) -> Void = { _, event, data in
            if event == WEBKIT_LOAD_FINISHED {
                let box = Unmanaged<Box>.fromOpaque(data!).takeUnretainedValue()
                g_timeout_add(500, { data in g_main_loop_quit(Unmanaged<Box>.fromOpaque(data!).takeUnretainedValue().loop); return 0 }, data)
                _ = box
            }
        }
        g_signal_connect_data(UnsafeMutableRawPointer(widget), "load-changed", unsafeBitCast(loadChanged, to: GCallback.self), Unmanaged.passUnretained(box).toOpaque(), nil, GConnectFlags(rawValue: 0))
        webkit_web_view_load_html(WEBKIT_WEB_VIEW(widget), "<p>hello</p>", "http://127.0.0.1/")
        gtk_window_present(tl_gtk_window(window))
    case .failure(let error): print("error", error); g_main_loop_quit(box.loop)
    }
}
g_main_loop_run(loop)
print("done")

import CWebKitGTK
import TrackerlessWebKitGTK

final class Box { var loop: OpaquePointer? }
let box = Box()
gtk_init()
let loop = g_main_loop_new(nil, 0)
box.loop = loop
let store = ContentFilterStore(directory: "/tmp/probe-store")
let rules = #"[{"trigger":{"url-filter":"blocked"},"action":{"type":"block"}}]"#
let session = NetworkSession.ephemeral()
session.useProxy(host: "127.0.0.1", port: Int(CommandLine.arguments[1])!)
session.ignoreCertificateErrors()
let webView = WebView(session: session)
webView.onLoadEvent = { event in
    print("event", event)
    if event == .finished {
        g_timeout_add(2000, { data in
            g_main_loop_quit(Unmanaged<Box>.fromOpaque(data!).takeUnretainedValue().loop); return 0
        }, Unmanaged.passUnretained(box).toOpaque())
    }
}
webView.onResourceLoadEnded = { print("ended", $0.url, $0.outcome) }
store.filter(identifier: "probe-2", source: { Array(rules.utf8) }) { result in
    guard case .success(let (filter, compiled)) = result else { print(result); return }
    print("compiled", compiled)
    webView.userContent.add(filter)
    let window = gtk_window_new()!
    gtk_window_set_child(tl_gtk_window(window), webView.widget)
    gtk_window_present(tl_gtk_window(window))
    webView.load(CommandLine.arguments[2])
}
g_main_loop_run(loop)
for load in webView.loads { print(load) }

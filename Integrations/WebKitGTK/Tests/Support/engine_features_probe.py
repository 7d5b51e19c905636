#!/usr/bin/env python3
"""What a WebKitGTK (GI WebKit2 4.1, else 4.0) does with engine mode's switches, for the tests of
other WebKitGTK versions (run in a root of .ci/install-webkit-roots.sh under its xvfb-run).

Usage: engine_features_probe.py [FEATURE...]   (under xvfb-run -a itself when there is no DISPLAY)

Turns each WebKit feature named off (`WebKitFeature` identifiers; a name this WebKit does not know
is listed as missing), adds a content filter with one rule, `websocket` handshakes to
`ws://127.0.0.1:PORT/blocked`, and loads one page at `http://localhost/` (a secure context, whose `ws:` is no mixed content) that reports whether it
has `SharedWorker` and `navigator.serviceWorker`, opens that blocked socket, then an allowed one
to another path, and holds a `<link rel=preconnect>` to a second loopback port. Prints one JSON
object: the version, the missing features, what the page saw, and how many TCP connections each
loopback port accepted (the socket's port: 1 when only the allowed socket connected).
"""

import glob
import json
import socket
import sys
import tempfile
import threading

import gi

API = "4.1" if glob.glob("/usr/lib/*/girepository-1.0/WebKit2-4.1.typelib") else "4.0"
gi.require_version("WebKit2", API)
gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk, WebKit2  # noqa: E402
from probe_display import ensure_display  # noqa: E402


def listener():
    """A loopback port that counts the connections it accepts."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    accepted = []

    def accept():
        while True:
            connection, _ = server.accept()
            accepted.append(1)
            connection.close()

    threading.Thread(target=accept, daemon=True).start()
    return server.getsockname()[1], accepted


def main():
    ensure_display(__file__)
    Gtk.init([])
    socket_port, socket_accepted = listener()
    hint_port, hint_accepted = listener()
    result = {"version": "%d.%d.%d" % (WebKit2.get_major_version(), WebKit2.get_minor_version(), WebKit2.get_micro_version())}
    loop = GLib.MainLoop()
    manager = WebKit2.UserContentManager()
    view = WebKit2.WebView.new_with_user_content_manager(manager)
    settings = view.get_settings()
    features = WebKit2.Settings.get_all_features()
    known = {features.get(i).get_identifier(): features.get(i) for i in range(features.get_length())}
    result["missing"] = [name for name in sys.argv[1:] if name not in known]
    for name in sys.argv[1:]:
        if name in known:
            settings.set_feature_enabled(known[name], False)

    def received(_manager, value):
        result["page"] = json.loads(value.get_js_value().to_string())
        # The allowed socket connected before the page posted; give a preconnect time to open.
        GLib.timeout_add(500, loop.quit)

    manager.connect("script-message-received::probe", received)
    manager.register_script_message_handler("probe")
    page = """<!DOCTYPE html><link rel="preconnect" href="http://127.0.0.1:%d/"><script>
var seen = {sharedWorker: typeof SharedWorker, serviceWorker: typeof navigator.serviceWorker, secure: isSecureContext};
var posted = false;
function post() { if (!posted) { posted = true; window.webkit.messageHandlers.probe.postMessage(JSON.stringify(seen)); } }
setTimeout(post, 3000);
var blocked = new WebSocket('ws://127.0.0.1:%d/blocked');
blocked.onopen = function () { seen.blocked = 'open'; };
blocked.onerror = function () {
  seen.blocked = 'error';
  var allowed = new WebSocket('ws://127.0.0.1:%d/allowed');
  allowed.onerror = allowed.onclose = function () { seen.allowed = 'ended'; post(); };
};
</script>""" % (hint_port, socket_port, socket_port)
    rules = json.dumps([{"trigger": {"url-filter": "^wss?://127\\.0\\.0\\.1:%d/blocked" % socket_port, "resource-type": ["websocket"]},
                         "action": {"type": "block"}}])
    store = WebKit2.UserContentFilterStore.new(tempfile.mkdtemp())

    def saved(source, outcome, _data):
        manager.add_filter(source.save_finish(outcome))
        view.load_html(page, "http://localhost/")

    store.save("probe", GLib.Bytes.new(rules.encode()), None, saved, None)
    GLib.timeout_add(15000, loop.quit)
    loop.run()
    result["socketConnections"] = len(socket_accepted)
    result["hintConnections"] = len(hint_accepted)
    print(json.dumps(result, sort_keys=True))


if __name__ == "__main__":
    main()

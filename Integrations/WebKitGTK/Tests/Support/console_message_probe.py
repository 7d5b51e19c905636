#!/usr/bin/env python3
"""What a WebKitGTK (GI WebKit2 4.1, else 4.0) tells a web extension's `console-message-sent` of
a load its content filter blocked, for the tests of other WebKitGTK versions (run in a root of
.ci/install-webkit-roots.sh under its xvfb-run).

Usage: console_message_probe.py EXTENSION_DIR [ephemeral]   (under xvfb-run -a itself when there
is no DISPLAY)

EXTENSION_DIR holds console_probe_extension.so (console_probe_extension.c, built by the test),
which writes each console message a page sends to standard error. The probe adds a content filter
that blocks `http://127.0.0.1:PORT/blocked.gif` and loads a page at `http://localhost/` that
requests it and prints WebKit's words for another URL with `console.info`, in a persistent web
context, or an ephemeral one with `ephemeral`. The messages come on standard error, mixed with
WebKit's; the test reads the extension's lines there. Prints one JSON object: the version and the
blocked URL.
"""

import glob
import json
import random
import sys
import tempfile

import gi

API = "4.1" if glob.glob("/usr/lib/*/girepository-1.0/WebKit2-4.1.typelib") else "4.0"
gi.require_version("WebKit2", API)
gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk, WebKit2  # noqa: E402
from probe_display import ensure_display  # noqa: E402


def main():
    ensure_display(__file__)
    Gtk.init([])
    extension_directory = sys.argv[1]
    ephemeral = sys.argv[2:] == ["ephemeral"]
    port = random.randint(20000, 60000)
    blocked = "http://127.0.0.1:%d/blocked.gif" % port
    result = {"version": "%d.%d.%d" % (WebKit2.get_major_version(), WebKit2.get_minor_version(), WebKit2.get_micro_version()),
              "blocked": blocked}
    context = WebKit2.WebContext.new_ephemeral() if ephemeral else WebKit2.WebContext.new()
    context.set_web_extensions_directory(extension_directory)
    loop = GLib.MainLoop()
    manager = WebKit2.UserContentManager()
    view = WebKit2.WebView(web_context=context, user_content_manager=manager)
    page = """<!DOCTYPE html><img src="%s"><script>
console.info('Content blocker prevented frame displaying http://localhost/ from loading a resource from http://127.0.0.1:%d/forged.gif');
</script>""" % (blocked, port)
    rules = json.dumps([{"trigger": {"url-filter": "^http://127\\.0\\.0\\.1:%d/blocked" % port}, "action": {"type": "block"}}])
    store = WebKit2.UserContentFilterStore.new(tempfile.mkdtemp())

    def saved(source, outcome, _data):
        manager.add_filter(source.save_finish(outcome))
        view.load_html(page, "http://localhost/")

    def loaded(_view, event):
        if event == WebKit2.LoadEvent.FINISHED:
            GLib.timeout_add(1000, loop.quit)

    view.connect("load-changed", loaded)
    store.save("probe", GLib.Bytes.new(rules.encode()), None, saved, None)
    GLib.timeout_add(15000, loop.quit)
    loop.run()
    sys.stderr.flush()
    print(json.dumps(result, sort_keys=True))


if __name__ == "__main__":
    main()

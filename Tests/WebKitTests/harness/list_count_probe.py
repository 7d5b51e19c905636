#!/usr/bin/python3
"""Measure what WebKitGTK's content filters cost a page's loads, by list set (how many lists).

    list_count_probe.py [--rounds N] [--loads N] [--requests FILE] NAME=DIR [NAME=DIR ...]

For measurement only (BENCHMARKS.md, "WebKit compile time of our list"): each NAME=DIR is a set
of lists (DIR/rules*.json, as `trackerless rules --output DIR/` writes it, sources files left
out; `none=` for no list). Every set is compiled once in WebKitGTK's UserContentFilterStore and
added to a user content manager of its own, with a web view of its own. A round loads, in each
view in turn (the order rotating by round), one page with N subresources: the first N URLs of
the requests file (the real requests, `http:` in place of `https:` so that no TLS is timed),
each an image with a cache-busting query. Every request goes to a loopback proxy started here
(127.0.0.1, ephemeral port), which answers each with a 1×1 GIF and forwards nothing. The time
is from `load_uri` to the load's end (all subresources settled); printed per set: the median
over the rounds, and the median of the per-round differences to the first set. Without DISPLAY
it re-executes itself under `xvfb-run -a`; the WebKitGTK its interpreter loads (4.1, or 4.0): in
a WebKit root, `in_webkit_root.py --ro-bind LISTS --ro-bind REQUESTS_DIR ROOT /usr/bin/python3
list_count_probe.py --requests FILE …`.
"""

import argparse
import glob
import html
import json
import os
import statistics
import sys
import tempfile
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import webkit_harness  # noqa: E402

GIF = bytes.fromhex("47494638396101000100800000000000ffffff21f90401000000002c00000000010001000002024401003b")
PAGE_HOST = "http://page.example/"


class Proxy(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    pages = {}
    seen = [0]

    def do_GET(self):  # noqa: N802 (http.server's name)
        Proxy.seen[0] += 1
        body, kind = Proxy.pages.get(self.path.split("#")[0], (GIF, "image/gif"))
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args):
        pass


def list_files(directory):
    if not directory:
        return []
    return sorted(path for path in glob.glob(os.path.join(directory, "rules*.json"))
                  if not path.endswith(".sources.json"))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--loads", type=int, default=1000)
    parser.add_argument("--requests", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "../../../../shared/data/requests/matching-test-requests.json"))
    parser.add_argument("sets", nargs="+", metavar="NAME=DIR")
    args = parser.parse_args()
    webkit_harness.ensure_display(__file__)
    webkit_harness.import_webkit(need_gtk=True)
    from gi.repository import GLib, Gtk, WebKit2

    with open(args.requests, encoding="utf-8") as handle:
        urls = []
        for request in json.load(handle):
            url = request["url"]
            if url.startswith("https://"):
                url = "http://" + url[len("https://"):]
            if url.startswith("http://") and url not in urls:
                urls.append(url)
            if len(urls) == args.loads:
                break

    server = ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sets = [entry.split("=", 1) for entry in args.sets]
    with tempfile.TemporaryDirectory(prefix="list-count-probe-") as tmp:
        compiler = webkit_harness.FilterCompiler(os.path.join(tmp, "store"))
        views = []
        for index, (name, directory) in enumerate(sets):
            manager = WebKit2.UserContentManager()
            files = list_files(directory)
            for number, path in enumerate(files):
                with open(path, "rb") as handle:
                    content_filter, error, _, _ = compiler.compile("s%d.%d" % (index, number), handle.read())
                if error:
                    sys.exit("%s: %s" % (path, error))
                manager.add_filter(content_filter)
            context = webkit_harness.proxied_web_context(server.server_address[1])
            view = WebKit2.WebView(web_context=context, user_content_manager=manager)
            window = Gtk.Window()
            window.set_default_size(800, 600)
            window.add(view)
            window.show_all()
            views.append((name, len(files), view))
        loop = GLib.MainLoop()
        state = {}

        def on_load_changed(_view, event):
            if event == WebKit2.LoadEvent.FINISHED:
                state["end"] = time.monotonic()
                state["requests"] = Proxy.seen[0]
                loop.quit()

        for _, _, view in views:
            view.connect("load-changed", on_load_changed)

        def load(view, tag):
            images = "".join('<img src="%s">' % html.escape(url +  ("&" if "?" in url else "?") + "tl=" + tag)
                             for url in urls)
            page = "/p/" + tag
            Proxy.pages[PAGE_HOST.rstrip("/") + page] = (
                ("<!doctype html><title>p</title><body>%s</body>" % images).encode(), "text/html")
            start = time.monotonic()
            state.pop("end", None)
            timer = GLib.timeout_add_seconds(120, loop.quit)
            view.load_uri(PAGE_HOST.rstrip("/") + page)
            loop.run()
            if "end" not in state:
                sys.exit("%s: the page did not finish loading in 120 s (%d requests seen)" % (tag, Proxy.seen[0]))
            GLib.source_remove(timer)
            return state["end"] - start

        for index, (_, _, view) in enumerate(views):
            load(view, "warm%d" % index)
        times = {name: [] for name, _, _ in views}
        for round_number in range(args.rounds):
            order = views[round_number % len(views):] + views[:round_number % len(views)]
            for name, _, view in order:
                times[name].append(load(view, "r%d%s" % (round_number, name)))
    first = sets[0][0]
    print("WebKit %s.%s.%s, %d rounds, %d loads a page" % (
        WebKit2.get_major_version(), WebKit2.get_minor_version(), WebKit2.get_micro_version(), args.rounds, len(urls)))
    for name, count, _ in views:
        differences = [mine - theirs for mine, theirs in zip(times[name], times[first])]
        print("%-28s %3d lists  %8.1f ms  (min %7.1f)  against %s: %+7.1f ms" % (
            name, count, statistics.median(times[name]) * 1000, min(times[name]) * 1000, first,
            statistics.median(differences) * 1000))


if __name__ == "__main__":
    main()

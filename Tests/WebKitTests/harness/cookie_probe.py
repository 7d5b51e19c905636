#!/usr/bin/python3
"""Observes cookies in WebKitGTK. stdin: JSON lines {"id", "top", "url", "kind": "request" | "frame"};
argv[1], optional: a rule list file. stdout: JSON lines {"id", "cookieSent", "setCookieStored"
(requests), "documentCookie" (frames), "detail"}. Every host is answered by a loopback proxy;
before each case the jar holds only "seed=1" for the URL's host.

Every load goes over https (an http:// URL of a case is loaded as https://; the proxy terminates
TLS with webkit_harness's throw-away certificate) and every cookie is SameSite=None; Secure: a
cross-site load carries cookies only with SameSite=None, and WebKitGTK 2.54 (libsoup 3.6) stores
a SameSite=None cookie only when it is Secure (measured: over http its jar stays empty).

Run by CookieRulesInWebKitTests.swift (CookieProbe) with /usr/bin/python3 (PyGObject, WebKit2 4.1
with Soup 3, or WebKit2 4.0 with Soup 2.4), inside a WebKit root when TRACKERLESS_WEBKIT_ROOT is
set (WebKitHarness.run). Without DISPLAY it re-executes itself under `xvfb-run -a` (webkit_harness.ensure_display).
"""
import json
import os
import shutil
import sys
import tempfile
import threading
import time
import urllib.parse
from http.server import ThreadingHTTPServer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from webkit_harness import ProxyHandler, canonical, ensure_display, import_webkit, make_tls_context  # noqa: E402

ensure_display(__file__)

# WebKit2 4.1 with Soup 3, or 4.0 with Soup 2.4 (webkit_harness.import_webkit).
import_webkit(need_gtk=True, need_soup=True)
from gi.repository import GLib, Gtk, Soup, WebKit2  # noqa: E402

GIF = bytes.fromhex("47494638396101000100800000000000ffffff21f90401000000002c00000000010001000002024401003b")
lock = threading.Lock()
pages = {}      # url -> (content type, body, extra headers)
seen = {}       # url -> Cookie header or ""


def secure(url):
    """The URL over https (the proxy sees https requests' headers inside its TLS tunnel)."""
    return "https://" + url[len("http://"):] if url.startswith("http://") else url


class Handler(ProxyHandler):
    """webkit_harness's proxy (CONNECT + TLS), answering from `pages` and noting Cookie headers."""

    def serve(self):
        url = canonical(self.requested_url())
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        with lock:
            seen[url] = self.headers.get("Cookie") or ""
            page = pages.get(url)
        ctype, body, extra = page if page else ("text/plain", b"", {})
        self.send_response(200 if page else 404)
        self.send_header("Content-Type", ctype)
        self.send_header("Cache-Control", "no-store")
        self.send_header("Content-Length", str(len(body)))
        for name, value in extra.items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        self.wfile.flush()

    do_GET = do_POST = do_HEAD = serve


store_dir = tempfile.mkdtemp(prefix="cookie-probe-")
proxy = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
proxy.daemon_threads = True
proxy.tls_context = make_tls_context(store_dir)
threading.Thread(target=proxy.serve_forever, daemon=True).start()
loop_context = GLib.MainContext.default()


def wait(predicate, seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end and not predicate():
        loop_context.iteration(False)
        time.sleep(0.002)
    return predicate()


def call(start):
    # Runs an async WebKit call to completion; returns the callback's arguments.
    box = {}
    start(lambda *args: box.setdefault("result", args))
    wait(lambda: "result" in box, 10)
    return box.get("result")


content_filter = None
if len(sys.argv) > 1:
    store = WebKit2.UserContentFilterStore.new(store_dir)
    with open(sys.argv[1], "rb") as rules:
        source = rules.read()
    result = call(lambda done: store.save("cookies", GLib.Bytes.new(source), None, done, None))
    content_filter = store.save_finish(result[1])

Gtk.init_check(None)
manager = WebKit2.WebsiteDataManager.new_ephemeral()
manager.set_network_proxy_settings(WebKit2.NetworkProxyMode.CUSTOM,
                                   WebKit2.NetworkProxySettings.new("http://127.0.0.1:%d" % proxy.server_address[1], None))
manager.set_itp_enabled(False)
manager.set_tls_errors_policy(WebKit2.TLSErrorsPolicy.IGNORE)
cookies = manager.get_cookie_manager()
cookies.set_accept_policy(WebKit2.CookieAcceptPolicy.ALWAYS)
context = WebKit2.WebContext.new_with_website_data_manager(manager)
content = WebKit2.UserContentManager()
if content_filter is not None:
    content.add_filter(content_filter)
view = WebKit2.WebView(web_context=context, user_content_manager=content)
window = Gtk.Window()
window.add(view)
window.show_all()
def jar_names(url):
    result = call(lambda done: cookies.get_cookies(url, None, done, None))
    return [c.get_name() for c in cookies.get_cookies_finish(result[1])] if result else []


def seed_jar(url, host):
    """Empties the jar and puts "seed=1" in it for `host`, checked by reading the jar back: on a
    busy machine an asynchronous clear can finish after the add that follows it. Returns a note for
    the detail when the jar still did not hold the seed after three tries."""
    for _ in range(3):
        call(lambda done: manager.clear(WebKit2.WebsiteDataTypes.COOKIES, 0, None, done, None))
        seed = Soup.Cookie.new("seed", "1", host, "/", -1)
        seed.set_same_site_policy(Soup.SameSitePolicy.NONE)
        seed.set_secure(True)
        call(lambda done: cookies.add_cookie(seed, None, done, None))
        if jar_names(url) == ["seed"]:
            return ""
    return ", jar before the load %r" % jar_names(url)


def run_case(case):
    """One case in the view; the result line, and whether the proxy saw any request at all."""
    top, url = canonical(secure(case["top"])), canonical(secure(case["url"]))
    host = urllib.parse.urlsplit(url).hostname
    report = "https://report.invalid/r?id=" + urllib.parse.quote(case["id"])
    if case["kind"] == "request":
        body = '<!doctype html><img src="%s">' % url
        served = {url: ("image/gif", GIF, {"Set-Cookie": "fromheader=1; Path=/; SameSite=None; Secure"})}
    else:
        body = '<!doctype html><iframe src="%s"></iframe>' % url
        script = ('<!doctype html><script>document.cookie = "favorite_food=tripe; SameSite=None; Secure";'
                  'new Image().src = "%s&c=" + encodeURIComponent(document.cookie);</script>' % report)
        served = {url: ("text/html", script.encode(), {})}
    with lock:
        pages.clear()
        seen.clear()
        pages[top] = ("text/html", body.encode(), {})
        pages.update(served)
    seeded = seed_jar(url, host)
    view.load_uri(top)
    if case["kind"] == "request":
        wait(lambda: url in seen, 8)
        wait(lambda: False, 0.3)
        stored = jar_names(url)
        out = {"id": case["id"], "cookieSent": "seed=1" in seen.get(url, ""),
               "setCookieStored": "fromheader" in stored,
               "detail": "cookie header %r, jar %r, seen %r%s" % (seen.get(url), stored, sorted(seen), seeded)}
    else:
        wait(lambda: any(u.startswith(report) for u in seen), 8)
        reported = [u for u in seen if u.startswith(report)]
        value = urllib.parse.parse_qs(urllib.parse.urlsplit(reported[0]).query).get("c", [""])[0] if reported else None
        out = {"id": case["id"], "cookieSent": "seed=1" in seen.get(url, ""), "documentCookie": value,
               "detail": "cookie header %r, seen %r%s" % (seen.get(url), sorted(seen), seeded)}
    saw_anything = bool(seen)
    view.stop_loading()
    view.load_uri("about:blank")
    wait(lambda: False, 0.1)
    return out, saw_anything


for line in sys.stdin:
    if not line.strip():
        continue
    case = json.loads(line)
    out, saw_anything = run_case(case)
    if not saw_anything:
        # Not even the page reached the proxy (a load lost on a busy machine, never a cookie
        # decision): the case is run once more, and the line says so.
        out, saw_anything = run_case(case)
        out["detail"] += " (run again: the first run's page never reached the proxy)"
    print(json.dumps(out), flush=True)

shutil.rmtree(store_dir, ignore_errors=True)

#!/usr/bin/python3
"""Real-WebKit oracle for Trackerless: compile rule lists and observe blocking in WebKitGTK.

Run with the system interpreter (/usr/bin/python3), which has PyGObject (`gi`) and the
WebKit2 typelib: 4.1, or 4.0 where only that exists (WebKitGTK 2.44 in Debian bullseye;
TRACKERLESS_WEBKIT_API=4.0|4.1 forces one). Input and output are JSON lines.

  version   stdout: {"major", "minor", "micro", "api": "4.0" | "4.1"}, the WebKitGTK the
            bindings load (WebKit2.get_major_version() ...). Needs no display.

  compile   stdin:  {"id": str, "rules_file": path} or {"id": str, "rules": "<JSON text>"}
            stdout: {"id", "ok": bool, "error": WebKit's message or null, "seconds": float,
                     "cpu_seconds": float (this process's CPU time, every thread, over the same span)}
            Needs no display. --tmpdir DIR: the directory WebKit writes its temporary files in
            (one for each automaton it converts): its file system is part of the time.

  load --rules FILE [--rules FILE ...]
            stdin:  {"id", "top": page URL, "url": request URL, "type": resource type,
                     "frame"?: URL of an iframe (inside the top page) that issues the request,
                     "from"?: for child-document and top-document, the URL the frame (the
                     view) shows first, before it navigates to "url",
                     "by"?: who starts that navigation: "parent" (default for child-document:
                     the parent sets iframe.src), "view" (default for top-document: load_uri)
                     or "frame" (the document at "from" sets location.href)}
            stdout: {"id", "blocked": bool, "detail": str}
            Needs a display: when DISPLAY is unset the harness re-executes itself under
            `xvfb-run -a`.

Every host name is answered by a loopback proxy started here (127.0.0.1, ephemeral port); it
never forwards anything. http requests arrive in absolute form; https and wss arrive as
CONNECT and are terminated with a throw-away self-signed certificate (WebKit is told to
ignore TLS errors). Ground truth for "blocked" is that the proxy never received the request;
the page's own onload/onerror report (through window.webkit.messageHandlers) is given in
"detail" as a cross-check, and is the only evidence for URLs that never reach a network
(data:). Cases with the same top URL share a page; pages that share no URL load in parallel
web views (--parallel, default 4).

Exit status: 0 success, 2 bad usage or input, 3 WebKitGTK / Xvfb / openssl missing,
4 a rule list given to `load` does not compile.
"""

import argparse
import base64
import hashlib
import json
import os
import random
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

EXIT_USAGE = 2
EXIT_MISSING = 3
EXIT_RULES = 4

PAGE_LOAD_TIMEOUT = 10.0  # seconds from load_uri to load-finished / load-failed
SETTLE_TIMEOUT = 3.0      # seconds after the page load for outstanding reports
TOTAL_TIMEOUT = 600.0     # bound on one whole `load` run

SUPPORTED_TYPES = (
    "image", "script", "style-sheet", "font", "fetch", "child-document", "media",
    "top-document", "svg-document", "ping", "websocket", "popup", "other",
)


def fail(status, message):
    sys.stderr.write("webkit_harness: " + message + "\n")
    sys.stderr.flush()
    sys.exit(status)


# GI namespace versions of WebKitGTK's GTK 3 API, newest first: 4.1 (libsoup 3; WebKitGTK 2.32 and
# later, the machine's and trixie's) and 4.0 (libsoup 2.4; bullseye's 2.44). The Soup version
# goes with it. TRACKERLESS_WEBKIT_API=4.0 or 4.1 picks one instead of the first that imports.
WEBKIT_APIS = ("4.1", "4.0")
SOUP_FOR_API = {"4.1": "3.0", "4.0": "2.4"}
WEBKIT_API = None  # the version import_webkit chose


def require_webkit_api():
    """Requires the first WebKit2 GI version that exists (or TRACKERLESS_WEBKIT_API); returns it.

    Raises ValueError (from gi.require_version) or ImportError when none does.
    """
    global WEBKIT_API
    import gi
    wanted = os.environ.get("TRACKERLESS_WEBKIT_API")
    candidates = (wanted,) if wanted else WEBKIT_APIS
    errors = []
    for api in candidates:
        try:
            gi.require_version("WebKit2", api)
        except ValueError as error:
            errors.append(str(error))
            continue
        WEBKIT_API = api
        return api
    raise ValueError("; ".join(errors))


def import_webkit(need_gtk, need_soup=False):
    """Imports WebKit2 4.1 or 4.0 (and GTK 3 for page loads) or exits with EXIT_MISSING."""
    try:
        import gi
        api = require_webkit_api()
        if need_gtk:
            gi.require_version("Gtk", "3.0")
        if need_soup:
            gi.require_version("Soup", SOUP_FOR_API[api])
        from gi.repository import GLib, Gio, WebKit2  # noqa: F401
        if need_gtk:
            from gi.repository import Gtk  # noqa: F401
    except (ImportError, ValueError) as error:
        fail(EXIT_MISSING,
             "WebKitGTK is not available to %s (%s); install python3-gi and "
             "gir1.2-webkit2-4.1 or gir1.2-webkit2-4.0 (see .ci/install-webkit.sh)"
             % (sys.executable, error))
    return gi


def webkit_version():
    """{"major", "minor", "micro", "api"} of the WebKitGTK these bindings load."""
    from gi.repository import WebKit2
    return {"major": WebKit2.get_major_version(), "minor": WebKit2.get_minor_version(),
            "micro": WebKit2.get_micro_version(), "api": WEBKIT_API}


def run_version(_args):
    import_webkit(need_gtk=False)
    emit(webkit_version())
    return 0


def emit(obj):
    sys.stdout.write(json.dumps(obj, sort_keys=True) + "\n")
    sys.stdout.flush()


def read_json_lines():
    items = []
    for number, line in enumerate(sys.stdin, start=1):
        line = line.strip()
        if not line:
            continue
        try:
            item = json.loads(line)
        except ValueError as error:
            fail(EXIT_USAGE, "stdin line %d is not JSON: %s" % (number, error))
        if not isinstance(item, dict) or not isinstance(item.get("id"), str):
            fail(EXIT_USAGE, "stdin line %d needs a string \"id\"" % number)
        items.append(item)
    return items


# ---------------------------------------------------------------------------------------------
# Compiling (WebKit2.UserContentFilterStore)

class FilterCompiler:
    """Compiles rule lists one at a time with WebKitGTK's UserContentFilterStore."""

    def __init__(self, store_dir):
        from gi.repository import GLib, WebKit2
        self.GLib = GLib
        self.store = WebKit2.UserContentFilterStore.new(store_dir)
        self.loop = GLib.MainLoop()

    def compile(self, identifier, source):
        """Returns (filter or None, error message or None, seconds, CPU seconds).

        The CPU seconds are this process's (every thread: WebKit compiles on a work queue of the
        UI process) from the request to the callback: less moved by other processes' load than the
        wall-clock seconds, which also count waiting for a core and for the disk."""
        GLib = self.GLib
        outcome = {}

        def done(store, result, _data):
            try:
                outcome["filter"] = store.save_finish(result)
            except GLib.Error as error:
                outcome["error"] = error.message
            outcome["end"] = time.monotonic()
            outcome["cpu_end"] = time.process_time()
            self.loop.quit()

        start, cpu_start = time.monotonic(), time.process_time()
        self.store.save(identifier, GLib.Bytes.new(source), None, done, None)
        self.loop.run()
        return (outcome.get("filter"), outcome.get("error"), outcome["end"] - start,
                outcome["cpu_end"] - cpu_start)


def run_compile(args):
    import_webkit(need_gtk=False)
    items = read_json_lines()
    with tempfile.TemporaryDirectory(prefix="trackerless-webkit-") as tmp:
        compiler = FilterCompiler(os.path.join(tmp, "store"))
        for index, item in enumerate(items):
            if isinstance(item.get("rules"), str):
                source = item["rules"].encode("utf-8")
            elif isinstance(item.get("rules_file"), str):
                try:
                    with open(item["rules_file"], "rb") as handle:
                        source = handle.read()
                except OSError as error:
                    fail(EXIT_USAGE, "cannot read %s: %s" % (item["rules_file"], error))
            else:
                fail(EXIT_USAGE, "case %r needs \"rules\" or \"rules_file\"" % item["id"])
            compiled, error, seconds, cpu_seconds = compiler.compile("c%d" % index, source)
            emit({"id": item["id"], "ok": compiled is not None, "error": error,
                  "seconds": round(seconds, 6), "cpu_seconds": round(cpu_seconds, 6)})
    return 0


# ---------------------------------------------------------------------------------------------
# URLs

def canonical(url):
    """The string WebKit sends for a URL: no fragment, lowercase scheme/host, no default port."""
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError:
        return url
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https", "ws", "wss"):
        return url.split("#", 1)[0]
    # The host as WebKit sends it: percent-escapes decoded (`tracker.com%2e` is `tracker.com.`),
    # userinfo left out (urlsplit's hostname already drops it), a final dot kept.
    host = urllib.parse.unquote(parts.hostname or "").lower()
    try:
        port = parts.port
    except ValueError:
        port = None
    default = {"http": 80, "ws": 80, "https": 443, "wss": 443}[scheme]
    netloc = host if port in (None, default) else "%s:%d" % (host, port)
    path = parts.path or "/"
    query = "?" + parts.query if parts.query or url.split("#", 1)[0].endswith("?") else ""
    return "%s://%s%s%s" % (scheme, netloc, path, query)


def is_proxied(url):
    return urllib.parse.urlsplit(url).scheme.lower() in ("http", "https", "ws", "wss")


# ---------------------------------------------------------------------------------------------
# Bodies

GIF_1X1 = base64.b64decode("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7")


def wav_body():
    """A valid 0.1 s mono 8 kHz 8-bit silent WAV."""
    samples = b"\x80" * 800
    header = b"RIFF" + (36 + len(samples)).to_bytes(4, "little") + b"WAVEfmt "
    header += (16).to_bytes(4, "little") + (1).to_bytes(2, "little") + (1).to_bytes(2, "little")
    header += (8000).to_bytes(4, "little") + (8000).to_bytes(4, "little")
    header += (1).to_bytes(2, "little") + (8).to_bytes(2, "little")
    return header + b"data" + len(samples).to_bytes(4, "little") + samples


def font_body():
    for path in ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
                 "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"):
        try:
            with open(path, "rb") as handle:
                return handle.read()
        except OSError:
            continue
    return b"\x00\x01\x00\x00"  # a TrueType tag alone: the load is still observed by the proxy


SVG_BODY = (b'<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1">'
            b'<rect id="r" width="1" height="1"/></svg>')

REPORT_JS = """
function __report(id, event, info) {
  try {
    window.webkit.messageHandlers.report.postMessage(
      JSON.stringify({id: id, event: event, info: String(info || '')}));
  } catch (e) {}
}
"""


def js(value):
    return json.dumps(value)


def document_html(report_id=None, body=""):
    """An HTML document; with report_id it reports its own load (child-document, popup ...)."""
    on_load = ("__report(%s, 'load', location.href);" % js(report_id)) if report_id else ""
    return ("<!DOCTYPE html><html><head><meta charset=utf-8><script>%s%s</script></head>"
            "<body>%s</body></html>" % (REPORT_JS, on_load, body)).encode("utf-8")


def navigation_html(url):
    """A document that navigates its own frame to `url` once it has loaded."""
    return document_html(None, "<script>addEventListener('load',function(){location.href=%s;});"
                               "</script>" % js(url))


def case_snippet(case):
    """JavaScript that issues the case's request with the right element or API."""
    cid, url, kind = js(case["id"]), js(case["url"]), case["type"]
    ok = "function(){__report(%s,'load','');}" % cid
    err = "function(e){__report(%s,'error',(e&&e.message)||'');}" % cid
    if kind == "image":
        return ("(function(){var i=new Image();i.onload=%s;i.onerror=%s;i.src=%s;"
                "document.body.appendChild(i);})();" % (ok, err, url))
    if kind == "script":
        return ("(function(){var s=document.createElement('script');s.onload=%s;s.onerror=%s;"
                "s.src=%s;document.head.appendChild(s);})();" % (ok, err, url))
    if kind == "style-sheet":
        return ("(function(){var l=document.createElement('link');l.rel='stylesheet';"
                "l.onload=%s;l.onerror=%s;l.href=%s;document.head.appendChild(l);})();"
                % (ok, err, url))
    if kind == "font":
        return ("(function(){var f=new FontFace('f'+Math.random().toString(36).slice(2),"
                "'url('+JSON.stringify(%s)+')');f.load().then(%s,%s);})();" % (url, ok, err))
    if kind == "fetch":
        return ("fetch(%s,{mode:'no-cors',cache:'no-store'}).then(function(r){return r.text();})"
                ".then(%s,%s);" % (url, ok, err))
    if kind == "child-document" and case.get("from"):
        # The frame shows `from` first; a second onload means the navigation to `url` ended.
        then = "f.src=%s;" % url if navigator(case) == "parent" else ""
        return ("(function(){var f=document.createElement('iframe'),n=0;f.onload=function(){"
                "n++;__report(%s,'frame-onload','');if(n===1){%s}};f.src=%s;"
                "document.body.appendChild(f);})();" % (cid, then, js(case["from"])))
    if kind == "child-document":
        # The framed document reports 'load' itself; onload alone also fires for blocked frames.
        return ("(function(){var f=document.createElement('iframe');f.onload=function(){"
                "__report(%s,'frame-onload','');};f.src=%s;document.body.appendChild(f);})();"
                % (cid, url))
    if kind == "media":
        return ("(function(){var a=document.createElement('audio');a.preload='auto';"
                "a.onloadedmetadata=%s;a.onerror=function(){__report(%s,'error',"
                "a.error?a.error.code:'');};a.src=%s;document.body.appendChild(a);a.load();})();"
                % (ok, cid, url))
    if kind == "svg-document":
        # An external <use> reference is loaded as an SVG document. WebKit only follows
        # same-origin references, so the URL must share the issuing document's origin.
        return ("(function(){var n='http://www.w3.org/2000/svg';"
                "var s=document.createElementNS(n,'svg');var u=document.createElementNS(n,'use');"
                "u.addEventListener('load',%s);u.addEventListener('error',%s);"
                "u.setAttribute('href',%s+'#r');s.appendChild(u);document.body.appendChild(s);"
                "__report(%s,'sent','');})();" % (ok, err, url, cid))
    if kind == "ping":
        return ("(function(){var a=document.createElement('a');a.href='#ping';a.ping=%s;"
                "a.textContent='p';document.body.appendChild(a);a.click();"
                "__report(%s,'sent','');})();" % (url, cid))
    if kind == "websocket":
        return ("(function(){var w;try{w=new WebSocket(%s);}catch(e){__report(%s,'error',"
                "e.message);return;}w.onopen=function(){__report(%s,'load','');w.close();};"
                "w.onerror=function(){__report(%s,'error','');};})();" % (url, cid, cid, cid))
    if kind == "popup":
        return ("(function(){var w=window.open(%s,'_blank');if(!w){__report(%s,'error',"
                "'window.open returned null');}})();" % (url, cid))
    if kind == "other":
        return ("(function(){var sent=navigator.sendBeacon(%s,'x');__report(%s,'sent',sent);})();"
                % (url, cid))
    raise ValueError(kind)


def navigator(case):
    """Who navigates a frame (or the view) from `from` to `url`: parent, view or frame."""
    return case.get("by") or ("view" if case["type"] == "top-document" else "parent")


def resource_for(kind, report_id):
    """(status, content type, body, extra headers) served for a request of this kind."""
    if kind == "image":
        return 200, "image/gif", GIF_1X1, {}
    if kind == "script":
        return 200, "application/javascript", b"/* trackerless harness */\n", {}
    if kind == "style-sheet":
        return 200, "text/css", b"/* trackerless harness */\n", {}
    if kind == "font":
        return 200, "font/ttf", FONT, {"Access-Control-Allow-Origin": "*"}
    if kind == "fetch":
        return 200, "text/plain", b"ok", {"Access-Control-Allow-Origin": "*"}
    if kind in ("child-document", "top-document", "popup"):
        return 200, "text/html; charset=utf-8", document_html(report_id), {}
    if kind == "media":
        return 200, "audio/wav", WAV, {"Accept-Ranges": "none"}
    if kind == "svg-document":
        return 200, "image/svg+xml", SVG_BODY, {}
    return 204, "text/plain", b"", {}


WAV = wav_body()
FONT = font_body()


# ---------------------------------------------------------------------------------------------
# The loopback proxy

class ProxyState:
    """What the proxy serves (URL -> response) and which URLs it was asked for.

    Pages that load at the same time use disjoint sets of URLs, so a sighting of a URL belongs
    to the one page that owns it.
    """

    def __init__(self):
        self.lock = threading.Lock()
        self.responses = {}
        self.seen = set()

    def open(self, responses):
        """Starts serving a page's URLs, forgetting earlier sightings of them."""
        with self.lock:
            self.responses.update(responses)
            self.seen.difference_update(responses)

    def close(self, urls):
        with self.lock:
            for url in urls:
                self.responses.pop(url, None)

    def record(self, url):
        with self.lock:
            self.seen.add(url)
            return self.responses.get(url)

    def was_seen(self, url):
        with self.lock:
            return url in self.seen


class ProxyHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    tunnel_origin = None  # "https://host[:port]" once a CONNECT tunnel is open

    def log_message(self, *_args):
        pass

    def do_CONNECT(self):
        host, _, port = self.path.rpartition(":")
        if not host or not port.isdigit():
            self.send_error(400)
            return
        self.send_response(200, "Connection Established")
        self.end_headers()
        self.wfile.flush()
        try:
            tls = self.server.tls_context.wrap_socket(self.connection, server_side=True)
        except (ssl.SSLError, OSError):
            self.close_connection = True
            return
        # The same handler now reads the tunnelled requests (origin form) from the TLS stream.
        self.connection = tls
        self.rfile = tls.makefile("rb", -1)
        self.wfile = tls.makefile("wb", 0)
        netloc = host.lower() if port == "443" else "%s:%s" % (host.lower(), port)
        self.tunnel_origin = "https://" + netloc
        self.close_connection = False

    def requested_url(self):
        if self.tunnel_origin:
            origin = self.tunnel_origin
            if self.headers.get("Upgrade", "").lower() == "websocket":
                origin = "wss" + origin[len("https"):]
            return origin + self.path
        url = self.path
        if self.headers.get("Upgrade", "").lower() == "websocket" and url.startswith("http://"):
            url = "ws://" + url[len("http://"):]
        return canonical(url)

    def serve(self):
        url = self.requested_url()
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        response = self.server.state.record(url)
        if self.headers.get("Upgrade", "").lower() == "websocket":
            self.accept_websocket()
            return
        if response is None:
            status, ctype, body, extra = 404, "text/plain", b"not part of this test", {}
        else:
            status, ctype, body, extra = response
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Cache-Control", "no-store")
        self.send_header("Content-Length", str(len(body)))
        for name, value in extra.items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        self.wfile.flush()

    def accept_websocket(self):
        key = self.headers.get("Sec-WebSocket-Key", "")
        accept = base64.b64encode(hashlib.sha1(
            (key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode("ascii")).digest()).decode()
        self.send_response(101, "Switching Protocols")
        self.send_header("Upgrade", "websocket")
        self.send_header("Connection", "Upgrade")
        self.send_header("Sec-WebSocket-Accept", accept)
        self.end_headers()
        self.wfile.flush()
        self.close_connection = True
        try:
            self.connection.settimeout(5)
            while self.connection.recv(4096):
                pass
        except OSError:
            pass

    do_GET = do_POST = do_HEAD = do_PUT = do_DELETE = do_OPTIONS = do_PATCH = serve


class Proxy(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, state, tls_context):
        super().__init__(("127.0.0.1", 0), ProxyHandler)
        self.state = state
        self.tls_context = tls_context


def make_tls_context(directory):
    if shutil.which("openssl") is None:
        fail(EXIT_MISSING, "openssl is needed to make the proxy's certificate (apt: openssl)")
    cert, key = os.path.join(directory, "cert.pem"), os.path.join(directory, "key.pem")
    command = ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
               "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2", "-subj",
               "/CN=trackerless-harness", "-keyout", key, "-out", cert]
    result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if result.returncode != 0:
        fail(EXIT_MISSING, "openssl failed: " + result.stderr.decode(errors="replace"))
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    return context


# ---------------------------------------------------------------------------------------------
# Page loads

def plan_batches(cases):
    """Groups cases into page loads: same top URL, and every URL distinct inside one page."""
    batches = []
    for case in cases:
        if case["type"] == "top-document":
            batches.append({"top": case["url"], "navigation": case, "cases": [],
                            "requests": case_urls(case), "frames": set()})
            continue
        requests = case_urls(case)
        frame = canonical(case["frame"]) if case.get("frame") else None
        for batch in batches:
            if batch.get("navigation") or batch["top"] != case["top"]:
                continue
            used = batch["requests"] | batch["frames"] | {canonical(batch["top"])}
            if requests & used or (frame and frame in batch["requests"]):
                continue
            if frame and frame in requests:
                continue
            break
        else:
            batch = {"top": case["top"], "navigation": None, "cases": [],
                     "requests": set(), "frames": set()}
            batches.append(batch)
        batch["cases"].append(case)
        batch["requests"] |= requests
        if frame:
            batch["frames"].add(frame)
    return batches


def case_urls(case):
    """The canonical URLs a case requests itself: its URL, and `from` when it has one."""
    urls = {canonical(case["url"])}
    if case.get("from"):
        urls.add(canonical(case["from"]))
    return urls


def from_response(case):
    """The document at a case's `from`: plain, or navigating itself when `by` is frame."""
    body = navigation_html(case["url"]) if navigator(case) == "frame" else document_html()
    return 200, "text/html; charset=utf-8", body, {}


def batch_responses(batch):
    """URL -> response for everything the page of this batch may request."""
    responses = {}
    if batch["navigation"]:
        case = batch["navigation"]
        responses[canonical(case["url"])] = resource_for("top-document", case["id"])
        if case.get("from"):
            responses[canonical(case["from"])] = from_response(case)
        return responses
    by_frame = {}
    for case in batch["cases"]:
        by_frame.setdefault(case.get("frame") or None, []).append(case)
        responses[canonical(case["url"])] = resource_for(case["type"], case["id"])
        if case.get("from"):
            responses[canonical(case["from"])] = from_response(case)

    def script_for(frame_cases):
        return "".join(case_snippet(case) for case in frame_cases)

    top_body = "<script>%s</script>" % script_for(by_frame.get(None, []))
    for frame, frame_cases in by_frame.items():
        if frame is None:
            continue
        top_body += "<iframe src=%s></iframe>" % js(frame)
        responses[canonical(frame)] = (
            200, "text/html; charset=utf-8",
            document_html(None, "<script>%s</script>" % script_for(frame_cases)), {})
    responses[canonical(batch["top"])] = (200, "text/html; charset=utf-8",
                                          document_html(None, top_body), {})
    return responses


def proxied_web_context(proxy_port):
    """An ephemeral web context whose every request goes to the loopback proxy."""
    from gi.repository import WebKit2
    manager = WebKit2.WebsiteDataManager.new_ephemeral()
    manager.set_network_proxy_settings(
        WebKit2.NetworkProxyMode.CUSTOM,
        WebKit2.NetworkProxySettings.new("http://127.0.0.1:%d" % proxy_port, None))
    manager.set_tls_errors_policy(WebKit2.TLSErrorsPolicy.IGNORE)
    context = WebKit2.WebContext.new_with_website_data_manager(manager)
    context.set_cache_model(WebKit2.CacheModel.DOCUMENT_VIEWER)
    return context


class PageLoader:
    """Loads pages in `parallel` web views at once, all sharing one context and one proxy."""

    def __init__(self, filters, proxy_port, state, parallel, deadline):
        from gi.repository import GLib, Gtk, WebKit2
        self.GLib, self.Gtk, self.WebKit2 = GLib, Gtk, WebKit2
        self.state = state
        self.deadline = deadline
        self.context = proxied_web_context(proxy_port)
        self.content = WebKit2.UserContentManager()
        self.content.connect("script-message-received::report", self.on_report)
        self.content.register_script_message_handler("report")
        for content_filter in filters:
            self.content.add_filter(content_filter)
        self.settings = WebKit2.Settings()
        self.settings.set_property("enable-dns-prefetching", False)
        self.settings.set_property("enable-hyperlink-auditing", True)
        self.settings.set_property("javascript-can-open-windows-automatically", True)
        self.settings.set_property("media-playback-requires-user-gesture", False)
        self.settings.set_property("enable-page-cache", False)
        self.reports = {}  # case id -> events, from every page (case ids are unique)
        self.slots = [self.make_slot() for _ in range(parallel)]

    def make_slot(self):
        slot = {"batch": None, "popups": []}
        self.show_view(slot)
        return slot

    def show_view(self, slot):
        """Gives the slot a new web view in a new window."""
        WebKit2, Gtk = self.WebKit2, self.Gtk
        view = WebKit2.WebView(web_context=self.context, user_content_manager=self.content,
                               settings=self.settings)
        view.connect("load-changed", self.on_load_changed, slot)
        view.connect("load-failed", self.on_load_failed, slot)
        view.connect("create", self.on_create, slot)
        # A real (not offscreen) window: WebKit defers media loads in pages it thinks hidden.
        window = Gtk.Window()
        window.set_default_size(800, 600)
        window.add(view)
        window.show_all()
        slot["view"], slot["window"] = view, window

    def on_report(self, _manager, result):
        try:
            message = json.loads(result.get_js_value().to_string())
        except (ValueError, AttributeError):
            return
        if not isinstance(message, dict):
            return
        info = message.get("info")
        self.reports.setdefault(message.get("id"), []).append(
            "%s%s" % (message.get("event"), (":" + info) if info else ""))

    @staticmethod
    def is_current(slot, uri):
        """Whether a load event is about this slot's page, not a previous page cancelled by it."""
        return slot["batch"] is not None and canonical(uri or "") == canonical(slot["batch"]["top"])

    def on_load_changed(self, view, event, slot):
        first = slot.get("first")
        if first and event == self.WebKit2.LoadEvent.FINISHED \
                and canonical(view.get_uri() or "") == canonical(first):
            # The view shows the document the case's navigation leaves; now navigate.
            slot["first"] = None
            navigation = slot["batch"]["navigation"]
            if navigator(navigation) == "view":
                view.load_uri(navigation["url"])
            return
        if event == self.WebKit2.LoadEvent.FINISHED and self.is_current(slot, view.get_uri()) \
                and slot["finished"] is None:
            slot["finished"] = time.monotonic()

    def on_load_failed(self, _view, _event, uri, error, slot):
        if self.is_current(slot, uri):
            slot["failure"] = "%s %d: %s" % (error.domain, error.code, error.message)
            if slot["finished"] is None:
                slot["finished"] = time.monotonic()
        return True  # no error page: it would be one more load

    def on_create(self, view, _action, slot):
        popup = self.WebKit2.WebView.new_with_related_view(view)
        slot["popups"].append(popup)
        return popup

    def run(self, batches, emit_batch):
        """Loads every batch; pages in flight together never share a URL."""
        pending = list(batches)
        context = self.GLib.MainContext.default()
        while pending or any(slot["batch"] for slot in self.slots):
            for slot in self.slots:
                if slot["batch"] and self.is_done(slot):
                    emit_batch(slot["batch"], self, slot)
                    self.finish(slot)
            for slot in self.slots:
                if slot["batch"] is None:
                    batch = self.next_batch(pending)
                    if batch is None:
                        break
                    self.start(slot, batch)
            if time.monotonic() > self.deadline:
                for slot in self.slots:
                    if slot["batch"]:
                        slot["timed_out"] = True
                        emit_batch(slot["batch"], self, slot)
                        self.finish(slot)
                for batch in pending:
                    emit_batch(batch, self, None)
                return
            context.iteration(False)
            time.sleep(0.002)

    def next_batch(self, pending):
        busy = set()
        for slot in self.slots:
            if slot["batch"]:
                busy |= batch_urls(slot["batch"])
        for index, batch in enumerate(pending):
            if not (batch_urls(batch) & busy):
                return pending.pop(index)
        return None

    def start(self, slot, batch):
        responses = batch_responses(batch)
        batch["served"] = set(responses)
        self.state.open(responses)
        slot.update(batch=batch, started=time.monotonic(), finished=None, failure=None,
                    timed_out=False, first=None)
        navigation = batch["navigation"]
        if navigation:
            # A main-frame navigation leaves a known document, never the page of an earlier
            # case: `from`, or none at all in a new view (its frame URL is then the request's).
            slot["window"].destroy()
            self.show_view(slot)
            slot["first"] = navigation.get("from")
            slot["view"].load_uri(slot["first"] or navigation["url"])
        else:
            slot["view"].load_uri(batch["top"])


    def finish(self, slot):
        slot["view"].stop_loading()
        for popup in slot["popups"]:
            popup.try_close()
        slot["popups"] = []
        self.state.close(slot["batch"]["served"])
        slot["batch"] = None

    def is_done(self, slot):
        now = time.monotonic()
        if slot["finished"] is None:
            if now - slot["started"] > PAGE_LOAD_TIMEOUT:
                slot["timed_out"] = True
                return True
            return False
        if now - slot["finished"] > SETTLE_TIMEOUT:
            return True
        batch = slot["batch"]
        members = [batch["navigation"]] if batch["navigation"] else batch["cases"]
        return all(self.settled(case, batch, slot) for case in members)

    def settled(self, case, batch, slot):
        """Whether nothing more is to be learnt about this case by waiting longer.

        Called once the page's main frame has finished (or failed) loading.
        """
        seen = self.state.was_seen
        events = self.reports.get(case["id"], [])
        if any(terminal(event) for event in events):
            return True
        url = canonical(case["url"])
        if case["type"] == "top-document":
            return slot["failure"] is not None or not seen(url)
        if not seen(canonical(batch["top"])):
            return True  # the page itself was blocked: its requests never start
        if case.get("frame") and not seen(canonical(case["frame"])):
            return True
        if case["type"] == "child-document" and case.get("from"):
            # The iframe's element fires onload once for `from` and once more when the
            # navigation to `url` loads; a blocked navigation fires none (settle timeout).
            return events.count("frame-onload") >= 2
        if case["type"] == "child-document":
            return not seen(url)  # frames delay the load event: a blocked one is over by now
        if case["type"] in FIRE_AND_FORGET:
            return seen(url)  # only the proxy can see a ping or a beacon
        return False


FIRE_AND_FORGET = ("ping", "other")


def batch_urls(batch):
    return batch["requests"] | batch["frames"] | {canonical(batch["top"])}


def terminal(event):
    return event.startswith(("load", "error"))


def ensure_display(script):
    """Re-executes `script` (with this process's arguments) under `xvfb-run -a` without DISPLAY."""
    if os.environ.get("DISPLAY"):
        return
    if os.environ.get("TRACKERLESS_HARNESS_UNDER_XVFB"):
        fail(EXIT_MISSING, "xvfb-run started no display")
    xvfb = shutil.which("xvfb-run")
    if xvfb is None:
        fail(EXIT_MISSING, "no DISPLAY and xvfb-run is missing (apt: xvfb xauth)")
    env = dict(os.environ, TRACKERLESS_HARNESS_UNDER_XVFB="1")
    # A random first display number: concurrent `xvfb-run -a` runs otherwise race for :99.
    first = str(random.randint(100, 30000))
    os.execve(xvfb, [xvfb, "-a", "-n", first, "-s", "-screen 0 1280x1024x24 -nolisten tcp",
                     sys.executable, os.path.abspath(script)] + sys.argv[1:], env)


def compile_rule_files(compiler, paths):
    """Compiled filters of rule-list files; exits with EXIT_RULES on the first WebKit rejects."""
    filters = []
    for index, path in enumerate(paths):
        try:
            with open(path, "rb") as handle:
                source = handle.read()
        except OSError as error:
            fail(EXIT_USAGE, "cannot read %s: %s" % (path, error))
        compiled, error, _, _ = compiler.compile("list%d" % index, source)
        if compiled is None:
            fail(EXIT_RULES, "%s does not compile: %s" % (path, error))
        filters.append(compiled)
    return filters


def run_load(args):
    ensure_display(__file__)
    import_webkit(need_gtk=True)
    from gi.repository import Gtk
    if not Gtk.init_check(None)[0]:
        fail(EXIT_MISSING, "cannot open the display %r" % os.environ.get("DISPLAY"))
    deadline = time.monotonic() + TOTAL_TIMEOUT
    cases = read_json_lines()
    ids = set()
    for case in cases:
        for key in ("top", "url", "type"):
            if not isinstance(case.get(key), str):
                fail(EXIT_USAGE, "case %r needs a string %r" % (case["id"], key))
        if case["id"] in ids:
            fail(EXIT_USAGE, "case id %r is used twice" % case["id"])
        ids.add(case["id"])
        if case.get("frame") is not None and (
                not isinstance(case["frame"], str) or canonical(case["frame"]) == canonical(case["top"])):
            fail(EXIT_USAGE, "case %r: \"frame\" must be a URL other than the top URL" % case["id"])
        if case.get("from") is not None and (
                case["type"] not in ("child-document", "top-document")
                or not isinstance(case["from"], str)
                or canonical(case["from"]) in (canonical(case["url"]), canonical(case["top"]))):
            fail(EXIT_USAGE, "case %r: \"from\" is for child-document and top-document, a URL "
                             "other than \"url\" and \"top\"" % case["id"])
        if case.get("by") is not None and (not case.get("from") or case["by"] not in (
                ("parent", "frame") if case["type"] == "child-document" else ("view", "frame"))):
            fail(EXIT_USAGE, "case %r: \"by\" needs \"from\" and is parent or frame "
                             "(child-document), view or frame (top-document)" % case["id"])
        if case["type"] not in SUPPORTED_TYPES:
            fail(EXIT_USAGE, "case %r: unsupported type %r (supported: %s)"
                 % (case["id"], case["type"], ", ".join(SUPPORTED_TYPES)))
    with tempfile.TemporaryDirectory(prefix="trackerless-webkit-") as tmp:
        filters = compile_rule_files(FilterCompiler(os.path.join(tmp, "store")), args.rules or [])
        state = ProxyState()
        proxy = Proxy(state, make_tls_context(tmp))
        threading.Thread(target=proxy.serve_forever, daemon=True).start()
        loader = PageLoader(filters, proxy.server_address[1], state, args.parallel, deadline)

        def emit_batch(batch, loader, slot):
            members = [batch["navigation"]] if batch["navigation"] else batch["cases"]
            for case in members:
                if slot is None:
                    emit({"id": case["id"], "blocked": False,
                          "detail": "not run: total time limit reached"})
                else:
                    emit(verdict(case, batch, state, loader.reports, slot))

        loader.run(plan_batches(cases), emit_batch)
        proxy.shutdown()
        proxy.server_close()
    return 0


def verdict(case, batch, state, reports, slot):
    seen = state.was_seen
    url = canonical(case["url"])
    events = reports.get(case["id"], [])
    page = ",".join(events) or "no report"
    notes = []
    if slot["timed_out"]:
        notes.append("page load timed out")
    if case["type"] == "top-document":
        requested = seen(url)
        if slot["failure"]:
            notes.append("load-failed " + slot["failure"])
    elif is_proxied(case["url"]):
        requested = seen(url)
        if not seen(canonical(batch["top"])):
            notes.append("top page was not requested")
        if case.get("frame") and not seen(canonical(case["frame"])):
            notes.append("frame was not requested")
    else:
        requested = None  # data: and other local URLs never reach the proxy: ask the page
    if case.get("from") and is_proxied(case["from"]) and not seen(canonical(case["from"])):
        notes.append("the first document (from) was not requested")
    blocked = (not requested) if requested is not None else page.startswith("error")
    if requested is True and any(e.startswith("error") for e in events) \
            and not any(e.startswith("load") for e in events):
        notes.append("inconsistent: the page saw an error although the proxy served it")
    if requested is False and any(e.startswith("load") for e in events):
        notes.append("inconsistent: the page loaded it although the proxy never saw it")
    detail = "proxy=%s page=%s" % (
        {True: "requested", False: "not-requested", None: "n/a"}[requested], page)
    if notes:
        detail += " (" + "; ".join(notes) + ")"
    return {"id": case["id"], "blocked": blocked, "detail": detail}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("mode", choices=("compile", "load", "version"))
    parser.add_argument("--rules", action="append", help="rule list file (load mode)")
    parser.add_argument("--parallel", type=int, default=4,
                        help="pages loading at the same time (load mode, default 4)")
    parser.add_argument("--tmpdir", help="compile mode: GLib's temporary directory, where WebKit "
                        "writes a file for each automaton it converts (default: TMPDIR, else /tmp)")
    args = parser.parse_args()
    if args.tmpdir is not None:
        if not os.path.isdir(args.tmpdir):
            fail(EXIT_USAGE, "--tmpdir %s is not a directory" % args.tmpdir)
        # Before WebKit is loaded: GLib reads TMPDIR once.
        os.environ["TMPDIR"] = args.tmpdir
    if args.mode == "compile":
        return run_compile(args)
    if args.mode == "version":
        return run_version(args)
    return run_load(args)


if __name__ == "__main__":
    sys.exit(main())

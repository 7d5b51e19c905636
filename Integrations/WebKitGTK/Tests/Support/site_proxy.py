#!/usr/bin/env python3
"""A loopback HTTP proxy that serves a directory of web sites and records every request.

Usage: site_proxy.py SITES_DIR

SITES_DIR holds one directory per host (`news.example/index.html`, `www.google-analytics.com/
analytics.js`, ...). The proxy listens on 127.0.0.1 at a free port and prints `{"port": N}` as
its first line; then one JSON line per request it receives, `{"method": ..., "url": ...,
"headers": {...}}` (the request's `Sec-GPC`, `Referer` and `Sec-Fetch-Dest` headers, lower-cased names, when
present), as it receives it, and one `{"connect": "host:port"}` per tunnel a client opens (before any
request in it: a preconnect opens one and sends nothing). http requests arrive in absolute form; https ones through CONNECT, answered with a
throw-away self-signed certificate (the browser ignores certificate errors in its headless mode
only). A request made to the proxy itself as a server (http://127.0.0.1:PORT/...) is served from
SITES_DIR/127.0.0.1. Nothing is ever forwarded: every host is served from SITES_DIR (a missing file is a 404,
still recorded). A request's path `/` is `index.html`; the query is ignored when looking up the
file. A file `NAME.redirect` beside a missing `NAME` answers `302 Found` with its first line as the
`Location` (a site's first-party URL that redirects to a tracker). A file `NAME.headers` beside
`NAME` holds more response headers for it, one `Name: value` a line (a `Link` header, a
Content-Security-Policy). Stops when standard input closes.
"""

import json
import os
import shutil
import ssl
import subprocess
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".css": "text/css",
    ".gif": "image/gif", ".png": "image/png", ".json": "application/json", ".txt": "text/plain",
}
OUTPUT = threading.Lock()


def emit(record):
    with OUTPUT:
        sys.stdout.write(json.dumps(record) + "\n")
        sys.stdout.flush()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    origin = None  # "https://host[:port]" inside a CONNECT tunnel

    def log_message(self, *_args):
        pass

    def do_CONNECT(self):
        host, _, port = self.path.rpartition(":")
        # A connection with no request in it (a preconnect) is seen here only.
        emit({"connect": self.path.lower()})
        self.send_response(200, "Connection Established")
        self.end_headers()
        self.wfile.flush()
        try:
            tls = self.server.tls.wrap_socket(self.connection, server_side=True)
        except (ssl.SSLError, OSError):
            self.close_connection = True
            return
        self.connection = tls
        self.rfile = tls.makefile("rb", -1)
        self.wfile = tls.makefile("wb", 0)
        self.origin = "https://" + (host.lower() if port == "443" else "%s:%s" % (host.lower(), port))
        self.close_connection = False

    def serve(self):
        if self.origin:
            url = self.origin + self.path
        elif self.path.startswith("/"):
            # A request made to the proxy as a server (origin form): the site is the Host header's.
            url = "http://" + self.headers.get("Host", "") + self.path
        else:
            url = self.path
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        headers = {name: self.headers[name] for name in ("sec-gpc", "referer", "sec-fetch-dest") if self.headers.get(name) is not None}
        emit({"method": self.command, "url": url, "headers": headers})
        parts = urlsplit(url)
        path = parts.path if parts.path and parts.path != "/" else "/index.html"
        host = (parts.hostname or "").rstrip(".")
        file = os.path.realpath(os.path.join(self.server.root, host, path.lstrip("/")))
        body, status, location, extra = b"not found", 404, None, []
        inside = file.startswith(self.server.root + os.sep)
        if inside and os.path.isfile(file):
            with open(file, "rb") as handle:
                body, status = handle.read(), 200
            if os.path.isfile(file + ".headers"):
                with open(file + ".headers", encoding="utf-8") as handle:
                    extra = [line.rstrip("\n").split(": ", 1) for line in handle if ": " in line]
        elif inside and os.path.isfile(file + ".redirect"):
            with open(file + ".redirect", encoding="utf-8") as handle:
                location = handle.readline().strip()
            body, status = b"", 302
        self.send_response(status)
        if location:
            self.send_header("Location", location)
        self.send_header("Content-Type", content_type(file, body))
        self.send_header("Cache-Control", "no-store")
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Content-Length", str(len(body)))
        for name, value in extra:
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        self.wfile.flush()

    do_GET = do_POST = do_HEAD = do_PUT = do_OPTIONS = serve


def content_type(file, body):
    """By extension; a file without one (`gtag/js`, `pagead/ads`) is HTML when it starts with `<`,
    else JavaScript."""
    extension = os.path.splitext(file)[1]
    if extension in CONTENT_TYPES:
        return CONTENT_TYPES[extension]
    return CONTENT_TYPES[".html"] if body.lstrip().startswith(b"<") else CONTENT_TYPES[".js"]


def tls_context(directory):
    if shutil.which("openssl") is None:
        sys.exit("site_proxy: openssl is needed for the https certificate (apt: openssl)")
    cert, key = os.path.join(directory, "cert.pem"), os.path.join(directory, "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-days", "2", "-subj", "/CN=trackerless-site-proxy", "-keyout", key, "-out", cert],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    return context


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        sys.exit("usage: site_proxy.py SITES_DIR")
    with tempfile.TemporaryDirectory() as scratch:
        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        server.root = os.path.realpath(sys.argv[1])
        server.tls = tls_context(scratch)
        emit({"port": server.server_address[1]})
        threading.Thread(target=server.serve_forever, daemon=True).start()
        sys.stdin.read()
        server.shutdown()


if __name__ == "__main__":
    main()

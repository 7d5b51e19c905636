#!/usr/bin/env python3
"""A loopback HTTP server for the updater's tests: answers each path as routes.json says.

    python3 loopback_server.py DIRECTORY

Binds 127.0.0.1 on a free port and writes the port to DIRECTORY/port once it listens. Each
request reads DIRECTORY/routes.json again (so a test changes the answers between requests),
appends its path to DIRECTORY/arrivals.jsonl as it arrives, and once answered appends one JSON
line to DIRECTORY/requests.jsonl: the path, the conditional headers, the status sent, the body
bytes sent and whether the whole body went out. routes.json maps a path to:

    status          the status (200 by default)
    body            the body, text
    etag            sent as ETag; a request whose If-None-Match equals it is answered 304
    lastModified    sent as Last-Modified; a request whose If-Modified-Since equals it gets 304
    headers         more headers, {"name": "value"}
    delay           seconds to wait before answering
    contentLength   the Content-Length to announce instead of the body's (more: a cut body)
    location        a redirect's Location; "{port}" becomes this server's port
    stream          {"chunk": bytes, "count": chunks, "interval": seconds}: a body of `count`
                    chunks of "x" sent without Content-Length, `interval` apart

A path may map to a list of such answers instead: the path's first request since the server
started gets the first, the second the second, and every request after the list's end the last.

Every answer closes its connection. A path without a route is a 404. The server ends itself when
the process that started it is gone.
"""
import http.server
import json
import os
import sys
import threading
import time

DIRECTORY = sys.argv[1]
LOG_LOCK = threading.Lock()
ARRIVALS = {}  # path -> requests so far


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        pass

    def do_GET(self):
        with open(os.path.join(DIRECTORY, "routes.json")) as file:
            routes = json.load(file)
        route = routes.get(self.path)
        with LOG_LOCK, open(os.path.join(DIRECTORY, "arrivals.jsonl"), "a") as log:
            log.write(json.dumps({"path": self.path}) + "\n")
            arrived = ARRIVALS.get(self.path, 0)
            ARRIVALS[self.path] = arrived + 1
        if isinstance(route, list):
            route = route[min(arrived, len(route) - 1)] if route else None
        entry = {
            "path": self.path,
            "ifNoneMatch": self.headers.get("If-None-Match"),
            "ifModifiedSince": self.headers.get("If-Modified-Since"),
        }
        try:
            self.answer(route, entry)
        except (BrokenPipeError, ConnectionResetError):
            entry["complete"] = False
        with LOG_LOCK, open(os.path.join(DIRECTORY, "requests.jsonl"), "a") as log:
            log.write(json.dumps(entry) + "\n")

    def answer(self, route, entry):
        entry["sent"] = 0
        entry["complete"] = True
        if route is None:
            return self.send(404, {}, b"no such route", entry)
        time.sleep(route.get("delay", 0))
        headers = dict(route.get("headers", {}))
        etag, modified = route.get("etag"), route.get("lastModified")
        if etag:
            headers["ETag"] = etag
        if modified:
            headers["Last-Modified"] = modified
        not_modified = (etag and self.headers.get("If-None-Match") == etag) or (
            not etag and modified and self.headers.get("If-Modified-Since") == modified)
        if not_modified:
            return self.send(304, headers, b"", entry, length=False)
        if "location" in route:
            headers["Location"] = route["location"].replace("{port}", str(self.server.server_port))
        status = route.get("status", 200)
        if "stream" in route:
            return self.stream(status, headers, route["stream"], entry)
        body = route.get("body", "").encode()
        self.send(status, headers, body, entry, declared=route.get("contentLength"))

    def send(self, status, headers, body, entry, length=True, declared=None):
        entry["status"] = status
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        if length:
            self.send_header("Content-Length", str(declared if declared is not None else len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)
        self.wfile.flush()
        entry["sent"] = len(body)
        self.close_connection = True

    def stream(self, status, headers, stream, entry):
        entry["status"] = status
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Connection", "close")
        self.end_headers()
        chunk = b"x" * stream["chunk"]
        for _ in range(stream["count"]):
            self.wfile.write(chunk)
            self.wfile.flush()
            entry["sent"] += len(chunk)
            time.sleep(stream.get("interval", 0))
        self.close_connection = True


def exit_with_parent(parent):
    """Ends the server when the test process that started it is gone, killed or crashed."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)


threading.Thread(target=exit_with_parent, args=(os.getppid(),), daemon=True).start()
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
with open(os.path.join(DIRECTORY, "port.tmp"), "w") as file:
    file.write(str(server.server_port))
os.rename(os.path.join(DIRECTORY, "port.tmp"), os.path.join(DIRECTORY, "port"))
server.serve_forever()

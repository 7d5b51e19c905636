#!/usr/bin/python3
"""Loads pages in WebKitGTK with user scripts, script message handlers and rule lists.

Run with the system interpreter (/usr/bin/python3), which has PyGObject and WebKit2 4.1 (or 4.0,
as webkit_harness.import_webkit picks).

  userscript_harness.py SPEC.json > result.json

The spec file holds one JSON object:

  {
    "rules": ["rules.json", ...],          rule lists to compile and install (optional)
    "scripts": [{                          user scripts, added in this order
        "source": "JS" | "file": "path",
        "world": null | "trackerless",     null: the page's world; else an isolated world
        "frames": "all" | "top",           default all
        "time": "start" | "end",           document start (default) or end
        "measure": "name"                  optional: time this script's start-up (see below)
    }],
    "handlers": [{"name": "trackerless", "world": null | "trackerless"}],
    "trace_posts": [{"handler": "trackerless", "world": null | "trackerless"}],
                                           note when the top frame posts to that handler
    "resources": {                         what the loopback proxy answers, by URL
        "https://site.example/": {"type": "text/html", "body": "..." | "body_base64": "...",
                                  "status": 200, "headers": {...}}
    },
    "pages": [{
        "id": "p1", "url": "https://site.example/",
        "done_title": "done",              the page sets this title when it has finished
        "timeout": 10,                     seconds from the load until the page must be done
        "settle": 0.6,                     seconds to keep listening once done
        "leave": true,                     then navigate away (pagehide) and listen `settle` more
        "result": "JS expression",         evaluated in the page's world once settled; its
                                           value (JSON) is the page's result record
        "cookies": true                    clear the jar before the page; once settled, report
                                           the jar's cookies for the page's URL (see below)
    }]
  }

Pages load one after another, each in a new web view; all share one web context, one user
content manager and one proxy. The output is one JSON object:

  {"pages": [{"id", "url", "title", "done": bool, "load_failed": null | str,
              "messages": [{"handler", "ms", "body"}],   every script message, in order
              "requests": [{"url", "ms"}],               every request the proxy received
              "result": value, "marks": {...},
              "posts": {"page" | world: [[ms, script, page id], ...]},
              "cookies": [{"name", "value", "expires": seconds since 1970 | null}]}]}

`ms` counts from the page's load_uri. The 4.1 API's script-message-received signal does not
say which world posted a message; tell them apart by their content.

"measure" brackets the script with two tiny user scripts of the same world that store
performance.now() in `window.__trackerlessHarness.marks["<name>:before" / ":after"]`, read
back in the top frame as "marks". WebKit coarsens performance.now() to 1 ms, so compare
medians over several loads. "trace_posts" wraps the handler's postMessage in the top frame of
that world, before any script runs, and reports each post's performance.now() with the
message's script and page id: when messages were sent, which the host's receive times (IPC,
a busy main loop) only approximate.

Exit status: 0 done, 2 bad input, 3 WebKitGTK / Xvfb / openssl missing, 4 a rule list does
not compile.
"""

import base64
import json
import os
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from webkit_harness import (  # noqa: E402
    EXIT_MISSING, EXIT_USAGE, FilterCompiler, Proxy, canonical, compile_rule_files, ensure_display,
    fail, import_webkit, make_tls_context, proxied_web_context)

TOTAL_TIMEOUT = 300.0
PROBE = "__trackerlessHarness"  # per world: {"marks": {...}, "posts": [...]}


class RecordingState:
    """The proxy's answers by URL, and every request it received, in order."""

    def __init__(self, responses):
        self.lock = threading.Lock()
        self.responses = responses
        self.requests = []
        self.origin = time.monotonic()

    def restart(self):
        """Starts a new page: its requests go to a new list, timed from now."""
        with self.lock:
            self.requests = []
            self.origin = time.monotonic()
            return self.requests

    def record(self, url):
        with self.lock:
            self.requests.append({"url": url, "ms": round((time.monotonic() - self.origin) * 1000, 1)})
            return self.responses.get(url)


def response_of(url, spec):
    if not isinstance(spec, dict):
        fail(EXIT_USAGE, "resource %s must be an object" % url)
    if isinstance(spec.get("body_base64"), str):
        body = base64.b64decode(spec["body_base64"])
    else:
        body = str(spec.get("body", "")).encode("utf-8")
    headers = dict(spec.get("headers") or {})
    headers.setdefault("Access-Control-Allow-Origin", "*")
    return (int(spec.get("status", 200)), str(spec.get("type", "text/html; charset=utf-8")), body, headers)


PROBE_OBJECT = "(window.%s || (window.%s = {marks: {}, posts: []}))" % (PROBE, PROBE)


def marker(name, edge):
    return "%s.marks[%s] = performance.now();" % (PROBE_OBJECT, json.dumps(name + ":" + edge))


def post_tracer(handler):
    """Wraps the handler's postMessage in this world to note when each message was posted.

    Added before the scripts, so a script that takes the handler's postMessage at document start
    takes this wrapper, which calls the real one with the same message.
    """
    return """(function () {
  try {
    var probe = %s;
    var handler = window.webkit.messageHandlers[%s];
    var post = handler.postMessage;
    handler.postMessage = function (message) {
      var page = message && message.page;
      probe.posts[probe.posts.length] = [performance.now(), String(message && message.script),
                                         String(page && page.id)];
      return Reflect.apply(post, handler, [message]);
    };
  } catch (e) {}
})();""" % (PROBE_OBJECT, json.dumps(handler))


class Runner:
    def __init__(self, spec, filters, proxy_port, state):
        from gi.repository import GLib, Gtk, WebKit2
        self.GLib, self.Gtk, self.WebKit2 = GLib, Gtk, WebKit2
        self.state = state
        self.context = proxied_web_context(proxy_port)
        self.content = WebKit2.UserContentManager()
        for content_filter in filters:
            self.content.add_filter(content_filter)
        self.probed_worlds = []
        for trace in spec.get("trace_posts") or []:
            self.add_script({"source": post_tracer(trace.get("handler")), "world": trace.get("world"),
                             "frames": "top"})
            self.probe(trace.get("world"))
        for script in spec.get("scripts") or []:
            self.add_script(script)
        self.messages = []
        connected = set()
        for handler in spec.get("handlers") or []:
            name, world = handler.get("name"), handler.get("world")
            if not isinstance(name, str):
                fail(EXIT_USAGE, "a handler needs a string \"name\"")
            if name not in connected:
                self.content.connect("script-message-received::" + name, self.on_message, name)
                connected.add(name)
            if world is None:
                registered = self.content.register_script_message_handler(name)
            else:
                registered = self.content.register_script_message_handler_in_world(name, world)
            if not registered:
                fail(EXIT_USAGE, "handler %r is registered twice in world %r" % (name, world))
        self.settings = WebKit2.Settings()
        self.settings.set_property("enable-dns-prefetching", False)
        self.settings.set_property("enable-page-cache", False)
        self.settings.set_property("media-playback-requires-user-gesture", False)

    def add_script(self, script):
        WebKit2 = self.WebKit2
        if isinstance(script.get("file"), str):
            try:
                with open(script["file"], encoding="utf-8") as handle:
                    source = handle.read()
            except OSError as error:
                fail(EXIT_USAGE, "cannot read %s: %s" % (script["file"], error))
        elif isinstance(script.get("source"), str):
            source = script["source"]
        else:
            fail(EXIT_USAGE, "a script needs \"source\" or \"file\"")
        frames = (WebKit2.UserContentInjectedFrames.TOP_FRAME if script.get("frames") == "top"
                  else WebKit2.UserContentInjectedFrames.ALL_FRAMES)
        when = (WebKit2.UserScriptInjectionTime.END if script.get("time") == "end"
                else WebKit2.UserScriptInjectionTime.START)
        world = script.get("world")

        def add(text):
            if world is None:
                user_script = WebKit2.UserScript.new(text, frames, when, None, None)
            else:
                user_script = WebKit2.UserScript.new_for_world(text, frames, when, world, None, None)
            self.content.add_script(user_script)

        measure = script.get("measure")
        if isinstance(measure, str):
            add(marker(measure, "before"))
            self.probe(world)
        add(source)
        if isinstance(measure, str):
            add(marker(measure, "after"))

    def probe(self, world):
        """Reads the world's probe object in the top frame at the end of each page."""
        if world not in self.probed_worlds:
            self.probed_worlds.append(world)

    def on_message(self, _manager, result, name):
        value = result.get_js_value()
        try:
            body = json.loads(value.to_json(0) or "null")
        except ValueError:
            body = {"harness_error": "message is not JSON: " + str(value.to_string())}
        self.messages.append({"handler": name, "ms": self.elapsed(), "body": body})

    def elapsed(self):
        return round((time.monotonic() - self.origin) * 1000, 1)

    def spin(self, seconds, until=None):
        """Runs the main loop for `seconds`, or until `until()` is true."""
        context = self.GLib.MainContext.default()
        end = time.monotonic() + seconds
        while time.monotonic() < end and not (until and until()):
            context.iteration(False)
            time.sleep(0.001)

    def evaluate(self, view, expression, world):
        outcome = {}

        def done(source, result):
            try:
                value = source.evaluate_javascript_finish(result)
                outcome["value"] = json.loads(value.to_json(0) or "null")
            except Exception as error:  # GLib.Error: the page threw, or no such world
                outcome["value"] = {"harness_error": str(error)}

        view.evaluate_javascript(expression, -1, world, None, None, done)
        self.spin(5.0, lambda: "value" in outcome)
        return outcome.get("value", {"harness_error": "evaluation timed out"})

    def call(self, start):
        """Runs an asynchronous WebKit call `start(callback)` and returns its callback's arguments."""
        outcome = []
        start(lambda *arguments: outcome.append(arguments))
        self.spin(5.0, lambda: len(outcome) > 0)
        return outcome[0] if outcome else None

    def clear_cookies(self):
        manager = self.context.get_website_data_manager()
        self.call(lambda done: manager.clear(self.WebKit2.WebsiteDataTypes.COOKIES, 0, None, done, None))

    def cookies(self, url):
        """The jar's cookies for `url`: name, value and expiry (null for a session cookie)."""
        jar = self.context.get_website_data_manager().get_cookie_manager()
        result = self.call(lambda done: jar.get_cookies(url, None, done, None))
        if result is None:
            return [{"harness_error": "get_cookies timed out"}]
        found = []
        for cookie in jar.get_cookies_finish(result[1]):
            expires = cookie.get_expires()
            if expires is None:
                seconds = None
            elif hasattr(expires, "to_unix"):
                seconds = expires.to_unix()  # GLib.DateTime (Soup 3, WebKit2 4.1)
            else:
                seconds = expires.to_time_t()  # Soup.Date (Soup 2.4, WebKit2 4.0)
            found.append({"name": cookie.get_name(), "value": cookie.get_value(),
                          "expires": seconds})
        return found

    def load(self, page, deadline):
        WebKit2, Gtk = self.WebKit2, self.Gtk
        view = WebKit2.WebView(web_context=self.context, user_content_manager=self.content,
                               settings=self.settings)
        window = Gtk.Window()
        window.set_default_size(800, 600)
        window.add(view)
        window.show_all()
        status = {"finished": False, "failed": None}

        def changed(_view, event):
            if event == WebKit2.LoadEvent.FINISHED:
                status["finished"] = True

        def failed(_view, _event, uri, error):
            status["failed"] = "%s: %s %d: %s" % (uri, error.domain, error.code, error.message)
            return True

        view.connect("load-changed", changed)
        view.connect("load-failed", failed)
        if page.get("cookies"):
            self.clear_cookies()
        self.messages = []
        requests = self.state.restart()
        self.origin = time.monotonic()
        done_title = page.get("done_title", "done")
        timeout = min(float(page.get("timeout", 10)), max(0.0, deadline - time.monotonic()))
        settle = float(page.get("settle", 0.6))
        view.load_uri(page["url"])
        self.spin(timeout, lambda: view.get_title() == done_title
                  or (status["failed"] is not None and status["finished"]))
        done = view.get_title() == done_title
        self.spin(settle)
        result = None
        if isinstance(page.get("result"), str):
            result = self.evaluate(view, page["result"], None)
        marks, posts = {}, {}
        for world in self.probed_worlds:
            found = self.evaluate(view, "window.%s || {}" % PROBE, world)
            if isinstance(found, dict):
                marks.update(found.get("marks") or {})
                posts[world or "page"] = found.get("posts") or []
        title = view.get_title()
        cookies = self.cookies(page["url"]) if page.get("cookies") else None
        if page.get("leave", True):
            view.load_uri("about:blank")
            self.spin(settle)
        window.destroy()
        return {"id": page["id"], "url": page["url"], "title": title, "done": done,
                "load_failed": status["failed"], "messages": list(self.messages),
                "requests": list(requests), "result": result, "marks": marks,
                "posts": posts, "cookies": cookies}


def read_spec(path):
    try:
        with open(path, encoding="utf-8") as handle:
            spec = json.load(handle)
    except (OSError, ValueError) as error:
        fail(EXIT_USAGE, "cannot read the spec %s: %s" % (path, error))
    if not isinstance(spec, dict) or not isinstance(spec.get("pages"), list):
        fail(EXIT_USAGE, "the spec needs a \"pages\" list")
    for page in spec["pages"]:
        if not isinstance(page, dict) or not isinstance(page.get("id"), str) \
                or not isinstance(page.get("url"), str):
            fail(EXIT_USAGE, "every page needs a string \"id\" and \"url\"")
    if not isinstance(spec.get("resources", {}), dict):
        fail(EXIT_USAGE, "\"resources\" must be an object")
    return spec


def main():
    if len(sys.argv) != 2:
        fail(EXIT_USAGE, "usage: userscript_harness.py SPEC.json")
    spec = read_spec(sys.argv[1])
    ensure_display(__file__)
    import_webkit(need_gtk=True)
    from gi.repository import Gtk
    if not Gtk.init_check(None)[0]:
        fail(EXIT_MISSING, "cannot open the display %r" % os.environ.get("DISPLAY"))
    deadline = time.monotonic() + TOTAL_TIMEOUT
    responses = {canonical(url): response_of(url, value)
                 for url, value in (spec.get("resources") or {}).items()}
    with tempfile.TemporaryDirectory(prefix="trackerless-userscripts-") as tmp:
        filters = compile_rule_files(FilterCompiler(os.path.join(tmp, "store")), spec.get("rules") or [])
        state = RecordingState(responses)
        proxy = Proxy(state, make_tls_context(tmp))
        threading.Thread(target=proxy.serve_forever, daemon=True).start()
        runner = Runner(spec, filters, proxy.server_address[1], state)
        pages = [runner.load(page, deadline) for page in spec["pages"]]
        proxy.shutdown()
        proxy.server_close()
    json.dump({"pages": pages}, sys.stdout, sort_keys=True)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

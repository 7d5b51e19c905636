#!/usr/bin/python3
"""Renders an HTML privacy dashboard in WebKitGTK and saves a PNG screenshot of it.

  render_dashboard.py DASHBOARD.html OUTPUT.png [--width 1000] [--height 1400]

Loads the page in a WebKit2 4.1 web view in a GTK window on the (virtual) display, with JavaScript off
(the dashboard must read without it), waits for the load to finish and the page to paint, and
saves the window's pixels once they show a page (10 s at most after the load). Prints one JSON line:
  {"png": path, "width": int, "height": int, "distinctColors": int, "nonBlank": bool,
   "externalRequests": [URLs other than the page itself that the page tried to load]}
Run it with the system interpreter, which has PyGObject and the WebKit2 typelib. It re-executes
itself under `xvfb-run -a` when there is no display.

Exit status: 0 rendered, 2 bad usage, 3 WebKitGTK or Xvfb missing, 4 the page did not load.
"""

import json
import os
import shutil
import subprocess
import sys


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    html_path, png_path = os.path.abspath(args[0]), os.path.abspath(args[1])
    width, height = 1000, 1400
    if "--width" in args:
        width = int(args[args.index("--width") + 1])
    if "--height" in args:
        height = int(args[args.index("--height") + 1])

    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        if not shutil.which("xvfb-run"):
            print("render_dashboard: no display and no xvfb-run", file=sys.stderr)
            return 3
        command = ["xvfb-run", "-a", "-s", "-screen 0 1280x1600x24", sys.executable, os.path.abspath(__file__)] + args
        return subprocess.call(command)

    try:
        import gi
        gi.require_version("Gtk", "3.0")
        gi.require_version("Gdk", "3.0")
        gi.require_version("WebKit2", "4.1")
        from gi.repository import Gdk, GLib, Gtk, WebKit2
    except (ImportError, ValueError) as error:
        print(f"render_dashboard: WebKitGTK missing: {error}", file=sys.stderr)
        return 3

    page_uri = "file://" + html_path
    external = []
    state = {"loaded": False, "failed": None}

    settings = WebKit2.Settings()
    settings.set_enable_javascript(False)
    # Software painting, so the window's pixels hold the page under Xvfb.
    settings.set_hardware_acceleration_policy(WebKit2.HardwareAccelerationPolicy.NEVER)
    view = WebKit2.WebView.new_with_settings(settings)
    view.set_size_request(width, height)
    window = Gtk.Window()
    window.set_default_size(width, height)
    window.move(0, 0)
    window.add(view)
    window.show_all()

    def on_resource(_view, resource, _request):
        uri = resource.get_uri()
        if uri != page_uri and not uri.startswith("data:"):
            external.append(uri)

    def screenshot():
        """The window's pixels and how many colours a sample of them has (0 without pixels)."""
        pixbuf = Gdk.pixbuf_get_from_window(window.get_window(), 0, 0, width, height)
        if pixbuf is None:
            return None, 0
        pixels = pixbuf.get_pixels()
        stride, channels = pixbuf.get_rowstride(), pixbuf.get_n_channels()
        colors = set()
        for y in range(0, pixbuf.get_height(), 7):
            row = y * stride
            for x in range(0, pixbuf.get_width(), 5):
                offset = row + x * channels
                colors.add(bytes(pixels[offset:offset + 3]))
        return pixbuf, len(colors)

    def on_load_changed(_view, event):
        if event == WebKit2.LoadEvent.FINISHED:
            state["loaded"] = True
            # The page lays out and paints after the load: look at the pixels every 200 ms until
            # they show a page, 10 s at most (a loaded machine paints late), then once more for
            # the paint after that.
            waited = {"ms": 0, "painted": False}

            def check():
                waited["ms"] += 200
                if waited["painted"] or waited["ms"] >= 10000:
                    Gtk.main_quit()
                    return False
                waited["painted"] = screenshot()[1] >= 8
                return True

            GLib.timeout_add(200, check)

    def on_load_failed(_view, _event, uri, error):
        state["failed"] = f"{uri}: {error.message}"
        Gtk.main_quit()
        return True

    view.connect("resource-load-started", on_resource)
    view.connect("load-changed", on_load_changed)
    view.connect("load-failed", on_load_failed)
    GLib.timeout_add_seconds(40, Gtk.main_quit)
    view.load_uri(page_uri)
    Gtk.main()

    if not state["loaded"]:
        print(f"render_dashboard: the page did not load: {state['failed'] or 'timeout'}", file=sys.stderr)
        return 4
    pixbuf, colors = screenshot()
    if pixbuf is None:
        print("render_dashboard: no pixels from the window", file=sys.stderr)
        return 4
    pixbuf.savev(png_path, "png", [], [])
    print(json.dumps({
        "png": png_path, "width": pixbuf.get_width(), "height": pixbuf.get_height(),
        "distinctColors": colors, "nonBlank": colors >= 8, "externalRequests": external,
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""Measures which content-blocker features a WebKitGTK knows, with a fixed built-in probe set.

  feature_probe.py run [--root ROOT] [--no-load] > RESULT.jsonl
      Compiles one small list per probe with the WebKit of this python3 (webkit_harness's
      FilterCompiler, no display needed) and loads pages with one list of "key probes"
      (webkit_harness.py load, under xvfb-run) to see whether trigger keys an older WebKit may
      ignore silently are honoured. Prints JSON lines: first {"version": {...}}, then one line
      per probe, {"kind": "compile", "id", "ok", "error"} or {"kind": "load", "id", "blocked",
      "detail"}.
      --root ROOT runs all of it inside the Debian root ROOT (.ci/install-webkit-roots.sh) with
      the root's /usr/bin/python3, through bubblewrap the way WebKitHarness.swift does it when
      TRACKERLESS_WEBKIT_ROOT is set.

  feature_probe.py table RESULT.jsonl [RESULT.jsonl ...] > MEASURED-FEATURES.md
      One markdown table, a column per result file (per WebKit version).

  feature_probe.py list
      The probes as JSON lines (id, group, rules, and for page loads the cases).

Exit status: 0 done, 2 bad usage, 3 WebKitGTK missing (webkit_harness's codes).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from webkit_harness import (  # noqa: E402
    EXIT_USAGE, FilterCompiler, emit, fail, import_webkit, webkit_version)


def rule(trigger, action=None):
    trig = {"url-filter": "probe"}
    trig.update(trigger)
    return {"trigger": trig, "action": action or {"type": "block"}}


RESOURCE_TYPES = ("document", "top-document", "child-document", "image", "style-sheet", "script",
                  "font", "raw", "svg-document", "media", "popup", "ping", "fetch", "websocket",
                  "other", "csp-report")
LOAD_TYPES = ("first-party", "third-party")
LOAD_CONTEXTS = ("top-frame", "child-frame")
ACTIONS = (
    ("block", {"type": "block"}),
    ("block-cookies", {"type": "block-cookies"}),
    ("css-display-none", {"type": "css-display-none", "selector": ".ad"}),
    ("ignore-previous-rules", {"type": "ignore-previous-rules"}),
    ("ignore-following-rules", {"type": "ignore-following-rules"}),
    ("make-https", {"type": "make-https"}),
    ("notify", {"type": "notify", "notification": "seen"}),
    ("notify without notification", {"type": "notify"}),
    ("redirect", {"type": "redirect", "redirect": {"url": "https://redirected.example/"}}),
    ("modify-headers", {"type": "modify-headers", "priority": 1, "request-headers": [
        {"operation": "set", "header": "X-Probe", "value": "1"}]}),
    ("modify-headers without priority", {"type": "modify-headers", "request-headers": [
        {"operation": "set", "header": "X-Probe", "value": "1"}]}),
)


def compile_probes():
    """(id, group, rule list) for every compile probe."""
    probes = []
    for value in RESOURCE_TYPES:
        probes.append(("resource-type " + value, "resource-type", [rule({"resource-type": [value]})]))
    for value in LOAD_TYPES + ("bogus",):
        probes.append(("load-type " + value, "load-type", [rule({"load-type": [value]})]))
    for value in LOAD_CONTEXTS + ("bogus",):
        probes.append(("load-context " + value, "load-context", [rule({"load-context": [value]})]))
    for name, action in ACTIONS:
        probes.append(("action " + name, "action", [rule({}, action)]))
    for value in ("get", "post", "POST", "bogus"):
        probes.append(("request-method \"%s\"" % value, "request-method",
                       [rule({"request-method": value})]))
    probes.append(("request-method [\"get\"] (array)", "request-method",
                   [rule({"request-method": ["get"]})]))
    # A trigger key that is parsed rejects an unsupported regex ("a|b") or a bad type; one that
    # is ignored does not: compile alone tells whether the key is known.
    for key in ("if-frame-url", "unless-frame-url", "if-ancestor-frame-url"):
        probes.append((key + " [\"^https://f\\\\.example/\"]", "frame keys",
                       [rule({key: ["^https://f\\.example/"]})]))
        probes.append((key + " [\"a|b\"] (unsupported regex)", "frame keys", [rule({key: ["a|b"]})]))
        probes.append((key + " \"x\" (not an array)", "frame keys", [rule({key: "x"})]))
    probes.append(("frame-url-filter-is-case-sensitive true", "frame keys",
                   [rule({"if-frame-url": ["^https://f\\.example/"],
                          "frame-url-filter-is-case-sensitive": True})]))
    probes.append(("if-top-url [\"a|b\"] (unsupported regex)", "conditions",
                   [rule({"if-top-url": ["a|b"]})]))
    probes.append(("if-domain + if-top-url in one list", "conditions", [
        rule({"if-domain": ["page.example"]}),
        rule({"if-top-url": ["^https://page\\.example/"]})]))
    probes.append(("unless-domain + unless-top-url in one list", "conditions", [
        rule({"unless-domain": ["page.example"]}),
        rule({"unless-top-url": ["^https://page\\.example/"]})]))
    probes.append(("if-domain + unless-top-url in one list", "conditions", [
        rule({"if-domain": ["page.example"]}),
        rule({"unless-top-url": ["^https://page\\.example/"]})]))
    probes.append(("if-domain and if-top-url in one trigger", "conditions",
                   [rule({"if-domain": ["page.example"], "if-top-url": ["^https://page\\.example/"]})]))
    probes.append(("if-domain and if-frame-url in one trigger", "conditions",
                   [rule({"if-domain": ["page.example"], "if-frame-url": ["^https://page\\.example/"]})]))
    probes.append(("resource-type [] (empty)", "resource-type", [rule({"resource-type": []})]))
    return probes


# ---------------------------------------------------------------------------------------------
# Page loads: one list, a rule per probe (distinct url-filters), every case in one run.

PAGE = "https://page.example/"
LOAD_RULES = [
    # A key that is honoured keeps the rule from matching the case; an ignored key blocks it.
    rule({"url-filter": "iff-nomatch", "if-frame-url": ["^https?://never\\.example/"]}),
    rule({"url-filter": "iff-match", "if-frame-url": ["^https?://frame\\.example/"]}),
    rule({"url-filter": "uff-nomatch", "unless-frame-url": ["^https?://page\\.example/"]}),
    rule({"url-filter": "rm-post", "request-method": "post"}),
    rule({"url-filter": "rm-get", "request-method": "get"}),
    rule({"url-filter": "lc-child", "load-context": ["child-frame"]}),
    rule({"url-filter": "lc-top", "load-context": ["top-frame"]}),
    rule({"url-filter": "iafu-nomatch", "if-ancestor-frame-url": ["^https?://never\\.example/"]}),
    rule({"url-filter": "iafu-match", "if-ancestor-frame-url": ["^https?://page\\.example/"]}),
    # document navigations by load-context.
    rule({"url-filter": "doc-any", "resource-type": ["document"]}),
    rule({"url-filter": "doc-top", "resource-type": ["document"], "load-context": ["top-frame"]}),
    rule({"url-filter": "doc-child", "resource-type": ["document"], "load-context": ["child-frame"]}),
    # Which frame URL a navigation is matched with: its own URL, or the frame it leaves?
    rule({"url-filter": "iff-self", "if-frame-url": ["^https?://d\\.example/iff-self"]}),
    # third-party: registrable domain or origin?
    rule({"url-filter": "tp-", "load-type": ["third-party"]}),
    rule({"url-filter": "fp-", "load-type": ["first-party"]}),
]


def image(case_id, url, top=PAGE, frame=None, meaning=""):
    case = {"id": case_id, "top": top, "url": url, "type": "image", "meaning": meaning}
    if frame:
        case["frame"] = frame
    return case


LOAD_CASES = [
    image("if-frame-url not matching the frame (top-frame image)", "https://t.example/iff-nomatch.gif",
          meaning="blocked = if-frame-url ignored"),
    image("if-frame-url matching the iframe (control)", "https://t.example/iff-match.gif",
          frame="https://frame.example/", meaning="blocked = rule applies (expected everywhere)"),
    image("unless-frame-url matching the frame", "https://t.example/uff-nomatch.gif",
          meaning="blocked = unless-frame-url ignored"),
    image("request-method post, GET image", "https://t.example/rm-post.gif",
          meaning="blocked = request-method ignored"),
    image("request-method get, GET image (control)", "https://t.example/rm-get.gif",
          meaning="blocked = rule applies (expected everywhere)"),
    image("load-context child-frame, top-frame image", "https://t.example/lc-child.gif",
          meaning="blocked = load-context ignored"),
    image("load-context top-frame, top-frame image (control)", "https://t.example/lc-top.gif",
          meaning="blocked = rule applies (expected everywhere)"),
    image("load-context top-frame, image in an iframe", "https://t.example/lc-top-in-frame.gif",
          frame="https://frame2.example/", meaning="blocked = load-context ignored"),
    image("if-ancestor-frame-url not matching (top-frame image)", "https://t.example/iafu-nomatch.gif",
          meaning="blocked = if-ancestor-frame-url ignored"),
    image("if-ancestor-frame-url matching the top page, image in an iframe",
          "https://t.example/iafu-match.gif", frame="https://frame3.example/",
          meaning="blocked = rule applies to a frame whose ancestor matches"),
    {"id": "document, iframe navigation", "top": PAGE, "url": "https://d.example/doc-any-frame",
     "type": "child-document", "meaning": "blocked = document covers iframes"},
    {"id": "document, top navigation", "top": PAGE, "url": "https://d.example/doc-any-top",
     "type": "top-document", "meaning": "blocked = document covers the main frame"},
    {"id": "document + top-frame, iframe navigation", "top": PAGE, "url": "https://d.example/doc-top-frame",
     "type": "child-document", "meaning": "expected: not blocked"},
    {"id": "document + top-frame, top navigation", "top": PAGE, "url": "https://d.example/doc-top-top",
     "type": "top-document", "meaning": "expected: blocked"},
    {"id": "document + child-frame, iframe navigation", "top": PAGE,
     "url": "https://d.example/doc-child-frame", "type": "child-document", "meaning": "expected: blocked"},
    {"id": "document + child-frame, top navigation", "top": PAGE, "url": "https://d.example/doc-child-top",
     "type": "top-document", "meaning": "expected: not blocked"},
    {"id": "if-frame-url matching the URL itself, top navigation (new view)", "top": PAGE,
     "url": "https://d.example/iff-self-top", "type": "top-document",
     "meaning": "blocked = a main-frame navigation is matched with its own URL as frame URL"},
    {"id": "if-frame-url matching the URL itself, iframe navigation", "top": PAGE,
     "url": "https://d.example/iff-self-frame", "type": "child-document",
     "meaning": "blocked = an iframe navigation is matched with its own URL as frame URL"},
    image("third-party: sub.example.com image on www.example.com", "https://sub.example.com/tp-sub.gif",
          top="https://www.example.com/", meaning="blocked = third-party by host/origin; "
                                                 "not blocked = by registrable domain"),
    image("third-party: https image on http://www.example.com (same host)",
          "https://www.example.com/tp-scheme.gif", top="http://www.example.com/",
          meaning="blocked = third-party by origin (scheme)"),
    image("third-party: http://www.example.com:8080 image on http://www.example.com",
          "http://www.example.com:8080/tp-port.gif", top="http://www.example.com/",
          meaning="blocked = third-party by origin (port)"),
    image("third-party: cdn.site.example image on www.site.example (TLD not in the PSL)",
          "https://cdn.site.example/tp-nopsl.gif", top="https://www.site.example/",
          meaning="blocked = hosts under an unknown TLD are compared by host"),
    image("third-party: other.example image on www.example.com (control)",
          "https://other.example/tp-other.gif", top="https://www.example.com/",
          meaning="blocked (expected everywhere)"),
    image("third-party: same host (control)", "https://www.example.com/tp-same.gif",
          top="https://www.example.com/", meaning="not blocked (expected everywhere)"),
    image("first-party: sub.example.com image on www.example.com", "https://sub.example.com/fp-sub.gif",
          top="https://www.example.com/", meaning="blocked = first-party by registrable domain"),
]


def run_compile_probes():
    from gi.repository import GLib  # noqa: F401
    with tempfile.TemporaryDirectory(prefix="trackerless-probe-") as tmp:
        compiler = FilterCompiler(os.path.join(tmp, "store"))
        for index, (probe_id, group, rules) in enumerate(compile_probes()):
            compiled, error, _, _ = compiler.compile("p%d" % index, json.dumps(rules).encode("utf-8"))
            emit({"kind": "compile", "id": probe_id, "group": group, "ok": compiled is not None,
                  "error": error})


def run_load_probes():
    with tempfile.TemporaryDirectory(prefix="trackerless-probe-") as tmp:
        rules_file = os.path.join(tmp, "rules.json")
        with open(rules_file, "w") as handle:
            json.dump(LOAD_RULES, handle)
        cases = "".join(json.dumps({k: v for k, v in case.items() if k != "meaning"}) + "\n"
                        for case in LOAD_CASES)
        result = subprocess.run([sys.executable, os.path.join(HERE, "webkit_harness.py"), "load",
                                 "--rules", rules_file], input=cases.encode("utf-8"),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if result.returncode != 0:
            lines = [line for line in result.stderr.decode(errors="replace").splitlines()
                     if line.startswith("webkit_harness")]
            emit({"kind": "load", "id": "(all)", "blocked": None,
                  "detail": "webkit_harness.py load exited %d: %s" % (result.returncode, " ".join(lines))})
            return
        meanings = {case["id"]: case["meaning"] for case in LOAD_CASES}
        by_id = {}
        for line in result.stdout.decode().splitlines():
            if line.strip():
                item = json.loads(line)
                by_id[item["id"]] = item
        for case in LOAD_CASES:
            item = by_id.get(case["id"], {"blocked": None, "detail": "no result"})
            emit({"kind": "load", "id": case["id"], "group": "page load", "blocked": item["blocked"],
                  "detail": item["detail"], "meaning": meanings[case["id"]]})


# ---------------------------------------------------------------------------------------------
# Running inside a root: in_webkit_root.py, which the Swift harness and the benchmark use too

def run(args):
    if args.root:
        command = ["/usr/bin/python3", os.path.abspath(__file__), "run"] + (["--no-load"] if args.no_load else [])
        return subprocess.call([os.path.join(HERE, "in_webkit_root.py"), args.root] + command)
    import_webkit(need_gtk=False)
    emit({"version": webkit_version()})
    run_compile_probes()
    if not args.no_load:
        run_load_probes()
    return 0


# ---------------------------------------------------------------------------------------------
# The table

def cell(item):
    if item is None:
        return "–"
    if item["kind"] == "compile":
        return "compiles" if item["ok"] else "**error**: " + (item.get("error") or "?")
    if item["blocked"] is None:
        return "no result (" + item.get("detail", "") + ")"
    return "**blocked**" if item["blocked"] else "not blocked"


def table(paths):
    columns = []
    for path in paths:
        version, items = None, {}
        with open(path) as handle:
            for line in handle:
                if not line.strip():
                    continue
                item = json.loads(line)
                if "version" in item:
                    version = item["version"]
                else:
                    items[(item["kind"], item["id"])] = item
        label = "%d.%d.%d" % (version["major"], version["minor"], version["micro"]) if version else path
        if version:
            label += " (WebKit2 %s)" % version["api"]
        columns.append((label, items))
    rows = [("compile", probe_id, group, "") for probe_id, group, _ in compile_probes()]
    rows += [("load", case["id"], "page load", case["meaning"]) for case in LOAD_CASES]
    out = ["| group | probe | " + " | ".join(label for label, _ in columns) + " | reading |",
           "|---|---|" + "---|" * len(columns) + "---|"]
    for kind, probe_id, group, meaning in rows:
        cells = [cell(items.get((kind, probe_id))).replace("|", "\\|") for _, items in columns]
        out.append("| %s | %s | %s | %s |" % (group, probe_id.replace("|", "\\|"), " | ".join(cells),
                                              meaning.replace("|", "\\|")))
    sys.stdout.write("\n".join(out) + "\n")
    return 0


def list_probes():
    for probe_id, group, rules in compile_probes():
        emit({"kind": "compile", "id": probe_id, "group": group, "rules": rules})
    emit({"kind": "load", "rules": LOAD_RULES, "cases": LOAD_CASES})
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="mode", required=True)
    run_parser = sub.add_parser("run")
    run_parser.add_argument("--root", help="run inside this Debian root (bubblewrap)")
    run_parser.add_argument("--no-load", action="store_true", help="compile probes only")
    table_parser = sub.add_parser("table")
    table_parser.add_argument("results", nargs="+")
    sub.add_parser("list")
    args = parser.parse_args()
    if args.mode == "run":
        return run(args)
    if args.mode == "table":
        return table(args.results)
    return list_probes()


if __name__ == "__main__":
    sys.exit(main())

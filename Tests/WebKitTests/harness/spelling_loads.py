#!/usr/bin/env python3
"""Write the loads that check a list layout's exactness: each host of the lists' url-filters spelled 17 ways.

    spelling_loads.py LIST_DIR [--requests REQUESTS.json] > loads.jsonl

For measurement only (BENCHMARKS.md, "WebKit compile time of our list"): a layout of the lists
(shape_probe.py) is exact when `trackerless decide` (engine, and `--reference`) gives it the same
decisions as the lists it was made from, on these loads. Every host named before the exact end
`\\.?(:[0-9]+)?/` in a url-filter of LIST_DIR's lists is requested 17 ways (`/x`, a final dot,
ports 8080, 443 and 80, a final dot and a port, a subdomain, `u@`, `u:p@`, `u:p@` with a final
dot and a port, the host as the user name before `:pw@` another host, before `@`, `:1@` and
`.:p@` another host, the host followed by `.evil.example`, `x` before the host, `http:` with
`.:80`) as a script on another site, and, where an if-top-url exception names the host, on the
first site of that exception (its owner's). `--requests`: also the real requests of the shared
data (matching-test-requests.json: `url`, `sourceUrl` as the top, `type`). JSON lines
{"url", "top", "type"} on standard output.
"""

import argparse
import glob
import json
import os
import re

END = r"\.?(:[0-9]+)?/"
HOST = re.compile(r"((?:[a-z0-9_-]|\\\.)+)" + re.escape(END))
SITE = re.compile(r"((?:[a-z0-9_-]|\\\.)+)\[:/\]$")
OTHER_TOP = "https://other-site.example/"
# The requests' type names (adblock's) as WebKit's loader names them.
TYPES = {"stylesheet": "style-sheet", "xhr": "fetch", "subdocument": "child-document"}


def spellings(host):
    return [
        "https://%s/x" % host, "https://%s./x" % host, "https://%s:8080/x" % host, "https://%s:443/x" % host,
        "https://%s:80/x" % host, "https://%s.:8080/x" % host, "https://sub.%s/x" % host, "https://u@%s/x" % host,
        "https://u:p@%s/x" % host, "https://u:p@%s.:8080/x" % host, "https://%s:pw@evil.example/x" % host,
        "https://%s@evil.example/x" % host, "https://%s:1@evil.example/x" % host, "https://%s.:p@evil.example/x" % host,
        "https://%s.evil.example/x" % host, "https://x%s/x" % host, "http://%s.:80/x" % host,
    ]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("list_dir")
    parser.add_argument("--requests")
    args = parser.parse_args()
    own_site = {}
    hosts = []
    for path in sorted(glob.glob(os.path.join(args.list_dir, "rules*.json"))):
        if path.endswith(".sources.json"):
            continue
        with open(path, encoding="utf-8") as handle:
            for rule in json.load(handle):
                trigger = rule["trigger"]
                match = HOST.search(trigger["url-filter"])
                if not match:
                    continue
                host = match.group(1).replace("\\.", ".")
                if host not in own_site:
                    own_site[host] = None
                    hosts.append(host)
                if own_site[host] is None and rule["action"]["type"] == "ignore-previous-rules":
                    for entry in trigger.get("if-top-url", []):
                        site = SITE.search(entry)
                        if site:
                            own_site[host] = "https://www.%s/" % site.group(1).replace("\\.", ".")
                            break
    for host in hosts:
        for top in [OTHER_TOP] + ([own_site[host]] if own_site[host] else []):
            for url in spellings(host):
                print(json.dumps({"url": url, "top": top, "type": "script"}))
    if args.requests:
        with open(args.requests, encoding="utf-8") as handle:
            for request in json.load(handle):
                print(json.dumps({"url": request["url"], "top": request["sourceUrl"],
                                  "type": TYPES.get(request["type"], request["type"])}))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The adblock-rust peer for the engine benchmark (TrackerlessBenchmarks, "Engine" section).

Writes a Tracker Radar blocklist (tds.json) as Adblock Plus filters, builds Brave's adblock-rust
engine from them through the Python binding (PyPI `adblock` 0.6.0, which bundles adblock-rust
0.5.6), then decides adblock-rust's own labelled requests (matching-test-requests.json) one call
at a time and prints ONE JSON line:

  {"requests", "filters", "regex_filters", "skipped_rules", "compile_ms", "median_ns", "p99_ns",
   "overhead_ns", "net_median_ns", "net_p99_ns", "empty_engine_median_ns", "blocked", "passes",
   "adblock_version", "approximations"}

`overhead_ns` is the median time of the same timed call on a Python function that does nothing
with the same three arguments: the cost of the Python call and of `perf_counter_ns` itself, which
the Swift side does not pay. `net_median_ns = median_ns - overhead_ns`. `empty_engine_median_ns` is the same call on an engine
without filters (the binding, URL parsing and request set-up in Rust, no matching): for context,
it is not taken off.

When `adblock` cannot be imported it prints {"unavailable": "reason"} and exits 0, so the
benchmark reports the peer as missing instead of failing.

The tds.json -> filters conversion, per tracker (owner domains = the owner entity's `domains`):
  default block:   ||tracker^$third-party,domain=~owner1|~owner2...
  default ignore:  no filter for the tracker itself
  rule, blocking (no action, a surrogate, or block-ctl-*), on a default-ignore tracker:
                   <pattern>$third-party,domain=~owner...[|option-domain...]
  rule, blocking, on a default-block tracker: nothing more (the tracker filter already blocks)
  rule exceptions: @@<pattern>$domain=exception-domain|...,<exception types>
                   (ABP requires both the domain and the type, as tds does when both are given)
  rule action ignore: @@<pattern>$third-party
where <pattern> is the rule regex written as an ABP pattern: `\\.` and `\\/` unescaped, `.*` as
`*`, host-anchored with `||` when the regex starts with a host name; a regex that uses any other
regex syntax stays a regex filter `/regex/`.

Approximated, because ABP has no rule order and no "first matching rule wins":
  - in tds the FIRST matching rule decides; in ABP any matching exception (@@) beats any block, so
    an exception or ignore rule also wins where an earlier tds rule would have blocked;
  - `options.domains` of a rule on a default-block tracker are dropped (the tracker filter blocks
    there anyway); their exceptions then apply on every site, not only the option sites;
  - the tds regex matches anywhere in the URL; `||host` anchors it at a host label boundary;
  - tds matches only requests to the tracker's domain; an unanchored pattern or a regex filter may
    also match on other hosts;
  - cnames (CNAME cloaking) are not converted;
  - adblock-rust decides "third-party" from registrable domains, as WebKit does.
"""

import argparse
import json
import re
import statistics
import sys
import time

REQUEST_TYPES = {
    # matching-test-requests.json types -> adblock-rust request types.
    "script": "script", "image": "image", "stylesheet": "stylesheet", "xhr": "xmlhttprequest",
    "fetch": "xmlhttprequest", "subdocument": "sub_frame", "media": "media", "font": "font",
    "other": "other",
}

EXCEPTION_TYPES = {
    # tds exception types (webRequest names) -> ABP type options.
    "script": "script", "image": "image", "stylesheet": "stylesheet",
    "xmlhttprequest": "xmlhttprequest", "subdocument": "subdocument", "media": "media",
    "font": "font", "other": "other", "ping": "ping", "websocket": "websocket",
}

HOST_START = re.compile(r"[a-z0-9-]")


def abp_pattern(rule):
    """The tds rule regex as an ABP pattern, or None when it needs a regex filter."""
    text, index = [], 0
    while index < len(rule):
        char = rule[index]
        if char == "\\" and index + 1 < len(rule) and rule[index + 1] in "./-_:=&%,;~@!":
            text.append(rule[index + 1])
            index += 2
        elif rule.startswith(".*", index):
            text.append("*")
            index += 2
        elif char in "\\.[](){}?+*|^$":
            return None
        else:
            text.append(char)
            index += 1
    pattern = "".join(text)
    if HOST_START.match(pattern):
        return "||" + pattern
    # `/…/` would read as a regex filter; a trailing `*` keeps it a plain pattern.
    return pattern + "*" if pattern.startswith("/") and pattern.endswith("/") else pattern


def filter_for(rule, options):
    """`<pattern>$<options>` for one tds rule regex; (filter, is_regex)."""
    pattern = abp_pattern(rule)
    is_regex = pattern is None
    if is_regex:
        if "$" in rule or rule.startswith("/") or rule.endswith("/"):
            return None, True
        pattern = "/" + rule + "/"
    return pattern + ("$" + ",".join(options) if options else ""), is_regex


def filters_from_tds(tds):
    """ABP filters for every tracker; (filters, regex filter count, skipped rules)."""
    entities = tds.get("entities", {})
    filters, regex_count, skipped = [], 0, 0

    def add(rule, options, exception=False):
        nonlocal regex_count, skipped
        text, is_regex = filter_for(rule, options)
        if text is None:
            skipped += 1
            return
        regex_count += is_regex
        filters.append(("@@" if exception else "") + text)

    for domain, tracker in sorted(tds.get("trackers", {}).items()):
        owner = (tracker.get("owner") or {}).get("name")
        owner_domains = sorted(set(entities.get(owner, {}).get("domains", [])) | {domain})
        not_owner = "domain=" + "|".join("~" + d for d in owner_domains)
        default_blocks = tracker.get("default") == "block"
        if default_blocks:
            filters.append("||%s^$third-party,%s" % (domain, not_owner))
        for rule in tracker.get("rules", []):
            regex = rule.get("rule", "")
            if not regex:
                continue
            action = rule.get("action")
            if action == "ignore":
                add(regex, ["third-party"], exception=True)
                continue
            exceptions = rule.get("exceptions") or {}
            if exceptions:
                options = []
                if exceptions.get("domains"):
                    options.append("domain=" + "|".join(exceptions["domains"]))
                types = [EXCEPTION_TYPES[t] for t in exceptions.get("types", []) if t in EXCEPTION_TYPES]
                options += types
                if options:
                    add(regex, options, exception=True)
            if not default_blocks:
                option_domains = (rule.get("options") or {}).get("domains", [])
                domains = not_owner + "".join("|" + d for d in option_domains)
                add(regex, ["third-party", domains])
    return filters, regex_count, skipped


def self_test():
    """The conversion on examples a reader can check by eye; raises AssertionError on a change."""
    assert abp_pattern(r"googletagmanager\.com/gtm\.js") == "||googletagmanager.com/gtm.js"
    assert abp_pattern(r"tags\.tiqcdn\.com/utag/.*/utag\.js") == "||tags.tiqcdn.com/utag/*/utag.js"
    assert abp_pattern(r"\/ads\/") == "/ads/*"
    assert abp_pattern(r"a\.com/[0-9]+") is None
    assert filter_for(r"a\.com/[0-9]+", ["third-party"]) == (r"/a\.com/[0-9]+/$third-party", True)
    tds = {
        "entities": {"A Inc": {"domains": ["a.com", "a-cdn.net"]}},
        "trackers": {
            "a.com": {"owner": {"name": "A Inc"}, "default": "block", "rules": [
                {"rule": r"a\.com/keep\.js", "action": "ignore"},
                {"rule": r"a\.com/px", "exceptions": {"domains": ["site.org"], "types": ["image"]}},
            ]},
            "b.net": {"owner": {"name": "B"}, "default": "ignore", "rules": [
                {"rule": r"b\.net/t\.js", "options": {"domains": ["news.org"]}},
            ]},
        },
    }
    filters, regex_count, skipped = filters_from_tds(tds)
    assert filters == [
        "||a.com^$third-party,domain=~a-cdn.net|~a.com",
        "@@||a.com/keep.js$third-party",
        "@@||a.com/px$domain=site.org,image",
        "||b.net/t.js$third-party,domain=~b.net|news.org",
    ], filters
    assert (regex_count, skipped) == (0, 0)
    print("self-test passed")


def timed_calls(function, requests):
    """Nanoseconds of each call of `function(url, source_url, type)`, in order."""
    clock = time.perf_counter_ns
    times = []
    append = times.append
    for url, source, kind in requests:
        start = clock()
        function(url, source, kind)
        append(clock() - start)
    return times


def percentile(sorted_values, fraction):
    if not sorted_values:
        return 0
    return sorted_values[min(len(sorted_values) - 1, int(fraction * len(sorted_values)))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tds", help="the tds.json to convert")
    parser.add_argument("--requests", help="matching-test-requests.json")
    parser.add_argument("--self-test", action="store_true", help="check the conversion on examples and stop")
    parser.add_argument("--passes", type=int, default=5, help="timed passes over the requests (after one warm-up)")
    parser.add_argument("--builds", type=int, default=3, help="engine builds timed (median reported)")
    parser.add_argument("--print-filters", action="store_true", help="print the filters and stop")
    arguments = parser.parse_args()
    if arguments.self_test:
        self_test()
        return 0
    if not arguments.tds or not arguments.requests:
        parser.error("--tds and --requests are required")

    with open(arguments.tds, encoding="utf-8") as file:
        tds = json.load(file)
    filters, regex_count, skipped = filters_from_tds(tds)
    if arguments.print_filters:
        print("\n".join(filters))
        return 0

    try:
        import adblock
    except Exception as error:  # ImportError, or a wheel that does not load on this machine
        print(json.dumps({"unavailable": "cannot import adblock (pip install adblock==0.6.0): %s" % error}))
        return 0

    build_times, engine = [], None
    for _ in range(max(1, arguments.builds)):
        start = time.perf_counter_ns()
        filter_set = adblock.FilterSet()
        filter_set.add_filters(filters)
        engine = adblock.Engine(filter_set, optimize=True)
        build_times.append(time.perf_counter_ns() - start)

    with open(arguments.requests, encoding="utf-8") as file:
        cases = json.load(file)
    requests = [(c["url"], c.get("sourceUrl", ""), REQUEST_TYPES.get(c.get("type"), "other")) for c in cases]

    def no_op(url, source_url, request_type):
        return None

    # An engine without filters still parses each request in Rust and crosses the binding both
    # ways: its time bounds what the binding and request set-up cost, for context.
    empty_set = adblock.FilterSet()
    empty_set.add_filters([])
    empty = adblock.Engine(empty_set, optimize=True)

    check = engine.check_network_urls
    blocked = sum(1 for url, source, kind in requests if check(url, source, kind).matched)  # warm-up
    timed_calls(no_op, requests)
    timed_calls(empty.check_network_urls, requests)
    times, overhead, empty_times = [], [], []
    for _ in range(max(1, arguments.passes)):
        # Interleaved, so all three see the same machine load.
        times += timed_calls(check, requests)
        overhead += timed_calls(no_op, requests)
        empty_times += timed_calls(empty.check_network_urls, requests)
    times.sort()
    overhead.sort()
    median = statistics.median(times)
    overhead_median = statistics.median(overhead)
    p99 = percentile(times, 0.99)
    print(json.dumps({
        "requests": len(requests),
        "filters": len(filters),
        "regex_filters": regex_count,
        "skipped_rules": skipped,
        "compile_ms": statistics.median(build_times) / 1e6,
        "median_ns": median,
        "p99_ns": p99,
        "overhead_ns": overhead_median,
        "net_median_ns": median - overhead_median,
        "net_p99_ns": p99 - overhead_median,
        "empty_engine_median_ns": statistics.median(empty_times),
        "blocked": blocked,
        "passes": max(1, arguments.passes),
        "adblock_version": getattr(adblock, "__version__", "unknown"),
        "approximations": "tds rule order, options.domains on default-block trackers, cnames; see Scripts/adblock-rust-peer.py",
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Measure WebKit's compile time of url-filter shape variants of our list against DuckDuckGo's.

    shape_probe.py [--root ROOT] [--rounds N] [--cpu] [--only VARIANT]... [--also NAME=DIR]...
                   [--also-variant VARIANT]... --ddg DDG.json LIST_DIR

For measurement only (BENCHMARKS.md, "WebKit compile time on every WebKit"): each variant is
our list (LIST_DIR/rules*.json, as `trackerless rules --output DIR/` writes it) with text
substituted in every url-filter (the host's end `\\.?(:[0-9]+)?/`, the subdomain group) or every
`if-top-url` entry, or with a part left out or rewritten by a function (ABLATIONS). Variants
marked inexact, and the ablations, only weigh a part. One harness process
(`webkit_harness.py compile`, inside ROOT through in_webkit_root.py when given, else the
machine's WebKitGTK) compiles DuckDuckGo's list and every variant, interleaved round by round
after a warm-up, each round starting with another list; the script prints each variant's
median time per round (its lists summed), its ratio to DuckDuckGo's median in the same
process, and the median (min-max) of its ratios to DuckDuckGo's list round by round (`--cpu`:
of the harness process's CPU time over each compilation, which other processes disturb less
than the wall time). `--also NAME=DIR` adds another list directory as it is (say, lists built
with other settings), compiled in the same rounds; `--also-variant VARIANT` adds each such
directory made into VARIANT too, list by list (each variant works on one list at a time, so a
layout applies to every list of the set).

WebKit writes every automaton it converts to a temporary file in TMPDIR (nfa_count_probe.py):
with the machine's WebKitGTK, set TMPDIR to a tmpfs (`TMPDIR=/dev/shm shape_probe.py …`), as
the roots have, or the machine's /tmp's file system is measured too.
"""

import argparse
import collections
import glob
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
END = r"\.?(:[0-9]+)?/"
SUB = r"([^/]+[.@])?"

# name -> [(where, old, new)]: "url" substitutes in every url-filter, "top" in every if-top-url entry.
STAR = r"\.?(:[0-9]*)?/"
VARIANTS = {
    "ours": [],
    "port-star": [("url", END, STAR)],
    "port-digit-star": [("url", END, r"\.?(:[0-9][0-9]*)?/")],
    "port-then-dot": [("url", END, r"(\.?:[0-9]+)?\.?/")],
    "colon-digits (inexact: host.com5)": [("url", END, r"\.?:?[0-9]*/")],
    "no-port (inexact)": [("url", END, r"\.?/")],
    "colon-or-slash (inexact)": [("url", END, r"\.?[:/]")],
    "ddg-prefix (inexact)": [("url", SUB, r"([^:/]+\.)?")],
    "class-star [.:0-9]*/ (also host.com5)": [("url", END, r"[.:0-9]*/")],
    "end / only (inexact)": [("url", END, "/")],
    "end [:/] (inexact)": [("url", END, "[:/]")],
    "end / only, top: no prefix (inexact)": [("url", END, "/"), ("top", SUB, "")],
    "top: [^/]*[.@]": [("top", SUB, r"([^/]*[.@])?")],
    "top: [^:/]*[.@]": [("top", SUB, r"([^:/]*[.@])?")],
    "top: [^/]*. (inexact)": [("top", SUB, r"([^/]*\.)?")],
    "top: no prefix (inexact)": [("top", SUB, "")],
    "port-star, top: [^/]*[.@]": [("url", END, STAR), ("top", SUB, r"([^/]*[.@])?")],
    "url+top: [^/]*[.@], port-star": [("url", END, STAR), ("url", SUB, r"([^/]*[.@])?"), ("top", SUB, r"([^/]*[.@])?")],
}
# name -> a function of the rule array, for sizing a part's cost (inexact by design).
def split_conditions(rules):
    """Each site entry `^…://+([^/]+[.@])?site…` as two, without the optional group."""
    for rule in rules:
        trigger = rule["trigger"]
        if "if-top-url" in trigger:
            entries = []
            for entry in trigger["if-top-url"]:
                if SUB in entry:
                    entries += [entry.replace(SUB, ""), entry.replace(SUB, "[^/]*[.@]")]
                else:
                    entries.append(entry)
            trigger["if-top-url"] = entries
    return rules


def split_spellings(rules):
    """Each rule with the host end as three rules: `/`, `\\./` and `\\.?:[0-9]+/` (exact)."""
    out = []
    for rule in rules:
        url_filter = rule["trigger"]["url-filter"]
        if END not in url_filter:
            out.append(rule)
            continue
        for end in ("/", r"\./", r"\.?:[0-9]+/"):
            out.append(dict(rule, trigger=dict(rule["trigger"], **{"url-filter": url_filter.replace(END, end)})))
    return out


TRACKER_PREFIX = r"^[^:]+://+([^/]+[.@])?"
# A tracker's host-only url-filter: the prefix, the escaped domain, the exact end (`END`).
HOST_ONLY = re.compile(r"^" + re.escape(TRACKER_PREFIX) + r"((?:[a-z0-9_-]|\\\.)+)" + re.escape(END) + "$")
# The host an ignore-previous-rules url-filter is about: a tracker's or a subdomain rule's
# (`([^/]*@)?[^:/]*sub\.tracker\.com`), followed by the exact end and maybe a path.
IGNORED_HOST = re.compile(r"^\^\[\^:\]\+://\+(?:\(\[\^/\]\+\[\.@\]\)\?|\(\[\^/\]\*@\)\?(?:\[\^:/\]\*)?)"
                          r"((?:[a-z0-9_-]|\\\.)+)" + re.escape(END))
PASSWORD_URL = r"^[^:]+://+[^/]*:[^/]*@"


def fixed_host_ends(rules, ends=("[:/]", r"\.[:/]"), only_freeing=False):
    """Host-only tracker blocks with fixed-length ends, first, and a fix-up for URLs with a password.

    Weighs the exact spelling without a quantifier after the host (the per-host automaton): each
    movable block `…host\\.?(:[0-9]+)?/` becomes `…host[:/]` and `…host\\.[:/]`, which are exact
    except where the user name ends with the host (`https://tracker.com:pw@evil.com/`). So the
    moved blocks go first, then one ignore-previous-rules for every URL with a password
    (PASSWORD_URL), then the blocks again for those URLs, with the host after the `@`, where a
    `:` can only start the port. A block moves only if no ignore-previous-rules rule before it
    names a host that is a suffix of its host or has it as a suffix (nested trackers, subdomain
    exceptions), and none before it names no host at all; blocks with conditions stay.
    Same decisions as the list (`trackerless decide`, engine and `--reference`, the webkitgtk-2.50
    and -2.44 lists) on 106,842 loads: 17 spellings of every tracker's host (final dots, ports,
    users, passwords, the host inside a user name or a longer host), on another site and on its
    owner's, and the 8,276 real requests; without the fix-up 14,708 differ. With `ends=("[:/]",)` the final-dot host is not blocked (inexact).
    `only_freeing`: move a block only where no other rule keeps the host's automaton, that is no
    other url-filter of the list starts as the block's does up to `\.?(:[0-9]+)?` (an exception
    or a path block of the same host: WebKit puts the url-filters of rules with and without an
    if-top-url in one prefix tree, so they share the automaton rooted there), and write no fix-up
    where no block moves.
    """
    kept = collections.Counter(rule["trigger"]["url-filter"].split(END, 1)[0] for rule in rules
                               if END in rule["trigger"]["url-filter"])
    hosts = set()
    for rule in rules:
        match = HOST_ONLY.match(rule["trigger"]["url-filter"])
        if match:
            hosts.add(match.group(1).replace("\\.", "."))
    nested = {host for host in hosts if any(host.endswith("." + other) for other in hosts)}
    ignored_hosts = []
    unknown_ignore = False
    moved, password_blocks, rest = [], [], []
    for rule in rules:
        trigger = rule["trigger"]
        url_filter = trigger["url-filter"]
        if rule["action"]["type"] == "ignore-previous-rules":
            match = IGNORED_HOST.match(url_filter)
            if match:
                ignored_hosts.append(match.group(1).replace("\\.", "."))
            else:
                unknown_ignore = True
        match = HOST_ONLY.match(url_filter)
        host = match.group(1).replace("\\.", ".") if match else None
        movable = (rule["action"]["type"] == "block" and host is not None and host not in nested
                   and not (only_freeing and kept[url_filter.split(END, 1)[0]] > 1)
                   and set(trigger) <= {"url-filter", "load-type", "resource-type"} and not unknown_ignore
                   and not any(host.endswith(other) or other.endswith(host) for other in ignored_hosts))
        if not movable:
            rest.append(rule)
            continue
        escaped = match.group(1)
        for end in ends:
            moved.append(dict(rule, trigger=dict(trigger, **{"url-filter": TRACKER_PREFIX + escaped + end})))
            password_blocks.append(dict(rule, trigger=dict(
                trigger, **{"url-filter": r"^[^:]+://+[^/]*@([^/]+\.)?" + escaped + end})))
    if only_freeing and not moved:
        return rules  # nothing moved: no fix-up either
    fix_up = {"trigger": {"url-filter": PASSWORD_URL}, "action": {"type": "ignore-previous-rules"}}
    return moved + [fix_up] + password_blocks + rest


SPLIT_PREFIX = "^[^:]+:/+/+"


def own_branch(rules):
    """Every final-dot url-filter (`…\\.[:/]`) starting `^[^:]+:/+/+` instead of `^[^:]+://+`.

    The same URLs (two or more slashes after the scheme's colon), but another prefix-tree branch:
    a host's vertex then has one fixed end, not two, so WebKit's reverse suffix tree
    (CombinedURLFilters.cpp, generateSuffixWithReverseSuffixTree) can share the host's tail with
    other hosts of the same actions instead of generating every host forward.
    """
    out = []
    for rule in rules:
        url_filter = rule["trigger"]["url-filter"]
        if url_filter.endswith(r"\.[:/]") and url_filter.startswith("^[^:]+://+"):
            url_filter = SPLIT_PREFIX + url_filter[len("^[^:]+://+"):]
            rule = dict(rule, trigger=dict(rule["trigger"], **{"url-filter": url_filter}))
        out.append(rule)
    return out


def fixed_layout_part(rules, part, layout=fixed_host_ends):
    """One part of a fixed host-end layout, to weigh it alone: "moved" (the blocks before the
    password fix-up), "password" (the blocks after it) or "rest" (the list's other rules)."""
    laid_out = layout(rules)
    fix_up = next(index for index, rule in enumerate(laid_out) if rule["trigger"]["url-filter"] == PASSWORD_URL)
    password_end = 2 * fix_up + 1
    return {"moved": laid_out[:fix_up], "password": laid_out[fix_up + 1:password_end],
            "rest": laid_out[password_end:]}[part]


def conditioned(rules):
    return [rule for rule in rules if "if-top-url" in rule["trigger"]]


def path_blocks(rules):
    return [rule for rule in rules if rule["action"]["type"] == "block" and "if-top-url" not in rule["trigger"]
            and END in rule["trigger"]["url-filter"] and not rule["trigger"]["url-filter"].endswith(END)]


# The host's end with the port spelled out, fixed lengths only (a URL's port has at most 5 digits).
PORT_ENDS = ["/", r"\./"] + [":" + "[0-9]" * n + "/" for n in range(1, 6)] + [r"\.:" + "[0-9]" * n + "/" for n in range(1, 6)]


def with_ends(rules, ends):
    """Each rule once for every host end in `ends`, in place of `END`."""
    return [dict(rule, trigger=dict(rule["trigger"], **{"url-filter": rule["trigger"]["url-filter"].replace(END, end)}))
            for rule in rules for end in ends]


ABLATIONS = {
    "host-only blocks first, fixed ends, password fix-up": fixed_host_ends,
    "the same, final-dot ends in their own branch": lambda rules: own_branch(fixed_host_ends(rules)),
    "the same without final-dot ends (inexact)": lambda rules: fixed_host_ends(rules, ends=("[:/]",)),
    "three rules: / , \\./ , \\.?:[0-9]+/": split_spellings,
    "top: two entries, no group": split_conditions,
    "without if-top-url rules (ablation)":
        lambda rules: [rule for rule in rules if "if-top-url" not in rule["trigger"]],
    "if-top-url, one condition each (ablation)":
        lambda rules: [dict(rule, trigger=dict(rule["trigger"], **{"if-top-url": rule["trigger"]["if-top-url"][:1]}))
                       if "if-top-url" in rule["trigger"] else rule for rule in rules],
    "12 fixed ends: /, \\./, :[0-9]{1..5}/, \\.:[0-9]{1..5}/":
        lambda rules: [spelled for rule in rules
                       for spelled in (with_ends([rule], PORT_ENDS) if END in rule["trigger"]["url-filter"] else [rule])],
    # Parts of the list alone (ablations: they weigh a part, they decide nothing).
    "part: moved blocks, ends [:/] and \\.[:/]": lambda rules: fixed_layout_part(rules, "moved"),
    "part: moved blocks, final-dot ends in their own branch":
        lambda rules: own_branch(fixed_layout_part(rules, "moved")),
    "part: moved blocks, end [:/] only": lambda rules: fixed_layout_part(rules, "moved", lambda r: fixed_host_ends(r, ends=("[:/]",))),
    "part: moved blocks, end \\.[:/] only":
        lambda rules: fixed_layout_part(rules, "moved", lambda r: fixed_host_ends(r, ends=(r"\.[:/]",))),
    "part: password blocks, ends [:/] and \\.[:/]": lambda rules: fixed_layout_part(rules, "password"),
    "part: password blocks, final-dot ends in their own branch":
        lambda rules: own_branch(fixed_layout_part(rules, "password")),
    "part: the rest of the fixed layout": lambda rules: fixed_layout_part(rules, "rest"),
    "part: if-top-url rules": conditioned,
    "part: if-top-url rules, each twice": lambda rules: [rule for rule in conditioned(rules) for _ in (0, 1)],
    "part: if-top-url rules, end [:/]": lambda rules: with_ends(conditioned(rules), ["[:/]"]),
    "part: if-top-url rules, ends [:/] and \\.[:/] in its own branch":
        lambda rules: own_branch(with_ends(conditioned(rules), ["[:/]", r"\.[:/]"])),
    "part: if-top-url rules, one site each": lambda rules: ABLATIONS["if-top-url, one condition each (ablation)"](conditioned(rules)),
    "part: path blocks": path_blocks,
    "part: path blocks, end /": lambda rules: with_ends(path_blocks(rules), ["/"]),
    "part: path blocks, ends / and \\./": lambda rules: with_ends(path_blocks(rules), ["/", r"\./"]),
}

# The prefixes before a host in the builder's url-filters, and the same for a URL with a password,
# the host after the `@` (where a `:` after the host can only start the port).
HOST_PREFIXES = [
    (TRACKER_PREFIX, r"^[^:]+://+[^/]*@([^/]+\.)?"),
    (r"^[^:]+://+([^/]*@)?[^:/]*", r"^[^:]+://+[^/]*@[^:/]*"),
    (r"^[^:]+://+([^/]*@)?", r"^[^:]+://+[^/]*@"),
]
QUANTIFIER = re.compile(r"[*+?]")
ESCAPED_HOST = re.compile(r"((?:[a-z0-9_-]|\\\.)+)" + re.escape(END))


def split_url_filter(url_filter):
    """(prefix, password prefix, escaped host, rest after the exact end) or None."""
    for prefix, password_prefix in HOST_PREFIXES:
        if url_filter.startswith(prefix):
            match = ESCAPED_HOST.match(url_filter, len(prefix))
            if match:
                return prefix, password_prefix, match.group(1), url_filter[match.end():]
    return None


def branch(url_filter):
    """The same URLs in a prefix-tree branch of their own (`^[^:]+:/+/+`, see own_branch)."""
    return SPLIT_PREFIX + url_filter[len("^[^:]+://+"):]


def fixed_everywhere(rules, path_ends=None):
    """Every host-only url-filter, blocks and exceptions alike, with fixed ends, the list's order
    kept, then one ignore-previous-rules for URLs with a password and the whole list again for
    them, with the host behind the `@`.

    A host-only url-filter `…host\.?(:[0-9]+)?/` becomes two rules, `…host[:/]` and
    `^[^:]+:/+/+…host\.[:/]` (the final dot, in a branch of its own): no quantified term after
    the host, so no automaton per host. `[:/]` takes the user name of
    `https://host:pw@other.example/` for the host, for an exception as for a block; so every
    URL with a password (PASSWORD_URL) gets its decision again from a copy of the list after the
    fix-up, where each such url-filter has the host after the `@`, and every other rule is as it
    was (exact for those URLs too). `path_ends`: the host ends of url-filters with a path (the
    exact `\.?(:[0-9]+)?/` when None; PORT_ENDS spells the port out, fixed lengths only, exact for
    URLs with a password as well since a `/` follows the digits; not for a path with a quantifier).
    """
    first, again = [], []
    for rule in rules:
        trigger = rule["trigger"]
        parts = split_url_filter(trigger["url-filter"])
        if parts is None:
            first.append(rule)
            again.append(rule)
            continue
        prefix, password_prefix, host, rest = parts
        if rest:
            # A quantified path (`/v2/.*\.js`) has an automaton of its own anyway (rooted after
            # its last quantified term): spelling its port out would make twelve.
            spelled = with_ends([rule], path_ends) if path_ends and not QUANTIFIER.search(rest) else [rule]
            spelled = [dict(r, trigger=dict(r["trigger"], **{"url-filter": branch(r["trigger"]["url-filter"])}))
                       if r["trigger"]["url-filter"].startswith(prefix + host + r"\.") else r for r in spelled]
            first += spelled
            again += spelled
            continue
        for url_filter, target in ((prefix + host + "[:/]", first), (branch(prefix + host + r"\.[:/]"), first),
                                   (password_prefix + host + "[:/]", again),
                                   (branch(password_prefix + host + r"\.[:/]"), again)):
            target.append(dict(rule, trigger=dict(trigger, **{"url-filter": url_filter})))
    fix_up = {"trigger": {"url-filter": PASSWORD_URL}, "action": {"type": "ignore-previous-rules"}}
    return first + [fix_up] + again


def before_fix_up(rules):
    """The rules before the password fix-up (the list without its copy: inexact, an ablation)."""
    return rules[:next(index for index, rule in enumerate(rules) if rule["trigger"]["url-filter"] == PASSWORD_URL)]


PORT_BRANCH_PREFIX = "^[^:]+:/*//+"


def spelled_ports(rules, ports_apart=False):
    """Each url-filter with a fixed path `…host\.?(:[0-9]+)?/path` as 12 rules, PORT_ENDS in place
    of the exact end (the final-dot ones in their own branch): fixed lengths only, exact.
    `ports_apart`: the ten with a port in a third branch of their own (`^[^:]+:/*//+`, the same
    URLs again), so that the digits do not enter the prefix tree of the others."""
    if ports_apart:
        out = []
        for rule in spelled_ports(rules):
            url_filter = rule["trigger"]["url-filter"]
            scheme = next((p for p in ("^[^:]+://+", SPLIT_PREFIX) if url_filter.startswith(p)), None)
            if scheme and ":[0-9]" in url_filter:
                rule = dict(rule, trigger=dict(rule["trigger"], **{"url-filter": PORT_BRANCH_PREFIX + url_filter[len(scheme):]}))
            out.append(rule)
        return out
    out = []
    for rule in rules:
        parts = split_url_filter(rule["trigger"]["url-filter"])
        if parts is None or not parts[3] or QUANTIFIER.search(parts[3]):
            out.append(rule)
            continue
        prefix, _, host, _ = parts
        out += [dict(r, trigger=dict(r["trigger"], **{"url-filter": branch(r["trigger"]["url-filter"])}))
                if r["trigger"]["url-filter"].startswith(prefix + host + r"\.") else r for r in with_ends([rule], PORT_ENDS)]
    return out


ABLATIONS["part: path blocks, ports spelled out"] = lambda rules: spelled_ports(path_blocks(rules))
ABLATIONS["path blocks with ports spelled out"] = spelled_ports
ABLATIONS["part: path blocks, ports spelled out apart"] = lambda rules: spelled_ports(path_blocks(rules), ports_apart=True)
ABLATIONS["fixed layout, own branch, only blocks whose automaton goes"] = (
    lambda rules: own_branch(fixed_host_ends(rules, only_freeing=True)))
ABLATIONS["fixed everywhere, password copy"] = fixed_everywhere
ABLATIONS["fixed everywhere, without the password copy (inexact)"] = lambda rules: before_fix_up(fixed_everywhere(rules))
ABLATIONS["fixed everywhere, without the password copy, ports spelled out (inexact)"] = (
    lambda rules: before_fix_up(fixed_everywhere(rules, PORT_ENDS)))
ABLATIONS["fixed everywhere, password copy, ports spelled out"] = lambda rules: fixed_everywhere(rules, PORT_ENDS)
VARIANTS.update({name: [] for name in ABLATIONS})


def exception_ends(rules, ends):
    """Each host-only `if-top-url` exception (`…host\.?(:[0-9]+)?/`) once for every end in
    `ends` (`\.[:/]` in its own branch): `[:/]` takes the user name of `https://host:pw@x.example/`
    for the host and cancels the earlier blocks of that load on the exception's sites (inexact)."""
    out = []
    for rule in rules:
        url_filter = rule["trigger"]["url-filter"]
        if ("if-top-url" not in rule["trigger"] or rule["action"]["type"] != "ignore-previous-rules"
                or not url_filter.endswith(END)):
            out.append(rule)
            continue
        for end in ends:
            spelled = url_filter[:-len(END)] + end
            if end.startswith(r"\."):
                spelled = branch(spelled)
            out.append(dict(rule, trigger=dict(rule["trigger"], **{"url-filter": spelled})))
    return out


ABLATIONS["exceptions: end [:/] (inexact)"] = lambda rules: exception_ends(rules, ["[:/]"])
ABLATIONS["exceptions: ends [:/] and \\.[:/] in their own branch (inexact: passwords)"] = (
    lambda rules: exception_ends(rules, ["[:/]", r"\.[:/]"]))
VARIANTS.update({name: [] for name in ABLATIONS})


# Parts of what WebKit compiles of a list, some left out, the rules and their actions kept
# (serializeActions): the url-filters of rules without a condition, those of rules with one, the
# if-top-url entries. A url-filter or if-top-url list left out becomes one that matches no URL.
# (The url-filters of rules with and without a condition share one prefix tree in 2.44, 2.50
# and 2.54: a block and an exception with the same url-filter make one automaton, not two, as
# nfa_count_probe.py counts; the if-top-url entries are compiled on their own.)
NO_URL = "^x-none:"


def compilations(rules, kept):
    """The list with only the compilations in `kept` ("plain": the url-filters of rules without
    a condition, "conditioned": those of rules with one, "top": the if-top-url entries); with none
    kept, what a list costs besides them (parsing, actions, writing)."""
    out = []
    for rule in rules:
        trigger = rule["trigger"]
        changed = {}
        if "if-top-url" not in trigger:
            if "plain" not in kept:
                changed["url-filter"] = NO_URL
        else:
            if "conditioned" not in kept:
                changed["url-filter"] = NO_URL
            if "top" not in kept:
                changed["if-top-url"] = [NO_URL]
        out.append(dict(rule, trigger=dict(trigger, **changed)) if changed else rule)
    return out


LAYOUTS = {"ours": lambda rules: rules, "fixed layout, own branch": lambda rules: own_branch(fixed_host_ends(rules))}
for _layout_name, _layout in LAYOUTS.items():
    for _kept in ("plain", "conditioned", "top", "none", "plain+conditioned", "conditioned+top", "plain+top"):
        ABLATIONS["compilation %s: %s" % (_kept, _layout_name)] = (
            lambda rules, layout=_layout, kept=frozenset(_kept.split("+")): compilations(layout(rules), kept))


VARIANTS.update({name: [] for name in ABLATIONS})


def variant_source(path, name):
    substitutions = VARIANTS[name]
    with open(path, encoding="utf-8") as handle:
        rules = json.load(handle)
    for rule in rules:
        trigger = rule["trigger"]
        if "if-top-url" in trigger:
            for where, old, new in substitutions:
                if where != "top":
                    continue
                trigger["if-top-url"] = [condition.replace(old, new) for condition in trigger["if-top-url"]]
        url_filter = trigger["url-filter"]
        for where, old, new in substitutions:
            if where != "url":
                continue
            url_filter = url_filter.replace(old, new)
        trigger["url-filter"] = url_filter
    if name in ABLATIONS:
        rules = ABLATIONS[name](rules)
    return json.dumps(rules, separators=(",", ":"))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--ddg", required=True)
    parser.add_argument("--only", action="append")
    parser.add_argument("--also", action="append", default=[], metavar="NAME=DIR")
    parser.add_argument("--also-variant", action="append", default=[], choices=sorted(VARIANTS), metavar="VARIANT",
                        help="also compile each --also directory's lists made into VARIANT, each list on its own")
    parser.add_argument("--cpu", action="store_true",
                        help="compare the harness process's CPU time over each compilation, not the wall time")
    parser.add_argument("list_dir")
    args = parser.parse_args()
    lists = [path for path in sorted(glob.glob(os.path.join(args.list_dir, "rules*.json")))
             if not path.endswith(".sources.json")]
    names = [name for name in VARIANTS if not args.only or name in args.only]
    with tempfile.TemporaryDirectory(prefix="shape-probe-") as tmp:
        files = {"ddg": [os.path.abspath(args.ddg)]}
        for index, name in enumerate(names):
            files[name] = []
            for number, path in enumerate(lists):
                out = os.path.join(tmp, "v%d.%d.json" % (index, number))
                with open(out, "w", encoding="utf-8") as handle:
                    handle.write(variant_source(path, name))
                files[name].append(out)
        for also_index, also in enumerate(args.also):
            name, directory = also.split("=", 1)
            also_lists = [path for path in sorted(glob.glob(os.path.join(directory, "rules*.json")))
                          if not path.endswith(".sources.json")]
            names.append(name)
            files[name] = []
            for number, path in enumerate(also_lists):
                out = os.path.join(tmp, "a%d.%d.json" % (also_index, number))
                with open(path, encoding="utf-8") as source, open(out, "w", encoding="utf-8") as handle:
                    handle.write(source.read())
                files[name].append(out)
            for index, variant in enumerate(args.also_variant):
                variant_name = "%s, %s" % (name, variant)
                names.append(variant_name)
                files[variant_name] = []
                for number, path in enumerate(also_lists):
                    out = os.path.join(tmp, "a%d.v%d.%d.json" % (also_index, index, number))
                    with open(out, "w", encoding="utf-8") as handle:
                        handle.write(variant_source(path, variant))
                    files[variant_name].append(out)
        jobs = [{"id": "warm-up", "rules_file": files["ddg"][0]}]
        entries = list(files.items())
        for round_number in range(args.rounds):
            # Each round starts with another list, so that none is always compiled after the same one.
            shift = round_number % len(entries)
            for name, paths in entries[shift:] + entries[:shift]:
                for number, path in enumerate(paths):
                    jobs.append({"id": "%s|%d|%d" % (name, round_number, number), "rules_file": path})
        command = ["/usr/bin/python3", os.path.join(HERE, "webkit_harness.py"), "compile"]
        if args.root:
            command = [sys.executable, os.path.join(HERE, "in_webkit_root.py"), "--bind", tmp,
                       "--ro-bind", os.path.dirname(os.path.abspath(args.ddg)), args.root] + command
        version = subprocess.run(command[:-1] + ["version"], capture_output=True, text=True).stdout.strip()
        output = subprocess.run(command, input="\n".join(json.dumps(job) for job in jobs) + "\n",
                                capture_output=True, text=True, check=True).stdout
    times = {}
    for line in output.splitlines():
        result = json.loads(line)
        if result["id"] == "warm-up":
            continue
        name, round_number, _ = result["id"].split("|")
        if not result["ok"]:
            print("%s refused: %s" % (name, result["error"]))
            continue
        times.setdefault(name, {}).setdefault(round_number, 0.0)
        times[name][round_number] += result["cpu_seconds" if args.cpu else "seconds"]
    ddg = statistics.median(times["ddg"].values())
    print("WebKit %s, %d rounds; DuckDuckGo's list %.0f ms%s" % (version, args.rounds, ddg * 1000,
                                                                 " (CPU time)" if args.cpu else ""))
    for name in names:
        if name in times:
            median = statistics.median(times[name].values())
            ratios = [seconds / times["ddg"][round_number] for round_number, seconds in times[name].items()
                      if round_number in times["ddg"]]
            print("%-32s %7.0f ms  %.2f  per round %.2f (%.2f-%.2f)  (%d lists)" % (
                name, median * 1000, median / ddg, statistics.median(ratios), min(ratios), max(ratios), len(files[name])))


if __name__ == "__main__":
    main()

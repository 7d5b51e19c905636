#!/usr/bin/env python3
"""Checks that the package's sources reference no toolchain declaration newer than the Apple
platforms Package.swift declares. Scripts/check-apple-availability.sh builds the package with an
index store, extracts the toolchain modules' symbol graphs and runs this; see that script for what
the check proves and what it does not.

Inputs:
- the index store of a build of the package (`swift build --enable-index-store`): every reference
  the compiler resolved in each source file (USR, file, line, column), read through the
  toolchain's libIndexStore.so (its C API, include/indexstore/indexstore.h, through ctypes);
- the symbol graphs of the toolchain's modules (swift-symbolgraph-extract): every public and internal
  declaration's USR with its availability, which the symbol graph already merges with the
  availability of the enclosing type and extension;
- `swift package dump-package`: the declared platforms. An undeclared Apple platform gets
  SwiftPM's oldest supported version; Mac Catalyst, when undeclared, takes the iOS version
  (SwiftPM's PackageGraph derives it the same way).

A reference inside a declaration marked `@available(<platform> N, ...)` or inside an
`if #available(...)`/`guard #available(...)` region is checked against that version instead
(regions come from `swift-frontend -dump-parse` of the files that contain those words).

Exit status: 0 when no reference needs a newer OS, 1 when one does (each is printed as
`file:line:col: error: ...`), 2 when the inputs are unusable (including a failed self-test: the
symbol graphs must say that `Regex` needs macOS 13, that `Task` needs macOS 10.15 and that
`URL.init(filePath:directoryHint:relativeTo:)` needs macOS 13, or the check would be vacuous).
"""
import argparse
import ctypes
import json
import pathlib
import re
import subprocess
import sys
from collections import defaultdict

# Apple platforms: SwiftPM's name (dump-package) -> symbol-graph domain, and SwiftPM's oldest
# supported version for an undeclared platform (swift-package-manager,
# Sources/PackageModel/Platform.swift: macOS 10.13, Mac Catalyst 13.0, iOS 12.0, tvOS 12.0,
# watchOS 4.0, visionOS 1.0). DriverKit is left out: neither Foundation nor WebKit exist there.
PLATFORMS = {
    "macos": ("macOS", (10, 13)),
    "ios": ("iOS", (12, 0)),
    "maccatalyst": ("macCatalyst", (13, 0)),
    "tvos": ("tvOS", (12, 0)),
    "watchos": ("watchOS", (4, 0)),
    "visionos": ("visionOS", (1, 0)),
}

# The modules whose symbol graphs are read. Modules that are not listed are project modules (or
# Glibc/SwiftGlibc, which only exist on Linux and so are only reachable under `#if canImport(Glibc)`).
TOOLCHAIN_MODULES = [
    "Swift", "_Concurrency", "_StringProcessing", "Synchronization", "Distributed", "Observation",
    "RegexBuilder", "Dispatch", "Foundation", "FoundationEssentials",
    "FoundationInternationalization", "FoundationNetworking", "FoundationXML",
    "Testing", "_Testing_Foundation", "XCTest",
]
# Modules whose declarations carry no Apple availability on this toolchain (swift-corelibs-foundation
# and swift-corelibs-libdispatch are written for Linux): their declarations without an Apple
# attribute are reported as unverified, not as available.
UNATTRIBUTED_MODULES = {"Foundation", "FoundationNetworking", "FoundationXML", "Dispatch", "XCTest"}

# The kinds of target whose sources are compiled into the package's modules (dump-package's
# `type`); plugins (compiled for the host by the plugin runner) and binary targets are not.
CHECKED_TARGET_TYPES = {"regular", "executable", "test"}

# `...vg`, `...vs`, `...ig`... (getter, setter, modify, read... of a property `vp` or subscript `ip`),
# optionally static (`Z`).
ACCESSOR_USR = re.compile(r"^(?P<base>s:.*)(?P<kind>[vi])(?P<acc>[gsMrwWaluxy])(?P<static>Z?)$")

ROLE_DECLARATION = 1 << 0
ROLE_DEFINITION = 1 << 1
ROLE_REFERENCE = 1 << 2
ROLE_IMPLICIT = 1 << 8
DEP_RECORD = 2


def version_tuple(text):
    parts = [int(p) for p in str(text).split(".") if p != ""]
    while len(parts) < 3:
        parts.append(0)
    return tuple(parts[:3])


def vstr(v):
    return ".".join(str(p) for p in (v if len(v) > 2 and v[2] else v[:2]))



# ---------------------------------------------------------------------------------------------
# Index store (libIndexStore.so, C API of include/indexstore/indexstore.h)


class StringRef(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("length", ctypes.c_size_t)]

    def text(self):
        return ctypes.string_at(self.data, self.length).decode("utf-8") if self.length else ""


class IndexStore:
    def __init__(self, library, path):
        lib = ctypes.CDLL(library)
        p = ctypes.c_void_p
        self.lib = lib

        def fn(name, restype, *argtypes):
            f = getattr(lib, name)
            f.restype = restype
            f.argtypes = list(argtypes)
            return f

        self.UNIT_CB = ctypes.CFUNCTYPE(ctypes.c_bool, p, StringRef)
        self.DEP_CB = ctypes.CFUNCTYPE(ctypes.c_bool, p, p)
        self.OCC_CB = ctypes.CFUNCTYPE(ctypes.c_bool, p, p)
        self.error_desc = fn("indexstore_error_get_description", ctypes.c_char_p, p)
        self.store_create = fn("indexstore_store_create", p, ctypes.c_char_p, ctypes.POINTER(p))
        self.units_apply = fn("indexstore_store_units_apply_f", ctypes.c_bool, p, ctypes.c_uint, p, self.UNIT_CB)
        self.unit_create = fn("indexstore_unit_reader_create", p, p, ctypes.c_char_p, ctypes.POINTER(p))
        self.unit_dispose = fn("indexstore_unit_reader_dispose", None, p)
        self.unit_main_file = fn("indexstore_unit_reader_get_main_file", StringRef, p)
        self.unit_module = fn("indexstore_unit_reader_get_module_name", StringRef, p)
        self.unit_is_module = fn("indexstore_unit_reader_is_module_unit", ctypes.c_bool, p)
        self.unit_mtime = fn("indexstore_unit_reader_get_modification_time", None, p,
                             ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(ctypes.c_int64))
        self.deps_apply = fn("indexstore_unit_reader_dependencies_apply_f", ctypes.c_bool, p, p, self.DEP_CB)
        self.dep_kind = fn("indexstore_unit_dependency_get_kind", ctypes.c_int, p)
        self.dep_name = fn("indexstore_unit_dependency_get_name", StringRef, p)
        self.dep_path = fn("indexstore_unit_dependency_get_filepath", StringRef, p)
        self.record_create = fn("indexstore_record_reader_create", p, p, ctypes.c_char_p, ctypes.POINTER(p))
        self.record_dispose = fn("indexstore_record_reader_dispose", None, p)
        self.occ_apply = fn("indexstore_record_reader_occurrences_apply_f", ctypes.c_bool, p, p, self.OCC_CB)
        self.occ_symbol = fn("indexstore_occurrence_get_symbol", p, p)
        self.occ_roles = fn("indexstore_occurrence_get_roles", ctypes.c_uint64, p)
        self.occ_line_col = fn("indexstore_occurrence_get_line_col", None, p,
                               ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(ctypes.c_uint))
        self.sym_usr = fn("indexstore_symbol_get_usr", StringRef, p)
        self.sym_name = fn("indexstore_symbol_get_name", StringRef, p)
        err = p()
        self.store = self.store_create(str(path).encode(), ctypes.byref(err))
        if not self.store:
            raise RuntimeError(f"cannot open index store {path}: {self.error_desc(err).decode()}")

    def units(self):
        names = []

        def on_unit(_ctx, name):
            names.append(name.text())
            return True

        self.units_apply(self.store, 0, None, self.UNIT_CB(on_unit))
        return names

    def unit_info(self, unit_name):
        err = ctypes.c_void_p()
        reader = self.unit_create(self.store, unit_name.encode(), ctypes.byref(err))
        if not reader:
            return None
        try:
            if self.unit_is_module(reader):
                return None
            sec, nsec = ctypes.c_int64(), ctypes.c_int64()
            self.unit_mtime(reader, ctypes.byref(sec), ctypes.byref(nsec))
            records = []

            def on_dep(_ctx, dep):
                if self.dep_kind(dep) == DEP_RECORD:
                    records.append((self.dep_name(dep).text(), self.dep_path(dep).text()))
                return True

            self.deps_apply(reader, None, self.DEP_CB(on_dep))
            return {
                "main": self.unit_main_file(reader).text(),
                "module": self.unit_module(reader).text(),
                "mtime": sec.value + nsec.value / 1e9,
                "records": records,
            }
        finally:
            self.unit_dispose(reader)

    def references(self, record_name):
        """(usr, name, line, column, roles) of every reference occurrence of a record."""
        err = ctypes.c_void_p()
        reader = self.record_create(self.store, record_name.encode(), ctypes.byref(err))
        if not reader:
            raise RuntimeError(f"cannot read index record {record_name}: {self.error_desc(err).decode()}")
        out = []
        line, col = ctypes.c_uint(), ctypes.c_uint()

        def on_occ(_ctx, occ):
            roles = self.occ_roles(occ)
            sym = self.occ_symbol(occ)
            self.occ_line_col(occ, ctypes.byref(line), ctypes.byref(col))
            out.append((self.sym_usr(sym).text(), self.sym_name(sym).text(), line.value, col.value, roles))
            return True

        try:
            self.occ_apply(reader, None, self.OCC_CB(on_occ))
        finally:
            self.record_dispose(reader)
        return out


# ---------------------------------------------------------------------------------------------
# Symbol graphs


def load_symbol_graphs(directory):
    """USR -> (module, title path, availability list), from every *.symbols.json of directory, and
    requirement USR -> the USRs of its default implementations.

    The module is the one that declares the symbol: `X@Y.symbols.json` holds X's declarations
    (extensions of Y's types; for modules exported as Swift, such as _Concurrency, all of X's)."""
    table = {}
    defaults = defaultdict(set)
    for path in sorted(pathlib.Path(directory).glob("*.symbols.json")):
        module = path.name.split(".symbols.json")[0].split("@")[0]
        with open(path, encoding="utf-8") as f:
            graph = json.load(f)
        for sym in graph.get("symbols", []):
            usr = sym["identifier"]["precise"]
            entry = (module, ".".join(sym.get("pathComponents", [])), sym.get("availability") or [])
            old = table.get(usr)
            # The same USR can appear in more than one graph (a type and its extensions): keep the
            # one from its own module, which has the declaration's own attributes.
            if old is None or (old[0] != module and usr.startswith(f"s:{len(module)}{module}")):
                table[usr] = entry
        for rel in graph.get("relationships", []):
            if rel.get("kind") == "defaultImplementationOf":
                defaults[rel["target"]].add(rel["source"])
    return table, defaults


def ios_to_visionos(v):
    # visionOS 1 shipped with the iOS 17 SDK; iOS 18 ↔ visionOS 2; from 26 on the versions match.
    if v[0] >= 26:
        return v
    if v[0] <= 17:
        return (1, 0, 0)
    return (v[0] - 16, v[1], 0)


def requirement(availability, domain):
    """What `availability` (a symbol graph's list) requires on `domain`: None (nothing),
    ('introduced', version), ('unavailable', None) or ('obsoleted', version)."""
    by_domain = {a.get("domain"): a for a in availability}
    for a in availability:
        if a.get("domain") == "*" and a.get("isUnconditionallyUnavailable"):
            return ("unavailable", None)
    entry = by_domain.get(domain)
    inferred_from = None
    if entry is None and domain in ("macCatalyst", "visionOS"):
        # The compiler infers Mac Catalyst and visionOS availability from iOS's.
        entry = by_domain.get("iOS")
        inferred_from = "iOS"
    if entry is None:
        return None
    if entry.get("isUnconditionallyUnavailable"):
        return ("unavailable", None)
    if "obsoleted" in entry:
        v = version_tuple_from_json(entry["obsoleted"])
        if inferred_from and domain == "visionOS":
            v = ios_to_visionos(v)
        return ("obsoleted", v)
    if "introduced" in entry:
        v = version_tuple_from_json(entry["introduced"])
        if inferred_from and domain == "visionOS":
            v = ios_to_visionos(v)
        return ("introduced", v)
    return None


def problem(availability, domain, floor):
    """Why a declaration with `availability` cannot be used with deployment target `floor` on
    `domain` (as `domain version`), or None."""
    req = requirement(availability, domain)
    if req is None:
        return None
    kind, version = req
    if kind == "unavailable":
        return f"{domain}: unavailable"
    if kind == "obsoleted" and floor >= version:
        return f"{domain}: obsoleted in {vstr(version)}"
    if kind == "introduced" and version > floor:
        return f"{domain} {vstr(version)}"
    return None


def version_tuple_from_json(v):
    return (v.get("major", 0), v.get("minor", 0), v.get("patch", 0))


# ---------------------------------------------------------------------------------------------
# Availability regions of the project's sources (`@available` declarations, `#available` checks)

RANGE = re.compile(r"range=\[(?P<file>[^:\]]+):(?P<l1>\d+):(?P<c1>\d+) - line:(?P<l2>\d+):(?P<c2>\d+)\]")
DOMAIN_NAMES = {
    "macOS": "macOS", "OSX": "macOS", "macOSApplicationExtension": None, "iOS": "iOS",
    "iOSApplicationExtension": None, "tvOS": "tvOS", "watchOS": "watchOS", "visionOS": "visionOS",
    "xrOS": "visionOS", "macCatalyst": "macCatalyst",
}


def parse_tree(text):
    """The -dump-parse output as (indent, text) nodes with children."""
    root = {"indent": -1, "text": "", "children": []}
    stack = [root]
    for raw in text.splitlines():
        if not raw.strip():
            continue
        indent = len(raw) - len(raw.lstrip(" "))
        node = {"indent": indent, "text": raw.strip(), "children": []}
        while stack[-1]["indent"] >= indent:
            stack.pop()
        stack[-1]["children"].append(node)
        stack.append(node)
    return root


def node_range(node):
    """The union of the source ranges of a node and its descendants: (start, end) as (line, col)."""
    lo = hi = None
    todo = [node]
    while todo:
        n = todo.pop()
        m = RANGE.search(n["text"])
        if m:
            a = (int(m["l1"]), int(m["c1"]))
            b = (int(m["l2"]), int(m["c2"]))
            lo = a if lo is None or a < lo else lo
            hi = b if hi is None or b > hi else hi
        todo.extend(n["children"])
    return (lo, hi) if lo else None


def own_range(node):
    m = RANGE.search(node["text"])
    return ((int(m["l1"]), int(m["c1"])), (int(m["l2"]), int(m["c2"]))) if m else None


def availability_regions(swift_frontend, path):
    """[(start, end, {domain: version or 'unavailable'})] of one source file."""
    proc = subprocess.run([swift_frontend, "-dump-parse", str(path)], capture_output=True, text=True)
    text = proc.stdout + proc.stderr
    regions = []

    def specs(cond_node):
        found = {}
        for child in cond_node["children"]:
            m = re.match(r"\(availability_spec domain=(\w+) version=([\d.]+)", child["text"])
            if m and DOMAIN_NAMES.get(m[1]):
                found[DOMAIN_NAMES[m[1]]] = version_tuple(m[2])
        return found

    def visit(node, parent):
        t = node["text"]
        if t.startswith("(available_attr") and parent is not None:
            dm = re.search(r"domainIdentifier=(\w+)", t)
            domain = DOMAIN_NAMES.get(dm[1]) if dm else None
            rng = node_range(parent)
            if rng:
                if "unavailable" in t.split() or " unavailable" in t:
                    regions.append((rng[0], rng[1], {domain or "*": "unavailable"}))
                elif domain:
                    im = re.search(r"introduced=([\d.]+)", t)
                    if im:
                        regions.append((rng[0], rng[1], {domain: version_tuple(im[1])}))
        if t.startswith("(if_stmt") or t.startswith("(while_stmt"):
            conds = [c for c in node["children"] if c["text"].startswith("(conditions")]
            bodies = [c for c in node["children"] if c["text"].startswith("(brace_stmt")]
            for cond in conds:
                for c in cond["children"]:
                    if c["text"].startswith("(#available") and bodies:
                        rng = own_range(bodies[0])
                        if rng:
                            regions.append((rng[0], rng[1], specs(c)))
                    if c["text"].startswith("(#unavailable") and len(bodies) > 1:
                        rng = own_range(bodies[1])
                        if rng:
                            regions.append((rng[0], rng[1], specs(c)))
        if t.startswith("(guard_stmt"):
            conds = [c for c in node["children"] if c["text"].startswith("(conditions")]
            mine = own_range(node)
            # After a `guard #available`, the rest of the enclosing block.
            enclosing = own_range(parent) if parent is not None else None
            if mine and enclosing:
                end = enclosing[1]
                for cond in conds:
                    for c in cond["children"]:
                        if c["text"].startswith("(#available"):
                            regions.append((mine[1], end, specs(c)))
        for child in node["children"]:
            visit(child, node)

    visit(parse_tree(text), None)
    return regions


# ---------------------------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--package-dir", required=True)
    ap.add_argument("--index-store", required=True)
    ap.add_argument("--symbol-graphs", required=True)
    ap.add_argument("--package-json", required=True, help="output of `swift package dump-package`")
    ap.add_argument("--libindexstore", required=True)
    ap.add_argument("--swift-frontend", required=True)
    ap.add_argument("--exclude-target", action="append", default=[])
    ap.add_argument("--no-tests", action="store_true", help="leave the test targets out (not built)")
    ap.add_argument("--verbose", action="store_true", help="list unverified and unresolved references")
    args = ap.parse_args()

    package_dir = pathlib.Path(args.package_dir).resolve()
    manifest = json.load(open(args.package_json, encoding="utf-8"))
    project_modules = [t["name"] for t in manifest.get("targets", [])]
    # Each checked target's directory (its `path:`, else Sources/<name>, Tests/<name> for a test
    # target) and what it excludes; a source file belongs to the target of the deepest directory.
    target_dirs = {}
    excluded_dirs = []
    unknown = set(args.exclude_target) - set(project_modules)
    if unknown:
        print(f"apple-availability: --exclude-target: no such target: {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    for target in manifest.get("targets", []):
        if target.get("type") not in CHECKED_TARGET_TYPES or (args.no_tests and target["type"] == "test"):
            continue
        default = "Tests" if target["type"] == "test" else "Sources"
        directory = (package_dir / (target.get("path") or f"{default}/{target['name']}")).resolve()
        target_dirs[directory] = target["name"]
        excluded_dirs += [(directory / e).resolve() for e in target.get("exclude") or []]

    def target_of(path):
        """The checked target `path` is a source of, or None."""
        path = path.resolve()
        if any(path == e or e in path.parents for e in excluded_dirs):
            return None
        for directory in sorted(target_dirs, key=lambda d: -len(d.parts)):
            if directory in path.parents:
                return target_dirs[directory]
        return None
    declared = {p["platformName"]: version_tuple(p["version"]) for p in manifest.get("platforms") or []}
    floors = {}
    derived_from_ios = False
    for name, (domain, oldest) in PLATFORMS.items():
        oldest = version_tuple(".".join(map(str, oldest)))
        if name in declared:
            floors[domain] = max(declared[name], oldest)
        elif name == "maccatalyst" and "ios" in declared:
            floors[domain] = max(oldest, declared["ios"])
            derived_from_ios = True
        else:
            floors[domain] = oldest

    def origin(name):
        if name in declared:
            return ""
        if name == "maccatalyst" and derived_from_ios:
            return " (undeclared: iOS's, as SwiftPM derives it)"
        return " (undeclared: SwiftPM's oldest)"

    how = ", ".join(f"{d} {vstr(floors[d])}{origin(n)}" for n, (d, _) in PLATFORMS.items())
    print(f"apple-availability: deployment targets: {how}")

    symbols, default_implementations = load_symbol_graphs(args.symbol_graphs)
    # Self-test: without these the symbol graphs carry no Apple availability and the check is vacuous.
    anchors = {
        "s:17_StringProcessing5RegexV": (13, 0),  # Regex: macOS 13
        "s:ScT": (10, 15),  # Task: macOS 10.15
        "s:20FoundationEssentials3URLV8filePath13directoryHint10relativeToACSS_AC09DirectoryG0OACSgtcfc": (13, 0),
    }
    for usr, want in anchors.items():
        got = requirement(symbols.get(usr, ("", "", []))[2], "macOS")
        if got is None or got[1][:2] != want:
            print(f"apple-availability: self-test failed: {usr} should need macOS {vstr(want)}, "
                  f"the symbol graphs say {got}", file=sys.stderr)
            return 2
    print(f"apple-availability: {len(symbols)} toolchain declarations with their availability "
          f"({', '.join(TOOLCHAIN_MODULES)})")

    store = IndexStore(args.libindexstore, args.index_store)
    units = {}
    for name in store.units():
        info = store.unit_info(name)
        if not info or not info["main"]:
            continue
        main = pathlib.Path(info["main"])
        target = target_of(main)
        if target is None or target in args.exclude_target or not main.exists():
            continue
        old = units.get(main)
        if old is None or info["mtime"] > old["mtime"]:
            units[main] = info
    # Every source file of the checked targets must have been indexed.
    checked_targets = sorted(set(target_dirs.values()) - set(args.exclude_target))
    expected = {p.resolve() for d in target_dirs for p in d.rglob("*.swift")
                if target_of(p) in checked_targets}
    missing = sorted(expected - {p.resolve() for p in units})
    if missing:
        for p in missing:
            print(f"apple-availability: {p}: not in the index store (was it built?)", file=sys.stderr)
        return 2

    occurrences = []  # (file, line, col, usr, name)
    defined = set()
    for main, info in sorted(units.items()):
        for record, path in info["records"]:
            for usr, name, line, col, roles in store.references(record):
                if roles & (ROLE_DECLARATION | ROLE_DEFINITION):
                    defined.add(usr)
                elif roles & ROLE_REFERENCE:
                    occurrences.append((pathlib.Path(path or main), line, col, usr, name))

    region_cache = {}

    def regions_of(path):
        if path not in region_cache:
            text = path.read_text(encoding="utf-8", errors="replace")
            region_cache[path] = (availability_regions(args.swift_frontend, path)
                                  if re.search(r"[@#](un)?available\b", text) else [])
        return region_cache[path]

    def local_floor(path, line, col, domain):
        floor = floors[domain]
        for start, end, spec in regions_of(path):
            if start <= (line, col) <= end:
                if "unavailable" in (spec.get(domain), spec.get("*")) or (
                        domain in ("macCatalyst", "visionOS") and domain not in spec and spec.get("iOS") == "unavailable"):
                    return None  # not compiled for this platform's checks
                v = spec.get(domain)
                if v is None and domain in ("macCatalyst", "visionOS") and isinstance(spec.get("iOS"), tuple):
                    v = spec["iOS"] if domain == "macCatalyst" else ios_to_visionos(spec["iOS"])
                if isinstance(v, tuple) and v > floor:
                    floor = v
        return floor

    violations = []
    checked = 0
    unverified = defaultdict(list)  # declaration -> [(file, line)]
    unresolved = defaultdict(list)
    by_module = defaultdict(int)
    project_prefixes = tuple(f"s:{len(m)}{m}" for m in project_modules)
    c_references = 0
    for path, line, col, usr, name in occurrences:
        entry = symbols.get(usr)
        if entry is None:
            # An accessor (`getter:x`, `setter:subscript(_:)`): the symbol graph has the property or
            # subscript, whose availability the accessor has.
            m = ACCESSOR_USR.match(usr)
            if m:
                entry = symbols.get(m["base"] + m["kind"] + "p" + m["static"])
        if entry is None:
            if usr in defined or usr.startswith(project_prefixes) or usr.startswith("s:e:"):
                continue  # the project's own declarations, including synthesized ones
            if usr.startswith(("s:SC", "s:So", "c:", "s:5Glibc", "s:4Musl")):
                c_references += 1  # C declarations and Glibc's overlay (Darwin on Apple platforms)
                continue
            unresolved[(usr, name)].append((path, line))
            continue
        module, title, availability = entry
        by_module[module] += 1
        checked += 1
        apple = [a for a in availability if a.get("domain") in floors or a.get("domain") == "*"]
        if module in UNATTRIBUTED_MODULES and not any(a.get("domain") in floors for a in apple):
            unverified[f"{module}.{title}"].append((path, line))
            continue
        needs = []
        for domain in floors:
            floor = local_floor(path, line, col, domain)
            if floor is None:
                continue
            why = problem(availability, domain, floor)
            if why and any(problem(symbols[d][2], domain, floor) is None
                           for d in default_implementations.get(usr, ()) if d in symbols):
                # A protocol requirement newer than the floor with an older default implementation:
                # below the requirement's version the compiler picks the default implementation
                # (checked: `x &* y` on Int with -target x86_64-apple-macosx12.0 resolves to
                # `FixedWidthInteger extension.&*`, whose requirement is macOS 15).
                continue
            if why:
                needs.append(why)
        if needs:
            violations.append((path, line, col, f"{module}.{title}", needs))

    def rel(p):
        try:
            return p.resolve().relative_to(package_dir)
        except ValueError:
            return p

    seen = set()
    floor_text = ", ".join(f"{d} {vstr(v)}" for d, v in floors.items())
    needed = defaultdict(int)
    for path, line, col, decl, needs in sorted(violations, key=lambda v: (str(v[0]), v[1], v[2], v[3])):
        key = (path, line, col, decl)
        if key in seen:
            continue
        seen.add(key)
        needed[(decl, ", ".join(needs))] += 1
        print(f"{rel(path)}:{line}:{col}: error: `{decl}` needs {', '.join(needs)}")
    if seen:
        print(f"apple-availability: the deployment targets are {floor_text}; the declarations that need more:")
        for (decl, needs), n in sorted(needed.items()):
            print(f"  {decl}: {needs} ({n}x)")

    files = len(units)
    print(f"apple-availability: {len(checked_targets)} targets checked: {', '.join(checked_targets)}"
          + (f"; left out: {', '.join(sorted(args.exclude_target))}" if args.exclude_target else ""))
    print(f"apple-availability: {files} source files, {len(occurrences)} references, {checked} to toolchain "
          f"declarations ({', '.join(f'{m} {n}' for m, n in sorted(by_module.items(), key=lambda x: -x[1]))})")
    print(f"apple-availability: {len(unverified)} declarations of swift-corelibs-foundation/libdispatch/xctest "
          f"referenced without any Apple availability to check ({sum(len(v) for v in unverified.values())} "
          f"references){': ' if args.verbose else ' (--verbose lists them)'}")
    if args.verbose:
        for decl, uses in sorted(unverified.items()):
            p, l = uses[0]
            print(f"  {decl}  ({len(uses)}x, first {rel(p)}:{l})")
    print(f"apple-availability: {c_references} references to C declarations and Glibc's overlay (Darwin "
          f"on Apple platforms): not checked")
    print(f"apple-availability: {len(unresolved)} referenced Swift declarations neither in the project nor in "
          f"the symbol graphs ({sum(len(v) for v in unresolved.values())} references)"
          f"{':' if args.verbose else ' (--verbose lists them)'}")
    if args.verbose:
        for (usr, name), uses in sorted(unresolved.items(), key=lambda x: x[0][1]):
            p, l = uses[0]
            print(f"  {name}  {usr}  ({len(uses)}x, first {rel(p)}:{l})")
    if seen:
        print(f"apple-availability: FAILED: {len(seen)} references need a newer OS than Package.swift declares")
        return 1
    print("apple-availability: OK: no reference needs a newer OS than Package.swift declares")
    return 0


if __name__ == "__main__":
    sys.exit(main())

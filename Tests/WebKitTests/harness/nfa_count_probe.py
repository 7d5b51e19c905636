#!/usr/bin/python3
"""Count the automata WebKit makes when it compiles rule lists: what a list's compile time follows.

    nfa_count_probe.py FILE_OR_DIR...                        (the machine's WebKitGTK)
    in_webkit_root.py --bind DIR ROOT /usr/bin/python3 nfa_count_probe.py FILE_OR_DIR...

For measurement only (BENCHMARKS.md, "WebKit compile time of our list"). WebKit cuts a list's
url-filters into automata (CombinedURLFilters.cpp, processNFAs: one rooted after the last
quantified term of each url-filter, `…host\\.?(:[0-9]+)?/` one per host) and converts each to a
DFA after writing it to a temporary file of its own (NFAToDFA::convert, SerializedNFA::serialize:
`SerializedNFA-XXXXXX` in GLib's temporary directory, unlinked at once). This script points
TMPDIR at a fresh directory before WebKit starts, watches it with inotify and counts the files
created while each list compiles: the automata of the list's url-filters and if-top-url entries.
A deterministic count, which other processes on the machine cannot disturb, unlike a time.

Each argument is a rule list or a directory of them (`rules*.json`, not `*.sources.json`, as
`trackerless rules --output DIR/` writes). Prints one JSON line per list, {"list", "rules",
"nfas", "seconds"}, then one per directory with the sums. Exit status 1 when a list does not
compile.
"""

import ctypes
import glob
import json
import os
import struct
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
IN_CREATE = 0x00000100
PREFIX = b"SerializedNFA"


class CreatedFiles:
    """Names of the files created in one directory, read from inotify without blocking."""

    def __init__(self, directory):
        self.libc = ctypes.CDLL(None, use_errno=True)
        self.fd = self.libc.inotify_init1(os.O_NONBLOCK)
        if self.fd < 0:
            raise OSError(ctypes.get_errno(), "inotify_init1")
        if self.libc.inotify_add_watch(self.fd, directory.encode(), IN_CREATE) < 0:
            raise OSError(ctypes.get_errno(), "inotify_add_watch")

    def drain(self):
        """The names created since the last call."""
        names = []
        while True:
            try:
                data = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                return names
            offset = 0
            while offset < len(data):
                _, _, _, length = struct.unpack_from("iIII", data, offset)
                offset += 16
                names.append(data[offset:offset + length].rstrip(b"\0"))
                offset += length


def lists_of(argument):
    if os.path.isdir(argument):
        return [path for path in sorted(glob.glob(os.path.join(argument, "rules*.json")))
                if not path.endswith(".sources.json")]
    return [argument]


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="nfa-count-") as tmp:
        watched = os.path.join(tmp, "tmpdir")
        os.mkdir(watched)
        os.environ["TMPDIR"] = watched  # before GLib reads it (g_get_tmp_dir caches it)
        sys.path.insert(0, HERE)
        import webkit_harness
        webkit_harness.import_webkit(need_gtk=False)
        created = CreatedFiles(watched)
        compiler = webkit_harness.FilterCompiler(os.path.join(tmp, "store"))
        status = 0
        for index, argument in enumerate(sys.argv[1:]):
            total_rules = total_nfas = 0
            paths = lists_of(argument)
            for number, path in enumerate(paths):
                with open(path, "rb") as handle:
                    source = handle.read()
                created.drain()
                compiled, error, seconds, _ = compiler.compile("n%d.%d" % (index, number), source)
                nfas = sum(1 for name in created.drain() if name.startswith(PREFIX))
                if compiled is None:
                    print(json.dumps({"list": path, "error": error}))
                    status = 1
                    continue
                rules = len(json.loads(source))
                total_rules += rules
                total_nfas += nfas
                print(json.dumps({"list": path, "rules": rules, "nfas": nfas, "seconds": round(seconds, 3)}))
            if len(paths) > 1:
                print(json.dumps({"directory": argument, "lists": len(paths), "rules": total_rules, "nfas": total_nfas}))
        return status


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Run a command inside a WebKit root (made by .ci/install-webkit-roots.sh) with bubblewrap.

    in_webkit_root.py [--bind DIR]... [--ro-bind DIR]... ROOT COMMAND [ARGUMENT...]
    in_webkit_root.py --check ROOT

The one place that knows how: the WebKit tests (WebKitHarness.swift, with
TRACKERLESS_WEBKIT_ROOT) and the benchmark (--webkit-root) both start their harnesses through
this script, e.g. `in_webkit_root.py ROOT /usr/bin/python3 webkit_harness.py compile`.

First it checks the root: a directory with the stamp `trackerless-webkit-root` (written last by
the root's script), an executable /usr/bin/python3 and /usr/bin/xvfb-run, the command itself
when it is an absolute path, and /usr/bin/bwrap on this machine. `--check` stops there.

Then it replaces itself with bwrap running COMMAND (a path inside the root) with: the root's
top-level directories read-only at / (its top-level symbolic links as they are), fresh /proc,
/dev, /dev/shm, /tmp, /run and /var/tmp, the host's /sys read-only, no network but the
namespace's own loopback (the harnesses' proxies), its own PID, IPC and UTS namespaces; bound
at their own paths, parents before what lies inside them: this script's directory (the
harnesses) and the directory of every other absolute path among the arguments that exists
here, read-only, so that paths in a harness's input stay valid; each --ro-bind DIR read-only;
each --bind DIR writable (a run's temporary directory: inputs, rule lists, stderr). The
environment is cleared (no DISPLAY: the harness starts the root's own xvfb-run) but for PATH,
HOME=/tmp/home, LANG=C.UTF-8, TMPDIR=/tmp, PYTHONDONTWRITEBYTECODE=1, NO_AT_BRIDGE=1 and
TRACKERLESS_WEBKIT_API when set; the working directory is /tmp. Standard input, output and
error are the caller's.

Exit status: the command's (or 1 when bwrap itself fails); 120 bad usage; 121 the root is not
a directory; 122 it has no stamp (unfinished); 123 a program the root needs is missing from it;
124 /usr/bin/bwrap is missing. Each check's message names the root, on stderr.
"""

import os
import sys

BWRAP = "/usr/bin/bwrap"
STAMP = "trackerless-webkit-root"
REBUILD = "rebuild it with .ci/install-webkit-roots.sh"
# Top-level directories of the root that are not bound: fresh ones replace them, or none is needed.
SPECIAL = {"proc", "dev", "sys", "tmp", "run", "home", "root", "mnt", "media", "lost+found", "boot"}

USAGE = ("usage: in_webkit_root.py [--bind DIR]... [--ro-bind DIR]... ROOT COMMAND [ARGUMENT...]\n"
         "       in_webkit_root.py --check ROOT")


def fail(status, message):
    print(f"in_webkit_root: {message}", file=sys.stderr)
    sys.exit(status)


def check(root, command):
    """Exits with the status of the first thing missing."""
    if not os.path.isdir(root):
        fail(121, f"{root}: no such directory (make the roots with .ci/install-webkit-roots.sh)")
    if not os.path.isfile(os.path.join(root, STAMP)):
        fail(122, f"{root} is not a finished WebKit root (no {STAMP} stamp; {REBUILD})")
    needed = ["/usr/bin/python3", "/usr/bin/xvfb-run"]
    if command and command[0].startswith("/") and command[0] not in needed:
        needed.append(command[0])
    for program in needed:
        if not os.access(root + program, os.X_OK):
            fail(123, f"{root} has no {program} ({REBUILD})")
    if not os.access(BWRAP, os.X_OK):
        fail(124, f"{BWRAP} is missing (apt: bubblewrap), needed to run commands in {root}")


def bwrap_arguments(root, command, writable, read_only):
    arguments = [BWRAP, "--die-with-parent", "--unshare-pid", "--unshare-ipc", "--unshare-net",
                 "--unshare-uts", "--hostname", "webkit-root"]
    for name in sorted(os.listdir(root)):
        if name in SPECIAL:
            continue
        path = os.path.join(root, name)
        if os.path.islink(path):
            arguments += ["--symlink", os.readlink(path), "/" + name]
        elif os.path.isdir(path):
            arguments += ["--ro-bind", path, "/" + name]
    arguments += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/dev/shm", "--ro-bind", "/sys", "/sys",
                  "--tmpfs", "/tmp", "--tmpfs", "/run", "--tmpfs", "/var/tmp", "--dir", "/tmp/home"]
    # path -> writable; a directory asked for both ways is writable.
    binds = {os.path.dirname(os.path.abspath(__file__)): False}
    for argument in command[1:]:
        if argument.startswith("/") and os.path.exists(argument):
            binds.setdefault(os.path.dirname(argument), False)
    for directory in read_only:
        binds.setdefault(directory, False)
    for directory in writable:
        binds[directory] = True
    for path in sorted(binds, key=lambda path: (len(path), path)):
        arguments += ["--bind" if binds[path] else "--ro-bind", path, path]
    arguments += ["--clearenv", "--setenv", "PATH", "/usr/sbin:/usr/bin:/sbin:/bin",
                  "--setenv", "HOME", "/tmp/home", "--setenv", "LANG", "C.UTF-8",
                  "--setenv", "TMPDIR", "/tmp", "--setenv", "PYTHONDONTWRITEBYTECODE", "1",
                  "--setenv", "NO_AT_BRIDGE", "1", "--chdir", "/tmp"]
    api = os.environ.get("TRACKERLESS_WEBKIT_API")
    if api is not None:
        arguments += ["--setenv", "TRACKERLESS_WEBKIT_API", api]
    return arguments + ["--"] + command


def main(argv):
    writable, read_only, check_only = [], [], False
    while argv and argv[0].startswith("--"):
        option = argv.pop(0)
        if option == "--check":
            check_only = True
        elif option in ("--bind", "--ro-bind") and argv:
            directory = os.path.abspath(argv.pop(0))
            (writable if option == "--bind" else read_only).append(directory)
        else:
            fail(120, f"bad option {option}\n{USAGE}")
    if not argv or (check_only and len(argv) != 1) or (not check_only and len(argv) < 2):
        fail(120, USAGE)
    root, command = os.path.abspath(argv[0]), argv[1:]
    check(root, command)
    if check_only:
        return
    arguments = bwrap_arguments(root, command, writable, read_only)
    os.execv(BWRAP, arguments)


if __name__ == "__main__":
    main(sys.argv[1:])

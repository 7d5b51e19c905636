"""The display of the WebKit probes in Tests/Support, which run in a root of
.ci/install-webkit-roots.sh, where no DISPLAY is set."""

import os
import random
import shutil
import sys


def ensure_display(script):
    """Runs `script` (the probe's own file) again under `xvfb-run -a` with the same arguments when
    there is no display."""
    if os.environ.get("DISPLAY") or os.environ.get("TRACKERLESS_PROBE_UNDER_XVFB"):
        return
    xvfb = shutil.which("xvfb-run")
    if xvfb is None:
        sys.exit("%s: no DISPLAY and no xvfb-run" % os.path.basename(script))
    env = dict(os.environ, TRACKERLESS_PROBE_UNDER_XVFB="1")
    # A random first display number: concurrent `xvfb-run -a` runs otherwise race for :99.
    os.execve(xvfb, [xvfb, "-a", "-n", str(random.randint(100, 30000)), "-s", "-screen 0 1280x1024x24 -nolisten tcp",
                     sys.executable, os.path.abspath(script)] + sys.argv[1:], env)

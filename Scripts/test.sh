#!/usr/bin/env bash
# Runs every test of the package: the Swift tests and the JavaScript tests (Node's built-in test
# runner over Tests/JavaScript). Installs WebKitGTK, Xvfb and friends first when it can (as root
# or with sudo), so that the real-WebKit tests run; without them those tests are skipped, unless
# TRACKERLESS_REQUIRE_WEBKIT=1 (CI), which makes them fail instead. Node.js is installed the same
# way when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! bash .ci/install-webkit.sh; then
    echo "test.sh: WebKitGTK could not be installed; the real-WebKit tests will be skipped" >&2
fi
if ! bash .ci/install-node.sh; then
    echo "test.sh: Node.js could not be installed; the JavaScript tests cannot run" >&2
    exit 1
fi
swift build --build-tests
# The JavaScript tests render scripts with the `trackerless` binary just built.
export TRACKERLESS_BIN="$PWD/.build/debug/trackerless"
status=0
node --test Tests/JavaScript || status=$?
swift test --skip-build || status=$?
# The WebKitGTK browser (Integrations/WebKitGTK), a package of its own: it needs WebKitGTK 6.0's
# development files, which the root package does not.
if pkg-config --exists webkitgtk-6.0 2>/dev/null; then
    (swift build --build-tests --package-path Integrations/WebKitGTK \
        && swift test --skip-build --package-path Integrations/WebKitGTK) || status=$?
elif [[ "${TRACKERLESS_REQUIRE_WEBKIT:-}" == "1" ]]; then
    echo "test.sh: webkitgtk-6.0 (libwebkitgtk-6.0-dev) is missing and TRACKERLESS_REQUIRE_WEBKIT=1" >&2
    status=1
else
    echo "test.sh: webkitgtk-6.0 not found (apt: libwebkitgtk-6.0-dev); the WebKitGTK browser package is not built or tested" >&2
fi
exit "$status"

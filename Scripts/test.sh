#!/usr/bin/env bash
# Runs every test of the package. Installs WebKitGTK, Xvfb and friends first when it can (as
# root or with sudo), so that the real-WebKit tests run; without them those tests are skipped,
# unless TRACKERLESS_REQUIRE_WEBKIT=1 (CI), which makes them fail instead.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! bash .ci/install-webkit.sh; then
    echo "test.sh: WebKitGTK could not be installed; the real-WebKit tests will be skipped" >&2
fi
swift build --build-tests
swift test --skip-build

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
# Each step's output is also kept, so that the end of the run repeats what failed: CI shows only
# the last part of the output.
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
failed=()
run_step() {
    local name=$1 code
    shift
    set +e
    "$@" 2>&1 | tee "$logs/$name.log"
    code=${PIPESTATUS[0]}
    set -e
    if [[ $code -ne 0 ]]; then
        status=$code
        failed+=("$name")
    fi
}
run_step node node --test Tests/JavaScript
run_step swift-test swift test --skip-build
# The WebKitGTK browser (Integrations/WebKitGTK), a package of its own: it needs WebKitGTK 6.0's
# development files, which the root package does not.
if pkg-config --exists webkitgtk-6.0 2>/dev/null; then
    run_step webkitgtk-build swift build --build-tests --package-path Integrations/WebKitGTK
    if [[ ! " ${failed[*]} " =~ " webkitgtk-build " ]]; then
        run_step webkitgtk-test swift test --skip-build --package-path Integrations/WebKitGTK
    fi
elif [[ "${TRACKERLESS_REQUIRE_WEBKIT:-}" == "1" ]]; then
    echo "test.sh: webkitgtk-6.0 (libwebkitgtk-6.0-dev) is missing and TRACKERLESS_REQUIRE_WEBKIT=1" >&2
    status=1
else
    echo "test.sh: webkitgtk-6.0 not found (apt: libwebkitgtk-6.0-dev); the WebKitGTK browser package is not built or tested" >&2
fi
# The real-WebKit tests once more against each older and newer WebKitGTK, in the Debian roots
# that .ci/install-webkit-roots.sh makes (as root; CI runs it): 2.44 (bullseye, GI WebKit2 4.0)
# and 2.54 (trixie, WebKit2 4.1). The harnesses run the root's python3 inside it
# (TRACKERLESS_WEBKIT_ROOT, Tests/WebKitTests/harness/README.md), and WebKitVersionTests checks
# that the WebKit there is the version the root's stamp names. A missing root is skipped, unless
# TRACKERLESS_REQUIRE_WEBKIT=1, which makes it fail.
webkit_roots=${TRACKERLESS_WEBKIT_ROOTS:-/var/cache/trackerless-webkit-roots}
for root_name in webkitgtk-2.44 webkitgtk-2.54; do
    root="$webkit_roots/$root_name"
    step="webkit-${root_name#webkitgtk-}"
    version=$(sed -n 's/^webkit=//p' "$root/trackerless-webkit-root" 2>/dev/null || true)
    if [[ -z "$version" ]]; then
        if [[ "${TRACKERLESS_REQUIRE_WEBKIT:-}" == "1" ]]; then
            echo "test.sh: error: the WebKitGTK ${root_name#webkitgtk-} root $root is missing or unfinished (make it with .ci/install-webkit-roots.sh, as root) and TRACKERLESS_REQUIRE_WEBKIT=1" \
                | tee "$logs/$step.log" >&2
            status=1
            failed+=("$step")
        else
            echo "test.sh: no WebKitGTK ${root_name#webkitgtk-} root at $root (.ci/install-webkit-roots.sh makes it); the WebKit tests run against this machine's WebKitGTK only" >&2
        fi
        continue
    fi
    echo "test.sh: the WebKit tests against WebKitGTK $version in $root"
    run_step "$step" env TRACKERLESS_WEBKIT_ROOT="$root" TRACKERLESS_EXPECT_WEBKIT_VERSION="$version" \
        swift test --skip-build --filter WebKitTests
done
if [[ $status -ne 0 ]]; then
    echo "test.sh: FAILED: ${failed[*]:-a requirement}" >&2
    for name in "${failed[@]}"; do
        echo "test.sh: what failed in $name:" >&2
        grep -E "✘|^not ok|^# fail|error:|Fatal error|Test run with .* failed" "$logs/$name.log" | head -60 >&2 || true
    done
fi
exit "$status"

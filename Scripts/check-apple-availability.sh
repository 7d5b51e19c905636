#!/usr/bin/env bash
# Checks, on Linux, that the package's sources use no toolchain API newer than the Apple platforms
# Package.swift declares (`platforms:`), since Apple platforms cannot be built here.
#
#   bash Scripts/check-apple-availability.sh [--verbose] [--tests] [--exclude-target NAME]...
#
# Every target that `swift build` builds is checked: the libraries, the executables
# (TrackerlessCLI, TrackerlessBenchmarks: `swift build` on a Mac builds them all) and
# TrackerlessTestSupport. --tests adds the test targets (`swift test`, `swift build
# --build-tests`); --exclude-target NAME leaves a target out; --verbose lists the unverified and
# unresolved references. (--all-targets, which used to add TrackerlessBenchmarks, is the default
# now and is accepted for compatibility.)
#
# 1. Builds the package (every target; the tests too with --tests) with the index store in
#    its own scratch directory (.build-availability, git-ignored by `.build-*/`): the compiler
#    records there every declaration each source line references, resolved (USR, file:line:col).
# 2. Extracts the symbol graphs of the toolchain's modules (swift-symbolgraph-extract): each public
#    and internal declaration with its `@available(macOS 13.0, iOS 16.0, ...)` attributes, merged
#    with those of its enclosing type and extension. They are read from the modules the
#    toolchain's .swiftinterface files were emitted with, so they are the attributes those files
#    print (Swift, _Concurrency, _StringProcessing, Synchronization, Testing...); FoundationEssentials and
#    FoundationInternationalization ship no .swiftinterface on Linux, and their binary modules
#    carry swift-foundation's own attributes. A self-test fails the check (exit 2) unless the
#    graphs say Regex needs macOS 13, Task macOS 10.15 and URL(filePath:...) macOS 13.
# 3. Scripts/apple-availability.py reads the index store through the toolchain's libIndexStore.so
#    and fails, naming file:line:col, the declaration and the OS versions it needs, for every
#    reference to a declaration that needs a newer OS than Package.swift declares on macOS, iOS,
#    Mac Catalyst (derived from iOS, as SwiftPM does), tvOS, watchOS or visionOS (an undeclared
#    platform counts at SwiftPM's oldest default). References inside `@available`/`#available`
#    regions are checked against those regions' versions.
#
# What this proves: every declaration of Swift, _Concurrency, _StringProcessing, Synchronization,
# RegexBuilder, Observation, Distributed, FoundationEssentials and FoundationInternationalization
# (swift-foundation, which carries Apple's availability and is Foundation's implementation on
# Apple platforms since macOS 15 / iOS 18) and Testing (swift-testing, with its Apple availability)
# that the compiled sources reference is available at the declared versions.
#
# What it does not prove (see the report it prints):
# - swift-corelibs-foundation (`Foundation`: NSRegularExpression, NSLock, FileHandle, NSString...)
#   libdispatch (`Dispatch`) and swift-corelibs-xctest (`XCTest`) carry no Apple availability on
#   Linux: their referenced declarations are listed as unverified, for a person to check against
#   Apple's documentation.
# - Only the code compiled on Linux is seen: `#if canImport(Darwin)`/`canImport(WebKit)`/
#   `os(macOS)` branches (all of TrackerlessWebKit) are not compiled here, and C declarations
#   (Glibc here, Darwin there) are not checked.
# - Overloads are resolved as on Linux, where nothing is unavailable. On an older Apple target the
#   compiler may pick an older overload instead (it does for a protocol requirement with an older
#   default implementation, e.g. `x &* y`, whose FixedWidthInteger requirement is macOS 15: the
#   check accounts for that case), so a failure can be a false alarm; and Apple's Foundation may
#   resolve a call differently from corelibs-foundation.
# - References the compiler does not index are not seen: implicit conformances and conversions,
#   string interpolation, literals. Language features that need a newer runtime (parameterized
#   existentials `any P<T>` at runtime, typed-throws function types as values, `@isolated(any)`,
#   noncopyable generics' metadata) are diagnosed by the compiler on Apple platforms, not here.
# - Test targets are checked only with --tests (they do not pass yet: Mutex, ContinuousClock,
#   Regex, `.timeLimit` in some tests), against the declared versions as the other targets.
#   SwiftPM builds them for at least XCTest's own minimum deployment target, read from the Mac's
#   Xcode (PlatformsResolver, xcTestMinimumDeploymentTargets), which a Linux host cannot know: a
#   test that uses something newer than Package.swift declares may still build with a given Xcode,
#   but the check asks for what builds with any of them.
# - Plugin targets (Plugins/, compiled for the host by the plugin runner) are not checked.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build-availability
options=()
exclude=()
build_tests=()
tests=(--no-tests)
while [[ $# -gt 0 ]]; do
    case "$1" in
    --verbose) options+=(--verbose) ;;
    --all-targets) ;;
    --tests)
        build_tests=(--build-tests)
        tests=()
        ;;
    --exclude-target)
        [[ $# -ge 2 ]] || { echo "$0: --exclude-target needs a target name" >&2; exit 2; }
        exclude+=(--exclude-target "$2")
        shift
        ;;
    *) echo "usage: $0 [--verbose] [--tests] [--exclude-target NAME]..." >&2; exit 2 ;;
    esac
    shift
done

swift_bin=$(dirname "$(readlink -f "$(command -v swift)")")
toolchain_lib=$(readlink -f "$swift_bin/../lib")
triple=$("$swift_bin/swiftc" -print-target-info | python3 -c 'import json,sys; print(json.load(sys.stdin)["target"]["triple"])')

# Other work in the same tree can change a source file during the build ("was modified during the
# build"): try again a couple of times.
mkdir -p "$scratch"
for attempt in 1 2 3; do
    if swift build --scratch-path "$scratch" --enable-index-store "${build_tests[@]}" >"$scratch/build.log" 2>&1; then
        break
    fi
    if [[ $attempt == 3 ]] || ! grep -q "modified during the build" "$scratch/build.log"; then
        cat "$scratch/build.log" >&2
        echo "check-apple-availability: the build failed" >&2
        exit 2
    fi
done

swift package --scratch-path "$scratch" dump-package >"$scratch/package.json"

graphs="$scratch/symbolgraphs"
rm -rf "$graphs"
mkdir -p "$graphs"
for module in Swift _Concurrency _StringProcessing Synchronization Distributed Observation RegexBuilder \
    Dispatch Foundation FoundationEssentials FoundationInternationalization FoundationNetworking FoundationXML \
    Testing _Testing_Foundation XCTest; do
    "$swift_bin/swift-symbolgraph-extract" -module-name "$module" -target "$triple" \
        -minimum-access-level internal -output-dir "$graphs" >/dev/null
done

python3 Scripts/apple-availability.py \
    --package-dir . \
    --index-store "$scratch/$triple/debug/index/store" \
    --symbol-graphs "$graphs" \
    --package-json "$scratch/package.json" \
    --libindexstore "$toolchain_lib/libIndexStore.so" \
    --swift-frontend "$swift_bin/swift-frontend" \
    "${tests[@]}" "${exclude[@]}" "${options[@]}"

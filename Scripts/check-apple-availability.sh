#!/usr/bin/env bash
# Checks, on Linux, that the package's sources use no toolchain API newer than the Apple platforms
# Package.swift declares (`platforms:`), since Apple platforms cannot be built here.
#
#   bash Scripts/check-apple-availability.sh [--verbose] [--all-targets]
#
# --verbose lists the unverified and unresolved references; --all-targets checks
# TrackerlessBenchmarks too (left out by default: a development tool, not part of the SDK).
#
# 1. Builds the package (every target under Sources/, tests not included) with the index store in
#    its own scratch directory (.build-availability, git-ignored by `.build-*/`): the compiler
#    records there every declaration each source line references, resolved (USR, file:line:col).
# 2. Extracts the symbol graphs of the toolchain's modules (swift-symbolgraph-extract): each public
#    and internal declaration with its `@available(macOS 13.0, iOS 16.0, ...)` attributes, merged
#    with those of its enclosing type and extension. They are read from the modules the
#    toolchain's .swiftinterface files were emitted with, so they are the attributes those files
#    print (Swift, _Concurrency, _StringProcessing, Synchronization...); FoundationEssentials and
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
# Apple platforms since macOS 15 / iOS 18) that the compiled sources reference is available at the
# declared versions.
#
# What it does not prove (see the report it prints):
# - swift-corelibs-foundation (`Foundation`: NSRegularExpression, NSLock, FileHandle, NSString...)
#   and libdispatch (`Dispatch`) carry no Apple availability on Linux: their referenced
#   declarations are listed as unverified, for a person to check against Apple's documentation.
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
# - Test targets are not built, so not checked.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build-availability
options=()
exclude=(--exclude-target TrackerlessBenchmarks)
for argument in "$@"; do
    case "$argument" in
    --verbose) options+=(--verbose) ;;
    --all-targets) exclude=() ;;
    *) echo "usage: $0 [--verbose] [--all-targets]" >&2; exit 2 ;;
    esac
done

swift_bin=$(dirname "$(readlink -f "$(command -v swift)")")
toolchain_lib=$(readlink -f "$swift_bin/../lib")
triple=$("$swift_bin/swiftc" -print-target-info | python3 -c 'import json,sys; print(json.load(sys.stdin)["target"]["triple"])')

# Other work in the same tree can change a source file during the build ("was modified during the
# build"): try again a couple of times.
mkdir -p "$scratch"
for attempt in 1 2 3; do
    if swift build --scratch-path "$scratch" --enable-index-store >"$scratch/build.log" 2>&1; then
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
    Dispatch Foundation FoundationEssentials FoundationInternationalization FoundationNetworking FoundationXML; do
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
    "${exclude[@]}" "${options[@]}"

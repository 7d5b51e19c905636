#!/usr/bin/env bash
# Builds the DocC catalog of every library module that has one (Sources/<Module>/<Module>.docc)
# with the toolchain's `docc`, from the symbol graphs of a debug build, and fails on any warning:
# an unresolved link, a topic naming a symbol that is gone, a malformed directive.
#
#   Scripts/docs.sh                 every catalog, into .build/docs/<Module>
#   Scripts/docs.sh RuleBuilder     one module
set -euo pipefail
cd "$(dirname "$0")/.."

modules=("$@")
if ((${#modules[@]} == 0)); then
    for catalog in Sources/*/*.docc; do modules+=("$(basename "$(dirname "$catalog")")"); done
fi

swift package dump-symbol-graph --minimum-access-level public >/dev/null
graphs="$(swift build --show-bin-path)/../symbolgraph"
status=0
for module in "${modules[@]}"; do
    catalog=$(ls -d "Sources/$module/"*.docc 2>/dev/null | head -1 || true)
    [[ -n "$catalog" ]] || { echo "docs.sh: $module has no catalog" >&2; exit 2; }
    work=".build/docs/symbolgraph/$module"
    rm -rf "$work" ".build/docs/$module"
    mkdir -p "$work"
    # The module's own graph and its extensions of other modules' types.
    cp "$graphs/$module.symbols.json" "$work/"
    cp "$graphs/$module@"*.symbols.json "$work/" 2>/dev/null || true
    log=".build/docs/$module.log"
    docc convert "$catalog" --additional-symbol-graph-dir "$work" --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.trackerless.$module" --output-path ".build/docs/$module" >"$log" 2>&1 || {
        echo "docs.sh: docc failed for $module" >&2
        cat "$log" >&2
        status=1
        continue
    }
    if grep -q "warning:" "$log"; then
        echo "docs.sh: $module: $(grep -c "warning:" "$log") warning(s)"
        grep -A3 "warning:" "$log" | head -60
        status=1
    else
        echo "docs.sh: $module: no warnings"
    fi
done
exit "$status"

#!/usr/bin/env bash
# Writes every output a refactoring must keep byte for byte into OUTDIR, from the real blocklists
# in ../shared/data: rule lists (with and without a privacy configuration), compiled engines,
# rendered scripts (fixed secret), cookie lists, Firefox's lists, `stats` on the sample recording,
# and `resolve` / `decide` on the 8,276 real request URLs.
#
#   Scripts/snapshot-outputs.sh .build/debug/trackerless /tmp/before
#   ... change the code, build ...
#   Scripts/snapshot-outputs.sh .build/debug/trackerless /tmp/after
#   diff -r /tmp/before /tmp/after      # nothing, when the refactoring kept every output
set -euo pipefail
if [[ $# -ne 2 ]]; then echo "usage: Scripts/snapshot-outputs.sh TRACKERLESS_BINARY OUTDIR" >&2; exit 2; fi
root=$(cd "$(dirname "$0")/.." && pwd)
binary=$(realpath "$1")
out=$2
shared=$(realpath -m "$root/../shared/data")
[[ -d "$shared/tds" ]] || { echo "snapshot-outputs: $shared/tds not found (the shared data beside the repository)" >&2; exit 1; }
mkdir -p "$out"
out=$(realpath "$out")
cd "$root"

# The real requests as resolve and decide read them.
python3 - "$shared/requests/matching-test-requests.json" "$out" <<'PY'
import json, sys
requests = json.load(open(sys.argv[1]))
with open(sys.argv[2] + "/requests-resolve.jsonl", "w") as resolve, open(sys.argv[2] + "/requests-decide.jsonl", "w") as decide:
    for r in requests:
        site = r["sourceUrl"] if len(r["sourceUrl"]) > 8 else "https://example.org/"
        resolve.write(json.dumps({"url": r["url"], "top": site, "type": r["type"]}) + "\n")
        kind = "fetch" if r["type"] == "xmlhttprequest" else r["type"]
        decide.write(json.dumps({"url": r["url"], "top": site, "type": kind}) + "\n")
PY

for t in apple extension; do
    tds="$shared/tds/$t-tds.json"
    # A set (DIR/): extension-tds's entity lists make it more than one list.
    "$binary" rules --tds "$tds" --output "$out/rules-$t/" --report --sources 2>"$out/rules-$t.err"
    sed -i -E 's/^peak memory: [0-9]+ kB$/peak memory: (not compared)/' "$out/rules-$t.err"
    if [[ $t == apple ]]; then
        "$binary" rules --tds "$tds" --privacy-config Examples/privacy-config.json --output "$out/rules-$t-pc/" 2>/dev/null
    fi
    lists=()
    for list in "$out/rules-$t"/rules*.json; do [[ $list == *.sources.json ]] || lists+=(--rules "$list"); done
    "$binary" compile "${lists[@]}" --output "$out/engine-$t.bin" 2>"$out/compile-$t.err"
    "$binary" scripts --secret 0123456789abcdef0123456789abcdef --tds "$tds" --output "$out/scripts-$t" 2>/dev/null
    "$binary" cookies --tds "$tds" --privacy-config Examples/privacy-config.json --output "$out/cookies-$t.json" 2>"$out/cookies-$t.err"
done
"$binary" firefox --lists "$shared/shavar/disconnect-blacklist.json" --output "$out/firefox" 2>"$out/firefox.err"
"$binary" stats --messages Examples/sample-messages.jsonl >"$out/stats-sample.json" 2>"$out/stats-sample.err"
# 54 of the URLs do not parse ("https://"): their lines answer {"error": ...} and the exit status is 1.
"$binary" resolve --tds "$shared/tds/apple-tds.json" <"$out/requests-resolve.jsonl" >"$out/resolve.jsonl" 2>"$out/resolve.err" || true
"$binary" decide --rules "$out/engine-apple.bin" <"$out/requests-decide.jsonl" >"$out/decide.jsonl" 2>"$out/decide.err" || true
sed -i -E 's/compiled in [0-9.]+ ms/compiled in (time) ms/; s#^[^:]*/(engine-[a-z]+\.bin)#\1#' "$out"/compile-*.err
echo "snapshot-outputs: $out"

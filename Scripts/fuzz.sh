#!/usr/bin/env bash
# Builds the libFuzzer targets of Fuzz/ (ASan + libFuzzer, release) and runs each one on its
# seed corpus (Fuzz/Corpus/<target>), one process at a time. Fails on the first crash, trap,
# leak, timeout or out-of-memory; prints the executions of every target.
#
#   Scripts/fuzz.sh                      every target for 10 seconds
#   Scripts/fuzz.sh --seconds 300        every target for 5 minutes
#   Scripts/fuzz.sh --runs 1000000 URLFilterFuzzer RuleListFuzzer
#
# New inputs that reach new code go to Fuzz/.build/corpus/<target> (kept between runs, never
# committed); a failing input is saved as Fuzz/.build/artifacts/<target>-crash-… and can be
# replayed with `Fuzz/.build/release/<target> FILE`. Extra libFuzzer options can be given in
# FUZZ_OPTIONS, for example FUZZ_OPTIONS="-max_len=65536".
set -euo pipefail
cd "$(dirname "$0")/.."

limit=(-max_total_time=10)
targets=()
while (($#)); do
    case "$1" in
        --seconds) limit=(-max_total_time="$2"); shift 2 ;;
        --runs) limit=(-runs="$2"); shift 2 ;;
        -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
        *) targets+=("$1"); shift ;;
    esac
done

build=(swift build --package-path Fuzz -c release --sanitize=fuzzer --sanitize=address --disable-dead-strip
    --disable-build-manifest-caching)
# Dead stripping would drop the coverage counters' sections, and libFuzzer would fuzz blind. The
# build plan is made again each time: a cached one misses source files added to the root
# package since (this package reaches them as a dependency), and the build fails not finding them.
"${build[@]}"
bin="$("${build[@]}" --show-bin-path)"
if ((${#targets[@]} == 0)); then
    for directory in Fuzz/Sources/*Fuzzer; do targets+=("$(basename "$directory")"); done
fi

mkdir -p Fuzz/.build/corpus Fuzz/.build/artifacts
# libFuzzer and ASan print the stack of a crash; Swift's own backtracer would only add noise.
export SWIFT_BACKTRACE=enable=no
# Leaks of the toolchain's own libraries (each line says why) are not findings of ours.
export LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan-suppressions.txt${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
status=0
summary=()
for target in "${targets[@]}"; do
    [[ -x "$bin/$target" ]] || { echo "fuzz.sh: no fuzz target $target" >&2; exit 2; }
    corpus="Fuzz/.build/corpus/$target"
    mkdir -p "$corpus"
    options=(-timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="Fuzz/.build/artifacts/$target-")
    [[ -f "Fuzz/Dictionaries/$target.dict" ]] && options+=(-dict="Fuzz/Dictionaries/$target.dict")
    log="Fuzz/.build/$target.log"
    echo "== $target"
    start=$SECONDS
    # The first directory receives new inputs; the seeds are only read.
    # shellcheck disable=SC2086
    if "$bin/$target" "${options[@]}" "${limit[@]}" ${FUZZ_OPTIONS:-} "$corpus" "Fuzz/Corpus/$target" >"$log" 2>&1; then
        result=ok
    else
        result=FAILED
        status=1
        grep -E "ERROR|invariant failed|Fatal error|SUMMARY|Test unit written|artifact_prefix" "$log" | head -20 || true
    fi
    executions="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
    line="$(printf '%-28s %-7s %12s executions %6s s' "$target" "$result" "${executions:-?}" "$((SECONDS - start))")"
    echo "$line"
    summary+=("$line")
done
echo "== summary"
printf '%s\n' "${summary[@]}"
exit "$status"

#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ with -sanitize=fuzzer,address and runs each for a while.
#
#   scripts/fuzz.sh [seconds per target] [target ...]
#   FUZZ_SECONDS=600 make fuzz                      every target for ten minutes
#   make fuzz FUZZ_TARGETS=request-body FUZZ_SECONDS=60
#   FUZZ_RUNS=20000 FUZZ_SEED=18 make fuzz          a fixed number of inputs from a fixed seed:
#                                                   the same inputs on every run (what CI does)
#
# Each target starts from its committed corpus (Fuzz/Corpus/<target>); inputs that reach new
# code go to .build/fuzz/corpus/<target>, crashes to .build/fuzz/artifacts. A crash fails the run:
# fix it, then commit the input to Fuzz/Corpus/<target> as a regression (the test suite replays
# every committed input).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-${FUZZ_SECONDS:-60}}
shift || true
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || read -r -a targets <<<"${FUZZ_TARGETS:-request-body image-upload video-upload request-head}"
[[ ${#targets[@]} -gt 0 ]] || targets=(request-body image-upload video-upload request-head)
scratch=.build/fuzz
# A fatal error is the finding; Swift's own backtracer under AddressSanitizer only adds noise.
export SWIFT_BACKTRACE=enable=no
flags=(
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING
    -Xcc -fsanitize=fuzzer-no-link,address -Xcxx -fsanitize=fuzzer-no-link,address
)

for target in "${targets[@]}"; do
    [[ -d Fuzz/Corpus/$target ]] || { echo "fuzz: no target '$target' (try request-body, image-upload, video-upload, request-head)" >&2; exit 2; }
    echo "fuzz: building fuzz-$target"
    # The linker warns about every ASan helper it cannot export; those lines are noise.
    swift build --scratch-path "$scratch" --product "fuzz-$target" "${flags[@]}" 2>&1 \
        | grep -vE "Cannot export local symbol|warning: 'swift-distributed-tracing'" | grep -E "error|warning|Build" || true
    [[ -x $scratch/debug/fuzz-$target ]] || { echo "fuzz: the build of fuzz-$target failed" >&2; exit 1; }
done

mkdir -p "$scratch/artifacts" "$scratch/logs"
failed=0
for target in "${targets[@]}"; do
    mkdir -p "$scratch/corpus/$target"
    log=$scratch/logs/$target.log
    what="$seconds s"
    [[ -n ${FUZZ_RUNS:-} ]] && what="$FUZZ_RUNS inputs"
    echo "fuzz: running fuzz-$target for $what${FUZZ_SEED:+ from seed $FUZZ_SEED} (log: $log)"
    status=0
    budget=(-max_total_time="$seconds")
    [[ -n ${FUZZ_RUNS:-} ]] && budget=(-runs="$FUZZ_RUNS")
    [[ -n ${FUZZ_SEED:-} ]] && budget+=(-seed="$FUZZ_SEED")
    # -timeout: an input that takes longer than 20 s is a hang; -rss_limit_mb: one that needs
    # more than 3 GB is a memory bomb. Both count as crashes.
    # request-head runs a whole router, whose Prometheus registry keeps (for good) a counter for
    # each endpoint and status it first answers: LeakSanitizer reports those, so leak checks are
    # off for that target alone. Its findings are crashes and the key check's disagreements.
    leaks=()
    asan=${ASAN_OPTIONS:-}
    if [[ $target == request-head ]]; then
        leaks=(-detect_leaks=0)
        asan=${asan:+$asan:}detect_leaks=0
    fi
    ASAN_OPTIONS=$asan "$scratch/debug/fuzz-$target" "${budget[@]}" "${leaks[@]}" -timeout=20 -rss_limit_mb=3072 -max_len=65536 \
        -print_final_stats=1 -artifact_prefix="$scratch/artifacts/$target-" \
        "$scratch/corpus/$target" "Fuzz/Corpus/$target" >"$log" 2>&1 || status=$?
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    coverage=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+' || echo "?")
    if [[ $status -eq 0 ]]; then
        echo "fuzz: fuzz-$target: $runs inputs, 0 crashes (coverage $coverage edges of Focal's own code)"
    else
        failed=1
        echo "fuzz: fuzz-$target FAILED after $runs inputs (exit $status); the input is in $scratch/artifacts:" >&2
        grep -E "ERROR: |Fatal error|SUMMARY|Test unit written" "$log" | head -5 >&2
    fi
done
exit $failed
